// A key matrix on an MCP23017's pins (the dealer's 4x4 keypad), scanned as QMK scans
// one: the column pins are inputs with pull-ups, OLAT of the row pins stays 0, and a
// row is selected by making its pin an output (it drives low) while the others are
// inputs (hi-Z).  A column pin is pulled low exactly when some pressed key in that
// column sits on a row pin that is an output driving low; as if each key had its diode
// (no ghosting), and a row pin is never pulled by a column.  Recomputed whenever the
// firmware writes the chip's registers (Mcp23017.onWrite) and whenever a key moves;
// the chip's interrupt-on-change logic then runs as for a button.

export class Keypad {
  // chip: the Mcp23017; rows, columns: its pins 0-15; keys: one legend a key, row-major
  // (keys[r * columns.length + c] is the key at rows[r], columns[c]).
  constructor(chip, { rows, columns, keys }) {
    this.chip = chip; this.rows = rows; this.columns = columns; this.keys = keys;
    this.at = new Map([...keys].map((k, i) => [k, { row: rows[Math.floor(i / columns.length)], column: columns[i % columns.length] }]));
    this.down = new Set();
    chip.onWrite = () => this.settle();
  }

  has(key) { return this.at.has(key); }

  settle() {
    for (const column of this.columns) {
      const low = [...this.down].some((k) => { const p = this.at.get(k); return p.column === column && this.chip.drivesLow(p.row); });
      this.chip.pull(column, low);
    }
  }

  key(key, down) {
    if (down) this.down.add(key); else this.down.delete(key);
    this.settle();
    this.chip.sense();
  }

  // A power cut: nobody holds a key any more.
  releaseAll() { this.down.clear(); this.settle(); this.chip.sense(); }
}
