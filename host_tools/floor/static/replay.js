// A round, step by step: the steps (host_tools/floor/shown.py, replay_steps) are in the
// page as JSON, each drawn as text only.
const steps = JSON.parse(document.getElementById("steps").textContent);
let at = 0;

function show() {
  const step = steps[at];
  const f = step.felt;
  document.getElementById("where").textContent = "step " + (at + 1) + " of " + steps.length;
  document.getElementById("line").textContent = step.at + "  " + step.line;
  const seats = document.getElementById("seats");
  seats.replaceChildren();
  for (const seat of f.seats) {
    const s = document.createElement("span");
    s.className = "seat" + (seat.act ? " act" : "");
    s.textContent = seat.label;
    seats.append(s, " ");
  }
  document.getElementById("middle").textContent = f.middle + " · " + (f.status || "?");
}

function go(to) { at = Math.max(0, Math.min(steps.length - 1, to)); show(); }
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(at - 1);
document.getElementById("next").onclick = () => go(at + 1);
document.getElementById("last").onclick = () => go(steps.length - 1);
document.addEventListener("keydown", e => {
  const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1}[e.key];
  if (to !== undefined) go(to);
});
show();
