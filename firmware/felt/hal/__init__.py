"""The hardware abstraction layer: one small interface, one backend per board family.

A backend module (`mp` for MicroPython boards, its `open` in `assembly`, `cp` for
CircuitPython boards, `link` for the serial link the emulator and HIL rigs use) provides
`open(board, **opts)`, returning an object with these attributes:

- `board`: the checked board definition.
- `buttons.poll(now_ms)`: list of `(seat, name)` presses accepted since the last poll,
  already debounced; `name` is "fold", "call" or "raise" (the three seat buttons:
  fold, check/call, bet/raise).  Dealer-panel presses come as `("dealer", name)`.
- `card_reader.want(kind, seat=-1)`: tell the shoe a card is expected, `kind` one of
  felt.protocol.CARD_KINDS (ValueError otherwise); `await card_reader.read()`: the
  next line the shoe said, a str such as "As" or whatever garbage it produced;
  `card_reader.said(line)`: the message it is, (kind, payload): a `card` (its code,
  face up, its deck) or the shoe's status, `shoe` (the rules core refuses unknown
  codes).
- `shuffler.start()`: pulse the shuffler's start output; `shuffler.state()`: "idle",
  "shuffling", "done" or "jammed"; `shuffler.present()`: True when fitted to the table.
- `pixels`: a NeoPixel-compatible object (`n`, `pixels[i] = (r, g, b)`, `fill`,
  `write()`), laid out as the board definition's `leds` section says.
- `link`: a `felt.hal.link.Link`: `send(kind, payload)` one frame to the host;
  `await serve(handler)` reads frames for ever, answering each with the handler's
  verdict (docs/protocol.md); `flush()` resends what was not acknowledged in time.
- `ticks_ms()`: a millisecond clock that wraps at 2**30; `feed()`: feed the watchdog;
  `reset()`: reboot the board (felt.guard: a task of the loop died); `watchdog_reset`:
  True when the watchdog reset the board last (logged at boot, docs/tilts.md).
- `keypad`: the dealer's keypad, or None: `poll(now_ms)`, the keys pressed since
  the last poll (characters of the board's `keys`), debounced; `quiet()` as the
  buttons' (felt.hal.keypad).  Its keys go to the dealer's panel (felt.table.panel).
- `display`: the dealer's display, or None: `rows` lines; `show(lines)` draws the
  ones that changed (felt.hal.display).
- `muck`: the muck reader, or None: `poll(now_ms)`, the next card code it read, or
  None; `quiet()` as the buttons' (felt.hal.uart_bridge).  Its cards go to the panel, the
  discards of the seat drawing.
- `wired`: True when buttons, reader and shuffler are pins to poll (felt.loop then starts
  a task for each); False on the link backend, where they arrive as messages.

Board definitions (pins, LED layout) are data in hardware/boards/*.json, read at boot.
"""
