// The SSD1306 OLED controller (Solomon Systech SSD1306 datasheet rev. 1.1) on I2C, as
// micropython-lib's ssd1306.py drives it: each command its own transaction [0x80, cmd],
// the picture as [0x40, ...bytes] after COLUMN_ADDR (0x21) and PAGE_ADDR (0x22).
//
// After the address, a control byte: D/C (bit 6) says whether what follows is data
// (GDDRAM) or commands; Co (bit 7) 0: every byte to the STOP is of that kind, 1: one
// byte, then another control byte.  A command's argument bytes may come in later
// transactions.  The GDDRAM is the controller's 128 x 64 (8 pages of 128 bytes, bit 0
// the top row of its page); a panel narrower than 128 columns shows the middle ones (as
// the driver assumes, writing at (128 - width) / 2), one lower than 64 rows the first
// `height` rows.

// Commands with argument bytes, and how many.  0xAD (internal IREF, SSD1306B: the
// driver sends it) and the scrolling set-ups are parsed with their arguments so these
// are not taken for commands; scrolling itself is not modelled.
const ARGS = {
  0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xad: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1,
  0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0xa3: 2,
};
const COLUMNS = 128, PAGES = 8;
const HORIZONTAL = 0, VERTICAL = 1, PAGE = 2;

export class Ssd1306 {
  // show(event): the picture changed ({hex, on, invert}, at the STOP of the transaction
  // that changed it); log(line): what the model leaves out, said once.
  constructor(address, { width = 128, height = 64, show = () => {}, log = () => {} } = {}) {
    this.address = address; this.width = width; this.height = height;
    this.show = show; this.log = log;
    this.said = new Set();
    this.stats = { commands: 0, data: 0, events: 0 };
    this.reset();
  }

  // Power-on (RES#): the datasheet's reset values; the GDDRAM is undefined there, zero here.
  reset() {
    this.ram = new Uint8Array(COLUMNS * PAGES);
    this.on = false; this.invert = false; this.entireOn = false; this.contrast = 0x7f;
    this.mode = PAGE;
    this.columns = [0, COLUMNS - 1]; this.pages = [0, PAGES - 1];
    this.column = 0; this.page = 0; this.pageColumn = 0;   // the pointer; page mode's start column
    this.segRemap = false; this.comRemap = false; this.startLine = 0; this.mux = 63; this.offset = 0;
    this.settings = new Map();    // other commands' arguments (clock, precharge, VCOM, pump...)
    this.pending = null;          // {cmd, args}: a command waiting for its arguments
    this.expect = 'control';
    this.isData = false;
    this.changed = false;
  }

  say(key, line) { if (!this.said.has(key)) { this.said.add(key); this.log(`ssd1306: ${line}`); } }

  // I2C.  A read answers the status byte (bit 6: display off).
  start() { this.expect = 'control'; return true; }

  write(b) {
    if (this.expect === 'control') {
      this.isData = !!(b & 0x40);
      this.expect = b & 0x80 ? 'one' : 'stream';
      return true;
    }
    if (this.expect === 'one') this.expect = 'control';
    if (this.isData) this.data(b); else this.command(b);
    return true;
  }

  read() { return this.on ? 0x00 : 0x40; }

  stop() {
    if (!this.changed) return;
    this.changed = false;
    this.stats.events++;
    this.show(this.event());
  }

  command(b) {
    this.stats.commands++;
    if (this.pending) {
      this.pending.args.push(b);
      if (this.pending.args.length < ARGS[this.pending.cmd]) return;
      const { cmd, args } = this.pending;
      this.pending = null;
      this.apply(cmd, args);
    } else if (ARGS[b]) this.pending = { cmd: b, args: [] };
    else this.apply(b, []);
  }

  // A setting that changes the picture marks it for an event at the STOP.
  set(key, value) {
    if (this[key] !== value) { this[key] = value; this.changed = true; }
  }

  apply(cmd, [a, b]) {
    if (cmd === 0xae || cmd === 0xaf) this.set('on', cmd === 0xaf);
    else if (cmd === 0xa6 || cmd === 0xa7) this.set('invert', cmd === 0xa7);
    else if (cmd === 0xa0 || cmd === 0xa1) this.set('segRemap', cmd === 0xa1);
    else if (cmd === 0xc0 || cmd === 0xc8) this.set('comRemap', cmd === 0xc8);
    else if (cmd >= 0x40 && cmd <= 0x7f) this.set('startLine', cmd & 0x3f);
    else if (cmd === 0xa4 || cmd === 0xa5) {
      this.entireOn = cmd === 0xa5;
      if (this.entireOn) this.say('a5', 'entire display on (0xA5) is not shown in the display event');
    } else if (cmd === 0x20) {
      if ((a & 3) === 3) this.say('mode', `addressing mode ${a & 3} is invalid (datasheet): ignored`);
      else this.mode = a & 3;
    } else if (cmd === 0x21) { this.columns = [a & 0x7f, b & 0x7f]; this.column = this.columns[0]; }
    else if (cmd === 0x22) { this.pages = [a & 7, b & 7]; this.page = this.pages[0]; }
    else if (cmd <= 0x0f && this.mode === PAGE) this.column = this.pageColumn = (this.pageColumn & 0x70) | cmd;
    else if (cmd >= 0x10 && cmd <= 0x17 && this.mode === PAGE) this.column = this.pageColumn = (this.pageColumn & 0x0f) | ((cmd & 7) << 4);
    else if (cmd >= 0xb0 && cmd <= 0xb7 && this.mode === PAGE) this.page = cmd & 7;
    else if (cmd === 0x81) this.contrast = a;
    else if (cmd === 0xa8) {
      this.mux = a & 0x3f;
      if (this.mux !== this.height - 1) this.say('mux', `multiplex ratio ${this.mux + 1} on a panel of ${this.height} rows: the event shows ${this.height} rows regardless`);
    } else if (cmd === 0xd3) {
      this.offset = a & 0x3f;
      if (this.offset) this.say('offset', `display offset ${this.offset} is not applied to the display event`);
    } else if (cmd === 0x2f) this.say('scroll', 'scrolling (0x2F) is not modelled: the display event shows the GDDRAM unscrolled');
    else if (ARGS[cmd]) this.settings.set(cmd, [a, b]);
  }

  // A data byte lands at the pointer, which moves on as the addressing mode says
  // (datasheet 10.1.3): horizontal, along the column range then to the next page of
  // the page range, wrapping to its start; vertical, down the pages then to the next
  // column; page, along the page to column 127, then back to the page's start column.
  data(b) {
    this.stats.data++;
    this.ram[this.page * COLUMNS + this.column] = b;
    this.changed = true;
    const [c0, c1] = this.columns, [p0, p1] = this.pages;
    if (this.mode === HORIZONTAL) {
      if (this.column < c1) this.column++;
      else { this.column = c0; this.page = this.page < p1 ? this.page + 1 : p0; }
    } else if (this.mode === VERTICAL) {
      if (this.page < p1) this.page++;
      else { this.page = p0; this.column = this.column < c1 ? this.column + 1 : c0; }
    } else this.column = this.column < COLUMNS - 1 ? this.column + 1 : this.pageColumn;
  }

  // The panel as the dealer sees it, in the GDDRAM's own layout (page-major, `width`
  // bytes a page, bit 0 the top row of the page).  The panel is mounted so that the
  // driver's orientation (segment remap 0xA1, COM scan 0xC8) is upright: then the
  // picture is the GDDRAM as written (from the display start line down).  0xA0 mirrors
  // it left to right, 0xC0 top to bottom.
  picture() {
    const w = this.width, h = this.height, off = (COLUMNS - w) >> 1;
    const out = new Uint8Array((w * h) >> 3);
    for (let y = 0; y < h; y++) {
      const row = ((this.comRemap ? y : h - 1 - y) + this.startLine) & 63;
      const src = (row >> 3) * COLUMNS, bit = row & 7, dst = (y >> 3) * w, set = 1 << (y & 7);
      for (let x = 0; x < w; x++) {
        const column = this.segRemap ? COLUMNS - w - off + x : off + w - 1 - x;
        if ((this.ram[src + column] >> bit) & 1) out[dst + x] |= set;
      }
    }
    return out;
  }

  event() { return { hex: Buffer.from(this.picture()).toString('hex'), on: this.on, invert: this.invert }; }
}
