// The floor's page, live: each table's card drawn from what the server sends, words and
// all (host_tools/floor/shown.py), as text only.
// The centre LEDs' colours by scene (felt.table.scenes), brightened for a screen.
const CENTRE = new Map(Object.entries({"idle": "#0c0", "shuffling": "#a0a", "dealing": "#0aa",
  "betting": "#333", "hand shuffle": "#f90", "cut": "#ee0", "called off": "#e00",
  "remove the shoe": "#f6c", "no deck": "#00f", "irregularity": "#fff", "locked": "#800"}));

function text(tag, cls, content) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (content !== undefined) el.textContent = content;
  return el;
}

function draw(view) {
  let card = document.getElementById("t-" + view.name);
  if (!card) {
    card = text("div", "table");
    card.id = "t-" + view.name;
    document.getElementById("tables").append(card);
  }
  card.dataset.status = view.status;
  card.replaceChildren();
  const title = text("h2");
  const link = text("a", "", view.name);
  link.href = "/table/" + encodeURIComponent(view.name);
  title.append(link, text("span", "status " + view.status, view.status_text));
  card.append(title, text("div", "", view.about));
  if (view.tilt) card.append(text("div", "tilt", view.tilt));
  for (const note of view.notes) card.append(text("div", "note", note));
  const felt = text("div", "felt");
  const seats = text("div", "seats");
  for (const seat of view.seats) seats.append(text("span", "seat" + (seat.act ? " act" : ""), seat.label));
  const led = text("span", "led");
  led.style.background = CENTRE.get(view.centre) || "transparent";
  const middle = text("div");
  middle.append(led, " " + view.middle);
  felt.append(seats, middle);
  card.append(felt, text("div", "figures", view.figures));
}

function say(what) { document.getElementById("link").textContent = what; }

const live = new EventSource("/live");
live.addEventListener("tables", e => JSON.parse(e.data).forEach(draw));
live.addEventListener("table", e => draw(JSON.parse(e.data)));
live.onopen = () => say("live");
// Closed for good when the stream is refused (signed out, or the shift is over).
live.onerror = () => say(live.readyState === EventSource.CLOSED ?
  "not live: sign in again (reload the page)" : "reconnecting…");
