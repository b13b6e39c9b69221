import json
import os

from felt import board as B


def _boards_dir():
    # <repo>/tests/... on both runtimes (the MicroPython runner imports the tests by
    # absolute path).  No os.path on MicroPython.
    here = __file__.replace("\\", "/")
    return here[:here.rfind("/tests/")] + "/hardware/boards"


def _pico():
    return B.load(_boards_dir() + "/pico-11.json")


def _copy(d):
    return json.loads(json.dumps(d))


def _refusal(data, name="pico-11"):
    """The message of the ValueError validate() raises for `data`."""
    try:
        B.validate(data, name)
    except ValueError as e:
        msg = str(e)
        assert msg.startswith("board %s: " % name), msg
        return msg
    assert False, "accepted a bad definition"


def test_every_board_file_in_the_repo_loads():
    names = [f for f in os.listdir(_boards_dir()) if f.endswith(".json")]
    assert "pico-11.json" in names and "feather-rp2040-cp.json" in names
    for f in names:
        b = B.load(_boards_dir() + "/" + f)
        assert b["name"] + ".json" == f


def test_pico_has_eleven_seats_on_three_expanders_and_78_leds():
    b = _pico()
    assert b["runtime"] == "micropython"
    assert b["seats"] == 11 and len(b["seat_buttons"]) == 11
    assert [x["address"] for x in b["expanders"]] == [0x20, 0x21, 0x22]
    assert b["leds"]["count"] == 78
    assert b["link"]["uart"] != b["card_reader"]["uart"]


def test_feather_names_circuitpython_board_pins():
    b = B.load(_boards_dir() + "/feather-rp2040-cp.json")
    assert b["runtime"] == "circuitpython" and b["seats"] == 6
    assert b["link"]["tx"] == "TX" and "uart" not in b["link"]


def test_button_table_maps_each_expander_pin_to_its_seat_or_dealer_button():
    events, masks = B.button_table(_pico())
    assert len(events) == 48 and len(masks) == 6
    assert events[0] == (0, "fold") and events[1] == (0, "call") and events[2] == (0, "raise")
    assert events[16 + 8] == (6, "fold")
    assert events[2 * 16 + 11] == ("dealer", "deal")
    wired = [e for e in events if e is not None]
    assert len(wired) == 33 + 9
    # never GPA7/GPB7
    for k in range(3):
        assert events[16 * k + 7] is None and events[16 * k + 15] is None
        assert masks[2 * k] & 0x80 == 0 and masks[2 * k + 1] & 0x80 == 0


def test_led_segment_helpers_give_start_and_count():
    b = _pico()
    assert B.seat_led_range(b, 0) == (0, 6)
    assert B.seat_led_range(b, 10) == (60, 6)
    assert B.centre_led_range(b) == (66, 12)


def test_unknown_top_level_key_is_refused():
    d = _copy(_pico())
    d["ledz"] = {}
    assert "unknown key 'ledz'" in _refusal(d)


def test_missing_section_is_refused():
    d = _copy(_pico())
    del d["shuffler"]
    assert "'shuffler' missing" in _refusal(d)


def test_seat_button_without_pin_is_refused_naming_seat_and_button():
    d = _copy(_pico())
    del d["seat_buttons"][3]["fold"]["pin"]
    assert _refusal(d) == "board pico-11: seat 3 button 'fold' pin missing"


def test_seat_without_a_button_is_refused():
    d = _copy(_pico())
    del d["seat_buttons"][2]["raise"]
    assert _refusal(d) == "board pico-11: seat 2 button 'raise' missing"


def test_missing_dealer_button_is_refused():
    d = _copy(_pico())
    del d["dealer_buttons"]["misdeal"]
    assert "dealer button 'misdeal' missing" in _refusal(d)


def test_more_than_eleven_seats_is_refused():
    d = _copy(_pico())
    d["seats"] = 12
    d["seat_buttons"].append(d["seat_buttons"][0])
    d["leds"]["seats"].append([78, 6])
    assert "at most 11" in _refusal(d)


def test_seat_count_must_match_the_button_list():
    d = _copy(_pico())
    d["seats"] = 10
    assert "seat_buttons has 11 seats, seats is 10" in _refusal(d)


def test_overlapping_led_segments_are_refused():
    d = _copy(_pico())
    d["leds"]["seats"][4] = [26, 6]  # seat 5 starts at 30
    msg = _refusal(d)
    assert "overlap" in msg and "seat 4 LEDs" in msg and "seat 5 LEDs" in msg


def test_led_segment_past_the_end_of_the_chain_is_refused():
    d = _copy(_pico())
    d["leds"]["centre"] = [66, 13]
    assert "centre LEDs [66, 13] runs past the end of the chain (78 LEDs)" in _refusal(d)


def test_gpio_used_twice_is_refused_naming_both_uses():
    d = _copy(_pico())
    d["shuffler"]["jam"] = 5  # the card reader's rx
    msg = _refusal(d)
    assert "pin 5 used twice" in msg
    assert "card_reader.rx" in msg and "shuffler.jam" in msg


def test_expander_pin_used_twice_is_refused():
    d = _copy(_pico())
    d["dealer_buttons"]["deal"] = {"expander": 0, "pin": 0}
    msg = _refusal(d)
    assert "expander 0 pin 0 used twice" in msg
    assert "seat 0 button 'fold'" in msg and "dealer button 'deal'" in msg


def test_mcp23017_pin_7_is_refused_as_an_input():
    d = _copy(_pico())
    d["seat_buttons"][0]["fold"]["pin"] = 7
    assert "mcp23017 pin 7 cannot be an input" in _refusal(d)


def test_button_on_a_missing_expander_is_refused():
    d = _copy(_pico())
    d["seat_buttons"][1]["call"]["expander"] = 3
    assert "seat 1 button 'call' expander is 3, must be 0 to 2" in _refusal(d)


def test_duplicate_expander_address_is_refused():
    d = _copy(_pico())
    d["expanders"][2]["address"] = 0x20
    assert "expanders 0 and 2 both at address 0x20" in _refusal(d)


def test_card_reader_and_link_on_one_uart_are_refused():
    d = _copy(_pico())
    d["card_reader"]["uart"] = 0
    assert "card_reader and link both on UART 0" in _refusal(d)


def test_link_timeout_is_optional_and_bounded():
    d = _copy(_pico())
    d["link"]["timeout_ms"] = -1
    assert "link.timeout_ms" in _refusal(d)


def test_devices_are_wired_unless_the_definition_says_a_rig_plays_them_on_the_link():
    # Issue 21, item 1: a board's devices are its own (docs/security.md).
    assert _pico()["devices"] == "wired"
    d = _copy(_pico())
    d["devices"] = "link"
    assert B.validate(d, "pico-11")["devices"] == "link"
    d["devices"] = "emulated"
    assert "devices must be one of wired, link" in _refusal(d)


def test_pin_type_must_suit_the_runtime():
    d = _copy(_pico())
    d["leds"]["pin"] = "GP22"
    assert "leds.pin must be a GPIO number" in _refusal(d)
    f = _copy(B.load(_boards_dir() + "/feather-rp2040-cp.json"))
    f["leds"]["pin"] = 7
    assert "leds.pin must be a pin name" in _refusal(f, "feather-rp2040-cp")


def test_watchdog_beyond_the_rp2040_limit_is_refused():
    d = _copy(_pico())
    d["watchdog_ms"] = 9000
    assert "watchdog_ms is 9000, must be 500 to 8388" in _refusal(d)


def test_bad_led_order_is_refused():
    d = _copy(_pico())
    d["leds"]["order"] = "GRBW"
    assert "leds.order" in _refusal(d)


def test_true_is_not_a_number():
    d = _copy(_pico())
    d["debounce_ms"] = True
    assert "debounce_ms must be a whole number" in _refusal(d)


def test_invalid_json_is_refused_naming_the_file():
    try:
        B.loads('{"name": "x",', "/board.json")
    except ValueError as e:
        assert str(e).startswith("board file /board.json: not valid JSON")
    else:
        assert False


def test_messages_name_the_board_by_its_own_name_when_read_from_board_json():
    d = _copy(_pico())
    d["seats"] = 0
    try:
        B.loads(json.dumps(d), "board")  # as /board.json on a board
    except ValueError as e:
        assert str(e).startswith("board pico-11: seats is 0")
    else:
        assert False


def test_missing_file_is_refused_naming_the_file():
    try:
        B.load(_boards_dir() + "/no-such-board.json")
    except ValueError as e:
        assert str(e) == "board file %s/no-such-board.json: cannot read it" % _boards_dir()
    else:
        assert False


def test_max_line_defaults_to_16():
    d = _copy(_pico())
    del d["card_reader"]["max_line"]
    assert B.validate(d)["card_reader"]["max_line"] == 16


def test_journal_defaults_to_flash_on_micropython_and_to_none_on_circuitpython():
    # The journal a power cut resumes from (felt.table.journal); CircuitPython's flash
    # is read-only to code unless boot.py remounts it.
    assert _pico()["journal"] == "/journal.jsonl"
    assert B.load(_boards_dir() + "/feather-rp2040-cp.json")["journal"] is None
    d = _copy(_pico())
    d["journal"] = None
    assert B.validate(d)["journal"] is None
    for bad in ("journal.jsonl", 7):
        d["journal"] = bad
        assert "journal must be an absolute path" in _refusal(d)


def test_the_pico_has_a_dealers_keypad_and_display_on_its_bus():
    b = _pico()
    kp = b["keypad"]
    assert kp["address"] == 0x23 and kp["int"] == 13 and len(kp["keys"]) == 16
    assert sorted(kp["keys"]) == sorted(B.PANEL_KEYS)
    assert b["display"] == {"chip": "ssd1306", "address": 0x3C, "width": 128, "height": 64}
    assert b["muck_reader"]["address"] == 0x48 and b["muck_reader"]["irq"] == 19


def test_a_board_without_the_dealers_devices_is_valid():
    d = _copy(_pico())
    for k in ("keypad", "display", "muck_reader"):
        del d[k]
    assert "keypad" not in B.validate(d, "pico-11")


def test_a_muck_reader_needs_the_keypad_and_a_baud_its_crystal_makes():
    d = _copy(_pico())
    assert d["muck_reader"]["irq"] == 19 and B.divisor(d["muck_reader"]) == 96
    d["muck_reader"]["baud"] = 1000000
    assert "a divisor of 1 to 65535" in _refusal(d)
    d = _copy(_pico())
    del d["keypad"]
    assert "muck_reader needs the keypad" in _refusal(d)


def test_a_keypad_is_refused_where_its_keys_or_pins_do_not_fit():
    d = _copy(_pico())
    d["keypad"]["keys"] = "123A456B789C*0#"
    assert "one character per key" in _refusal(d)
    d["keypad"]["keys"] = "123A456B789C*0#1"
    assert "each of 0123456789ABCD*# once" in _refusal(d)
    d = _copy(_pico())
    d["keypad"]["rows"] = [8, 9, 10, 15]
    assert "keypad pin 15 cannot be an input" in _refusal(d)
    d["keypad"]["rows"] = [8, 9, 10, 0]
    assert "keypad pin 0 used twice" in _refusal(d)
    d = _copy(_pico())
    d["keypad"]["int"] = 10
    assert "pin 10 used twice" in _refusal(d)


def test_every_device_on_the_bus_has_an_address_of_its_own():
    d = _copy(_pico())
    d["keypad"]["address"] = 0x22
    assert "expander 2 and keypad both at I2C address 0x22" in _refusal(d)
    d = _copy(_pico())
    del d["muck_reader"]["max_line"]
    assert B.validate(_copy(d), "pico-11")["muck_reader"]["max_line"] == 16
    d["display"]["address"] = 0x48
    assert "display address is 72, must be 60 to 61" in _refusal(d)
    d["display"]["address"] = 0x3C
    d["keypad"]["address"] = 0x3C
    assert "keypad address is 60, must be 32 to 39" in _refusal(d)
    d["keypad"]["address"] = 0x23
    d["display"]["height"] = 48
    assert "display height must be 32 or 64" in _refusal(d)


def test_a_shuffler_may_say_its_deck_checks_on_a_data_port_behind_its_own_bridge():
    d = _copy(_pico())
    assert B.validate(_copy(d), "pico-11")["shuffler"]["data"]["max_line"] == 64
    d["shuffler"]["data"]["address"] = 0x48
    assert "muck_reader and shuffler.data both at I2C address 0x48" in _refusal(d)
    d["shuffler"]["data"]["address"] = 0x49
    d["shuffler"]["data"]["irq"] = 19
    assert "pin 19 used twice" in _refusal(d)
