"""A technician's authority (felt.table.technician, docs/tilts.md): where the board trusts
keys, configuring the table, registering a deck and clearing a tilt take a command
signed by a trusted key for one of this board's challenges, MACed by the board's own
key; an unsigned, foreign or replayed one is refused and changes nothing, one that
cannot be genuine before any signature is checked.  Seat buttons and the dealer's panel
are untouched.  The answers to a technician's readings and to `verify` carry the board
key's MAC (felt.vouch).

The signatures are made ahead with the RFC 8032 section 7.1 test keys (TEST 1 a
technician's, TEST 2 not trusted, TEST 3 the owner's) over
felt.table.technician.signed_bytes, as host_tools/tech.py signs (the trust documents'
over `felt-root ` and their canonical JSON, as felt-flash root signs), and the MACs with
Python's hmac keyed by BOARD_KEY."""

import os

from table_fakes import BOARD, FakeHal, boot, events, journal_path, scratch_dir

TRUSTED = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
NONCE, NONCE2 = "00112233aabbccdd", "8899aabbccddeeff"
BOARD_KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
# (key id, nonce, signature, MAC by BOARD_KEY) of a `tech` frame: signed for board
# "test" and NONCE by the trusted key, unless named otherwise.
CFG_SIGNED = ("21fe31df", "00112233aabbccdd",
              "44285cd22df50b6b0ef2fde10a3672364fc1ace5fa50c69239fcf693143a5065"
              "47e363bab8d043b3f9be54f23c19d1b7e8ea408e5288d4a5e5dd8843d84a940b",
              "c98ce91770554fa32fe4571bbace9fd17350b90fdbd06e2d1af3fb605e56a792")
# Signed by the RFC's TEST 2 key, which the board does not trust, naming the trusted
# key's id: the MAC holds (a host with the board's key made it), the signature not.
CFG_OTHER_KEY = ("21fe31df", "00112233aabbccdd",
                 "1d34a550d743179758bf54da60e67fa8a1070321ff083cde757da6bde5781690"
                 "3ffa4cdc1be81a6645c7f083214989e0bfee64a81dbd14e9ab5926f4b081ca0b",
                 "c98ce91770554fa32fe4571bbace9fd17350b90fdbd06e2d1af3fb605e56a792")
# Signed and MACed for board "other".
CFG_OTHER_BOARD = ("21fe31df", "00112233aabbccdd",
                   "9f470de771a4e65d1956eb24b806f6311b6e87c4a041e59a449ba8a92b8d7434"
                   "c52a35446bd9e82d4b3080553bfaf247b5e32ba5487646f2ec9c0854ec4ed907",
                   "9b89dc023381ff3b6cd1f52ffcd66bc149e614b11bb529556a1b260f31963487")
# Signed by the TEST 2 key, naming its own id.
CFG_NAMING_ANOTHER_KEY = ("39f713d0", "00112233aabbccdd",
                          "aa3567da8c42a7dd5c3bf20409d3ae9266eaf4958fe46de51a42ddbce236fe28"
                          "1946cd4a095fe68040df78dba4eae698be2d1b0fc3abcf2de730d688f579d304",
                          "6d3a7939b0f5b64bb46626010d1bbc239cfddf9fa8fed5b63ad4df7ad2fa00bb")
DECK_SIGNED = ("21fe31df", "8899aabbccddeeff",
               "f6378396fc3bb539e40e3e5f2109688bf3752457669b0ae840e1e9f4b274fbb1"
               "7d26d110295984eedd2befdfb454c1994f3eac8c28cb68ef7b8924f83dfeb303",
               "341d59c085fba4f7087efebe38441d15c981d07bcdea90a099dab0ed2cc0d66e")
# Reading past rounds and the event log (issue 21: the unsigned `recall` gave every card).
RECALL_SIGNED = ("21fe31df", "00112233aabbccdd",
                 "9faa51fe011fd665b49bfd0596564dc80a24d166dc392e1faf640342d39575e1"
                 "4ef28b0ea99a0b07b15e11d30aa5f0afd58d3775896cec125b50e8b6a35e0c0a",
                 "0c504cf83348ccfc04d177896fd774d05b5c1b8872d878e18c85d82530d003de")
EVENTLOG_SIGNED = ("21fe31df", "00112233aabbccdd",
                   "fcaa287dbb1e5a77314b8fc47b17bb20a6732b45f455b620684f4c0cba4a11dd"
                   "d0b49c8c7bb15522ec7a47f09a4980bf410b9bf72167a25803f6cfa63668fc09",
                   "1bc31597c464bdc648cf9e6b00a84f96670f615a25887cd757d8579bfd634d1f")
# Keys have roles (issue 21, item 5): the RFC 8032 TEST 3 key is the owner's, which
# signs images; a technician's command it signs is refused, but the owner's own.
IMAGE_KEY = "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025"
CFG_BY_IMAGE_KEY = ("dac073e0", "00112233aabbccdd",
                    "1f30af7543ca2d3b0c59b46a3490b152baea90552b17979f26818c08c2a3add9"
                    "443a1ca82457a2c8cd80f35c74816d60d5de638265132d7e946c701dd36e410c",
                    "c07c40bcfc42c8f8337f43ed4510e055271b3c114f223a0fafad7ba4cc437469")
# The trust document (issue 38, item 1): version 1 trusts IMAGE_KEY as the owner and
# TRUSTED as a technician (trust_file); version 2, signed by the owner, leaves TRUSTED
# out (V2_SIG), and comes in a `root` command signed for NONCE.
V1 = {"version": 1, "owners": [IMAGE_KEY], "technicians": [TRUSTED]}
V1_SIG = ("0fab74b0eb679c997b0b567237d7ed16582650d9bcccda394d113634b2f9fb71"
          "53397a22b6b354ced1f5ca15ab67879f19163f5fc099be686183fc1bc7987701")
V2 = {"version": 2, "owners": [IMAGE_KEY], "technicians": []}
V2_SIG = ("eb2a94fc9bae55b26470a36f7ac014732c1daca9efdee7f2ef0b368f668f283c"
          "36c94b2f269c4033dda7fc9b933c2c59586615cd2516dede30883db3ae54b901")
ROOT_V2_BY_OWNER = ("dac073e0", "00112233aabbccdd",
                    "5ef83d08547d06fbc7c326b9c9d95ca6320a79a40f347285b69e3d520bb006ac"
                    "4be16787d0662a0b2e1cacb6bf7ae70989b2780d4ae4aff95792f66420181208",
                    "ff8f95dd077d35221e50a373e76f96807b6b5b6856271f039e1ac56a4518db5c")
# The same signed by the technician's key, naming it: refused before its signature.
ROOT_V2_BY_TECH = ("21fe31df", "00112233aabbccdd",
                   "d7ab893c56e5e7145db7f8208fc78b83540a6e73f33e5e92d0aeff296c4e9810"
                   "baf624b8197f8879dbe8594a8c29c372afa72bb89ee83359474e9ffc106a3802",
                   "884ab12f334dcb776bf6666508fe809557b117843ead078af723e649fa2fe765")
ROOT_V1_BY_OWNER = ("dac073e0", "00112233aabbccdd",
                    "c17793db48135874410ac145881b485599205c96a8ab3c6e3868bc5913c297d4"
                    "243063266dbc4be632ebe8ec8ee3cffef4459e3118fb41b4d0f17df2700fcd0e",
                    "8fe5c41348c3436e7d80af8c6f79307f2332fbd31255999dbe7fcdb95cfb3a21")
# The technician's grab: version 2 naming their key an owner, signed by it (GRAB_SIG);
# the command carrying it signed by the owner, so that only the document's signature
# is at stake.
GRAB = {"version": 2, "owners": [IMAGE_KEY, TRUSTED], "technicians": []}
GRAB_SIG = ("485077609117632b5de2de0e1da48b10ce39e530b33cdd7e3a808d360c31ae62"
            "561b0b789dfe4d4a7e7623df9afe5fa76f4158a9d85c6eef255e60007d94e103")
ROOT_GRAB_BY_OWNER = ("dac073e0", "00112233aabbccdd",
                      "9edd66065f96d832f2e08e68d365186cb792e57d031066bd0b3551fc113f204f"
                      "7ca535892af307257c4f46a1b1d8284fac4155ceed5f559652fe7b9136740800",
                      "23bd9bd1bb0d27ee9864ba79cb095d2fc139f584ba1820738384c0c49f1518c2")
# The USB REPL opened (issue 21, item 2), signed for NONCE by the owner's (image) key:
# from the REPL a technician's key was made an owner's (issue 38, item 1).
SERVICE_BY_OWNER = ("dac073e0", "00112233aabbccdd",
                    "50afbd9e1f4d1b2a5c256587b0c02ca510d2918878c408037dabbc3d8d747bf8"
                    "e3b66ddf9dfd80b82611e5f0cd767ca8a0f5b6710046d2dee0d3afcadc40520a",
                    "38b4f764b311175792d705b2ff80c3a40ca632f7f66f4ca086ade2e6bfe859ca")
# The same, signed by the technician's key: refused.
SERVICE_SIGNED = ("21fe31df", "00112233aabbccdd",
                  "de9f3d22c2c9a7f433ea80eb1d6adbe9ce6d44c1f9518206ec4ec188b9471ccf"
                  "b0775e11ced7776311e1d351ce5caa75d7d12a12900c3d6728b1971b1455db06",
                  "79ff0f1bbd55bda12f1484badb6aad7111d9d7738db91960f552c0369a4d7948")
CLEAR_SIGNED = ("21fe31df", "00112233aabbccdd",
                "fe2001da7d514d1c5bbb13475916c33fedb0a1b25568c2e36ae5ea8eb8db809d"
                "feedd1580290f85eedaa82159db22dda2deb6521589613264d78934b34068501",
                "9b649eb9c3bd176212d38b00847c18bca4619fc8d14d6676f1514b0e4faba0ae")
NOT_SIGNED = "cfg refused: not signed by key 21fe31df for this board's challenge"


def trust_file():
    """A board's trust document (felt.image): V1 and its signature, in a folder of
    their own that also holds the board's record of them (felt.newest); its path."""
    import json
    from felt import image, protocol
    folder = scratch_dir("technician-keys")
    for name, data in (("trust.json", protocol.dumps(V1)), ("trust.sig", V1_SIG + "\n"),
                       ("felt.newest", json.dumps(image.first_record("test", V1)))):
        with open(folder + "/" + name, "w") as f:
            f.write(data)
    return folder + "/trust.json"


def with_board_key(path, key=BOARD_KEY):
    """The board's own key beside its journal at `path` (felt.boardkey), as felt-flash
    install writes it; returns `path`."""
    with open(path + ".key", "w") as f:
        f.write(key + "\n")
    return path


def keyed(path=None):
    """A table that trusts TRUSTED and keeps BOARD_KEY, its challenge NONCE given;
    (controller, hal).  Its image folder is the trust document's: the board's record is
    kept there."""
    from felt.table.controller import Controller
    from felt.table.journal import Journal
    hal = FakeHal()
    path = with_board_key(path or journal_path("technician"))
    trust = trust_file()
    ctl = Controller(hal, BOARD, Journal(path), trust, trust[:trust.rfind("/")])
    given(ctl, NONCE)
    return ctl, hal


def given(ctl, nonce):
    """`nonce` is a challenge the table gave now (as the `challenge` query draws one)."""
    ctl.challenges.append((nonce, ctl.hal.ticks_ms()))


def tech(cmd, body, signed):
    key, nonce, sig, mac = signed
    return {"cmd": cmd, "body": body, "key": key, "nonce": nonce, "mac": mac, "sig": sig}


def codes(ctl):
    return [r["code"] for r in _log_all(ctl)]


def test_an_unsigned_configuration_is_refused_where_the_board_trusts_keys():
    ctl, hal = keyed()
    why = ctl.handle("cfg", CFG)
    assert why == "cfg is a technician's command: send it signed (tech)"
    assert ctl.config is None
    for kind, body in (("deck", {"register": "A"}), ("clear", {}), ("rules", {"ante": 1})):
        assert ctl.handle(kind, body) == "%s is a technician's command: send it signed (tech)" % kind


def test_a_command_signed_by_a_trusted_key_is_carried_out_and_logged():
    ctl, hal = keyed()
    assert ctl.handle("challenge", {}) is None        # another, drawn for this request
    kind, p = hal.link.sent[-1]
    assert kind == "challenge" and p["board"] == "test" and p["nonce"] != NONCE
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    assert ctl.config is not None and ctl.stacks == [100, 100, 100, 100]
    assert codes(ctl)[-1] == "technician"
    assert _log_all(ctl)[-1]["detail"].startswith("cfg, signed by key ")


def test_a_replayed_command_is_refused_and_changes_nothing():
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    assert ctl.challenges == []                        # spent
    ctl.stacks[0] = 60                                 # play went on since
    why = ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED))
    assert why == "cfg refused: nonce %s is not a challenge of this board's: ask for " \
                  "one" % NONCE
    assert ctl.stacks == [60, 100, 100, 100]
    assert codes(ctl)[-1] == "technician_refused"


MAC_WRONG = "cfg refused: its MAC does not hold: not sent by a host that has this board's key"


def test_a_command_signed_by_another_key_or_for_another_board_is_refused():
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("cfg", CFG, CFG_OTHER_KEY)) == NOT_SIGNED
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("cfg", CFG, CFG_OTHER_BOARD)) == MAC_WRONG
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("cfg", CFG, CFG_NAMING_ANOTHER_KEY)) == \
        "cfg refused: key 39f713d0 is not trusted for cfg"
    assert ctl.config is None


def test_a_signature_and_the_mac_cover_the_body():
    ctl, hal = keyed()
    changed = dict(CFG, stacks=[1000, 100, 100, 100])
    assert ctl.handle("tech", tech("cfg", changed, CFG_SIGNED)) == MAC_WRONG
    assert ctl.config is None


def test_a_frame_that_cannot_be_genuine_is_refused_for_its_own_reason_and_spends_nothing():
    """Issue 38, item 3: a frame of the wrong shape, a nonce the board did not give or
    has spent, a key not trusted for the command, a MAC that does not hold: each refused
    before any signature is checked (a hash at most), each for its reason, and the
    technician's challenge stays, so the genuine command that answers it is taken."""
    ctl, hal = keyed()
    key, nonce, sig, mac = CFG_SIGNED
    frames = (
        (dict(tech("cfg", CFG, CFG_SIGNED), key="21fe31"),
         "tech key must be the signing key's id: 4 bytes in lower-case hex"),
        (dict(tech("cfg", CFG, CFG_SIGNED), nonce="0011"),
         "tech nonce must be a challenge of this board's: 8 bytes in lower-case hex"),
        (dict(tech("cfg", CFG, CFG_SIGNED), mac=mac[:62]),
         "tech mac must be 32 bytes in lower-case hex"),
        (dict(tech("cfg", CFG, CFG_SIGNED), sig=sig[:126]),
         "tech sig must be 64 bytes in lower-case hex"),
        (tech("cfg", CFG, (key, NONCE2, sig, mac)),
         "cfg refused: nonce %s is not a challenge of this board's: ask for one" % NONCE2),
        (tech("cfg", CFG, CFG_BY_IMAGE_KEY), "cfg refused: key dac073e0 is not trusted for cfg"),
        (tech("cfg", CFG, (key, nonce, sig, "00" * 32)), MAC_WRONG),
        (tech("cfg", CFG, (key, nonce, "ab" * 64, "00" * 32)), MAC_WRONG),
    )
    for frame, why in frames:
        assert ctl.handle("tech", frame) == why
        assert [c[0] for c in ctl.challenges] == [NONCE]     # not spent
    assert ctl.config is None
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    assert ctl.challenges == []                        # spent by the signed one


def test_each_challenge_pays_for_one_signature_check_and_a_failed_one_refuses_no_other():
    """A frame that passes the cheap checks (a host with the board's key made it)
    spends its challenge whatever its signature says: sent again, it is refused without
    a check; the command that answers another challenge is taken."""
    ctl, hal = keyed()
    given(ctl, NONCE2)
    assert ctl.handle("tech", tech("cfg", CFG, CFG_OTHER_KEY)) == NOT_SIGNED
    assert [c[0] for c in ctl.challenges] == [NONCE2]  # NONCE spent by the failed check
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) == \
        "cfg refused: nonce %s is not a challenge of this board's: ask for one" % NONCE
    assert ctl.handle("tech", tech("cfg", CFG, CFG_OTHER_KEY)).endswith("ask for one")
    assert ctl.handle("tech", tech("deck", {"register": "A"}, DECK_SIGNED)) == \
        "deck A is in service already"                 # taken: its signature held


def test_challenges_are_drawn_per_request_four_outstanding_at_most():
    from felt.table.technician import CHALLENGES
    assert CHALLENGES == 4
    ctl, hal = keyed()
    drawn = []
    for _ in range(5):
        assert ctl.handle("challenge", {}) is None
        drawn.append(hal.link.sent[-1][1]["nonce"])
    assert len(set(drawn)) == 5 and NONCE not in drawn
    assert [c[0] for c in ctl.challenges] == drawn[1:]   # NONCE and the first dropped
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)).endswith("ask for one")


def test_a_board_that_trusts_keys_but_keeps_none_of_its_own_takes_no_signed_command():
    from felt.table.controller import Controller
    from felt.table.journal import Journal
    path = journal_path("technician-no-board-key")
    try:
        os.remove(path + ".key")
    except OSError:
        pass
    ctl = Controller(FakeHal(), BOARD, Journal(path), trust_file())
    given(ctl, NONCE)
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) == \
        "cfg refused: this board keeps no key of its own (felt-flash install makes one)"
    assert ctl.config is None and codes(ctl)[-1] == "technician_refused"


def test_a_challenge_expires_after_five_minutes():
    from felt.table.technician import CHALLENGE_MS
    assert CHALLENGE_MS == 5 * 60 * 1000
    ctl, hal = keyed()
    hal.now = CHALLENGE_MS                             # the technician took too long
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)).endswith("ask for one")
    assert ctl.config is None and ctl.challenges == []
    # The clock wraps at 2**30 ms (felt.hal.clock): a challenge drawn just before the
    # wrap is still fresh a minute after it.
    ctl, hal = keyed()
    hal.now = (1 << 30) - 1000
    given(ctl, NONCE)
    hal.now = 59000
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None


def test_a_flood_of_bogus_commands_is_counted_and_flushes_no_technician_record():
    """Issue 21: 400 bogus `tech` frames pushed the `technician` and `deck_retired`
    records out of the log.  Refusals are counted (a record at the 1st, 10th, 100th),
    and the kept records have files of their own."""
    path = journal_path("technician-flood")
    ctl, hal = keyed(path)
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    ctl.record("deck_retired", "deck A: a deck check found 51 cards")
    given(ctl, NONCE)
    whys = set()
    for i in range(400):
        whys.add(ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED[:2] + ("%0128x" % i, "%064x" % i))))
        hal.now += 10
    assert whys == {MAC_WRONG}
    refused = [r["detail"] for r in _log_all(ctl) if r["code"] == "technician_refused"]
    assert refused == ["cfg", "cfg (the 10th since boot)", "cfg (the 100th since boot)"]
    assert ctl.eventlog.counted == {"technician_refused": 400}
    for i in range(300):          # a flood of records anyone on the link can cause
        ctl.record("shuffler_jam", "deck A to be shuffled by hand, try %d" % i)
    log = _log_all(ctl)
    assert [r["code"] for r in log if r["code"] in ("technician", "deck_retired")] == \
        ["technician", "deck_retired"]
    assert [r["n"] for r in log] == sorted(r["n"] for r in log)   # oldest first
    assert log[-1]["detail"] == "deck A to be shuffled by hand, try 299"
    again, _ = boot(path)                              # and after a power cycle
    assert [r["code"] for r in _log_all(again)][:2] == ["technician", "deck_retired"]
    assert again.eventlog.seq == log[-1]["n"]
    given(ctl, NONCE2)
    # Its signature checked (the challenge spent): deck A is in service already.
    assert ctl.handle("tech", tech("deck", {"register": "A"}, DECK_SIGNED)) == \
        "deck A is in service already"
    assert [c[0] for c in ctl.challenges] == [NONCE]


def test_a_malformed_technician_command_is_refused_with_why():
    ctl, hal = keyed()
    assert ctl.handle("tech", dict(tech("cfg", {}, CFG_SIGNED), cmd="btn")) == \
        'tech cmd must be one of cfg, rules, deck, clear, recall, eventlog, root, service, not "btn"'
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED[:2] + ("00" * 10, CFG_SIGNED[3]))) == \
        "tech sig must be 64 bytes in lower-case hex"
    assert [c[0] for c in ctl.challenges] == [NONCE]   # checked before anything is spent


def test_seat_buttons_and_the_panel_need_no_signature():
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    assert ctl.handle("dealer", {"b": "deal"}) is None
    given(ctl, NONCE2)
    # A deck registered by the technician, signed (13:47-20.38(h)).
    why = ctl.handle("tech", tech("deck", {"register": "A"}, DECK_SIGNED))
    assert why is None or "signed" not in why


def test_a_developers_table_over_the_link_takes_technician_commands_plainly():
    from felt.table.controller import Controller
    from felt.table.journal import Journal
    hal = FakeHal()
    ctl = Controller(hal, BOARD, Journal())            # no keys: felt-emulator without --image
    assert ctl.handle("cfg", CFG) is None
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) == \
        "this table trusts no key: send technician commands plainly"
    assert hal.link.sent[0][1]["signed"] is False


def not_a_journal(path):
    """A journal the table cannot read at boot, so that it boots tilted; its path."""
    with open(path, "w") as f:
        f.write("not a journal\n")
    return path


def test_clearing_a_tilt_keeps_the_journal_as_found_and_starts_a_new_table():
    path = not_a_journal(journal_path("technician-clear"))
    ctl, hal = keyed(path)
    assert ctl.locked is not None
    assert ctl.handle("cfg", CFG).startswith("the table is locked: ")
    # Signed, but a tilted table takes nothing but the clearing.
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)).startswith("the table is locked: ")
    given(ctl, NONCE)
    assert ctl.handle("tech", tech("clear", {}, CLEAR_SIGNED)) is None
    assert ctl.locked is None and ctl.config is None
    with open(path + ".cleared") as f:
        assert f.read() == "not a journal\n"           # kept as found
    assert events(hal, "cleared") == [{"e": "cleared", "kept": path + ".cleared"}]
    assert [r["code"] for r in _log(ctl)][-2:] == ["tilt_cleared", "technician"]
    # The new table's journal is written from scratch, and a boot resumes it.
    assert os.stat(path)[6] > 0
    again, _ = boot(path)
    assert again.locked is None and again.config is None


def test_a_developers_table_clears_a_tilt_plainly_and_a_keyed_one_only_signed():
    # A developer's table (no keys) takes technician commands plainly, yet refused a
    # plain `clear` as "the table is locked": nothing could clear its tilt (issue 22's
    # view test found it).
    path = not_a_journal(journal_path("developer-clear"))
    ctl, hal = boot(path)
    assert ctl.locked is not None
    assert ctl.handle("clear", {}) is None and ctl.locked is None
    keyed_ctl, _ = keyed(not_a_journal(path))
    assert keyed_ctl.handle("clear", {}) == "clear is a technician's command: send it signed (tech)"
    assert keyed_ctl.locked is not None


def test_clear_on_a_table_that_is_not_tilted_is_refused():
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("clear", {}, CLEAR_SIGNED)) == \
        "nothing to clear: the table is not tilted"


def _log(ctl):
    records, nxt = ctl.eventlog.page(0)
    return records


def _log_all(ctl):
    """Every record the event log keeps, read a page at a time as the link does."""
    got, start = [], 0
    while start is not None:
        records, start = ctl.eventlog.page(start)
        got += records
    return got


def test_past_rounds_and_the_event_log_are_read_by_a_technician_only():
    """Issue 21: the unsigned `recall` query returned every card of past rounds, hole
    cards included.  Where the board trusts keys, `recall` and `eventlog` are a
    technician's, signed; a tilted table is read all the same (a technician reads it
    before clearing).  A recall that gives no round (this journal does not read) and
    reading the event log are not logged."""
    path = journal_path("technician-reading")
    with open(path, "w") as f:
        f.write("not a journal\n")
    ctl, hal = keyed(path)
    assert ctl.locked is not None
    for kind, body in (("recall", {"round": 0, "from": 0}), ("eventlog", {"from": 0})):
        assert ctl.handle(kind, body) == \
            "%s is a technician's command: send it signed (tech)" % kind
        assert [k for k, p in hal.link.sent if k == kind] == []
    logged = len(_log_all(ctl))
    assert ctl.handle("tech", tech("recall", {"round": 0, "from": 0}, RECALL_SIGNED)) is None
    assert [k for k, p in hal.link.sent].count("recall") == 1
    given(ctl, NONCE)
    assert ctl.handle("tech", tech("eventlog", {"from": 0}, EVENTLOG_SIGNED)) is None
    answer = [p for k, p in hal.link.sent if k == "eventlog"][-1]
    assert answer["records"][-1]["code"] == "critical_memory"
    assert len(_log_all(ctl)) == logged


def test_a_rounds_public_record_is_anyones_where_its_full_recall_is_a_technicians():
    """`public` reveals no card the table did not show: a board that trusts keys
    answers it unsigned, and logs nothing; `recall` stays a technician's, each answer
    that gave a round logged with the key that signed it."""
    from table_fakes import fold_round
    path = journal_path("technician-public")
    ctl, hal = keyed(path)
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    fold_round(ctl)
    logged = len(_log_all(ctl))
    assert ctl.handle("public", {"round": 0, "from": 0}) is None
    answer = hal.link.sent[-1][1]
    assert answer["format"] == "phh" and answer["hand"] == 1 and "????" in answer["text"]
    assert ctl.handle("recall", {"round": 0, "from": 0}) == \
        "recall is a technician's command: send it signed (tech)"
    assert len(_log_all(ctl)) == logged
    given(ctl, NONCE)
    assert ctl.handle("tech", tech("recall", {"round": 0, "from": 0}, RECALL_SIGNED)) is None
    assert hal.link.sent[-1][1]["hand"] == 1
    newest = _log_all(ctl)[-1]
    assert (newest["code"], newest["detail"]) == (
        "recall", "round 0 from record 0, signed by key %s" % key_id(TRUSTED))
    assert len(_log_all(ctl)) == logged + 1


# ----- keys have roles (issue 21, item 5) ------------------------------------------------

def refused_signature(ctl, cmd, body, sig):
    given(ctl, NONCE)
    return ctl.handle("tech", tech(cmd, body, sig))


def test_a_key_that_signs_images_cannot_sign_a_technicians_command():
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("cfg", CFG, CFG_BY_IMAGE_KEY)) == \
        "cfg refused: key %s is not trusted for cfg" % key_id(IMAGE_KEY)
    assert ctl.config is None


def test_a_new_trust_document_signed_by_the_owner_revokes_a_key_and_never_goes_back():
    # Issue 38, item 1: a key is revoked by a newer version that leaves it out; versions
    # only grow, so the older document that named it is never taken again.
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("root", {"doc": V2, "sig": V2_SIG}, ROOT_V2_BY_OWNER)) \
        is None
    assert codes(ctl)[-2:] == ["trust_replaced", "technician"]
    revoked = "cfg refused: key %s is not trusted for cfg" % key_id(TRUSTED)
    assert refused_signature(ctl, "cfg", CFG, CFG_SIGNED) == revoked
    assert ctl.config is None
    from felt import lazy
    image = lazy.load("felt.image")
    assert image.document(ctl.trust) == V2
    # The boot after takes it: its owner signed it, and it is the one recorded; the
    # board booted again still refuses the key.
    assert image.taken(ctl.trust, ctl.image) == V2
    from felt.table.controller import Controller
    from felt.table.journal import Journal
    again = Controller(FakeHal(), BOARD, Journal(ctl.journal.path), ctl.trust, ctl.image)
    given(again, NONCE)
    assert again.handle("tech", tech("cfg", CFG, CFG_SIGNED)) == revoked
    assert refused_signature(ctl, "root", {"doc": V1, "sig": V1_SIG}, ROOT_V1_BY_OWNER) == \
        "root doc: version 1 is not above 2, the version this board holds"
    # Put back on the flash, as whoever writes it could: the boot refuses it.
    written(ctl, V1, V1_SIG)
    assert image.taken(ctl.trust, ctl.image) == \
        ("trust.json", "version 1 is older than 2, the newest this board took")


def test_a_technicians_key_cannot_change_the_trust_document():
    # Issue 38, item 1, as the attack: the technician signs a `root`, or a document
    # naming their own key an owner; both are refused and change nothing.
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("root", {"doc": V2, "sig": V2_SIG}, ROOT_V2_BY_TECH)) == \
        "root refused: key %s is not trusted for root" % key_id(TRUSTED)
    assert refused_signature(ctl, "root", {"doc": GRAB, "sig": GRAB_SIG},
                             ROOT_GRAB_BY_OWNER) == \
        "root sig: not by a key that is an owner in the document this board holds and in " \
        "the new one"
    from felt import lazy
    image = lazy.load("felt.image")
    assert image.document(ctl.trust) == V1
    assert "trust_replaced" not in codes(ctl)
    assert refused_signature(ctl, "cfg", CFG, CFG_SIGNED) is None   # nothing was revoked
    # Nor on the flash (a REPL's write): the grab at the version the board took, or with
    # its owner's signature kept, tilts the boot.
    written(ctl, dict(GRAB, version=1), GRAB_SIG)
    assert image.taken(ctl.trust, ctl.image) == \
        ("trust.json", "not the document of version 1 this board took")
    written(ctl, GRAB, V1_SIG)
    assert image.taken(ctl.trust, ctl.image) == \
        ("trust.json", "not signed by one of its owners' keys (trust.sig)")


def written(ctl, doc, sig):
    """The trust document `doc` and its signature written on the board's flash."""
    from felt import protocol
    with open(ctl.trust, "w") as f:
        f.write(protocol.dumps(doc))
    with open(ctl.image + "/trust.sig", "w") as f:
        f.write(sig)


def test_root_is_a_signed_command_and_a_table_without_keys_has_no_document_to_replace():
    ctl, hal = keyed()
    assert ctl.handle("root", {"doc": V2, "sig": V2_SIG}) == \
        "root is a technician's command: send it signed (tech)"
    from felt.table.controller import Controller
    plain = Controller(FakeHal(), BOARD)
    assert plain.handle("root", {"doc": V2, "sig": V2_SIG}) == \
        "this table trusts no key: there is no trust document to replace"
    assert plain.handle("root", {"doc": V2, "sig": "00"}) == \
        "root sig must be 64 bytes in lower-case hex"


def test_a_trust_document_that_does_not_read_is_refused_with_why():
    from felt import lazy
    image = lazy.load("felt.image")
    shape = 'not a trust document: {"version", "owners", "technicians"}'
    version = "its version must be a whole number 1 to %d" % image.MAX_VERSION
    for doc, why in (([], shape), (dict(V1, extra=1), shape),
                     (dict(V1, version=0), version), (dict(V1, version=True), version),
                     (dict(V1, version=1 << 30), version),
                     (dict(V1, owners=[]), "it names no owner's key"),
                     (dict(V1, owners=[IMAGE_KEY.upper()]),
                      "its owners must be 32-byte public keys in lower-case hex"),
                     (dict(V1, technicians="x"), "its technicians must be a list of public keys"),
                     (dict(V1, technicians=[IMAGE_KEY]), "a key named twice (a key has one role)"),
                     (dict(V1, technicians=["%064x" % i for i in range(8)]), "more than 8 keys")):
        assert image.trust_why(doc) == why
    # Nothing is written for a document that does not read.
    ctl, hal = keyed()
    assert image.replace_trust(ctl.trust, ctl.image, dict(V2, version=0), V2_SIG) == \
        "root doc: %s" % version
    assert image.document(ctl.trust) == V1


def test_service_is_an_owners_and_opens_nothing_where_the_repl_is_never_shut():
    # Issue 21, item 2: only the Pico image (felt frozen) shuts its USB REPL, so only
    # there is there a service mode to open; elsewhere the signed command is refused,
    # leaves no flag and reboots nothing.
    ctl, hal = keyed()
    reboots = []
    assert ctl.handle("service", {}) == \
        "service is a technician's command: send it signed (tech)"
    assert ctl.handle("tech", tech("service", {}, SERVICE_BY_OWNER)) == \
        "this board's USB REPL is never shut (felt is not frozen into its firmware): " \
        "there is no service mode to open"
    from felt import lazy
    image = lazy.load("felt.image")
    assert not image.opened_for_service(ctl.trust) and reboots == []


def test_an_owners_service_reboots_into_the_repl_for_one_boot():
    # On the Pico image, whose REPL is shut: the flag is written beside the keys, the
    # loop ends with why (felt.guard), the command is logged; the boot after finds the
    # flag once (felt.boot.main), the next plays.  On the image: tests/pico/run.py.
    ctl, hal = keyed()
    reboots = []
    ctl.service = reboots.append          # as felt.loop gives it where the REPL is shut
    assert ctl.handle("tech", tech("service", {}, SERVICE_BY_OWNER)) is None
    assert reboots == ["service mode, as an owner's signed command asked"]
    assert _log_all(ctl)[-1]["detail"].startswith("service, signed by key ")
    from felt import lazy
    image = lazy.load("felt.image")
    assert image.opened_for_service(ctl.trust)
    assert not image.opened_for_service(ctl.trust)


def key_id(hex_key):
    import binascii
    from felt.image import key_id as kid
    return kid(binascii.unhexlify(hex_key))


def test_a_technicians_key_cannot_open_the_usb_repl():
    # Issue 38, item 1, as the attack: a technician's signed `service` opened the USB
    # REPL, from which they appended their key to the owners' and revoked the owner's.
    # `service` is the owner's command alone: refused, no flag left, nothing rebooted.
    ctl, hal = keyed()
    reboots = []
    ctl.service = reboots.append
    assert ctl.handle("tech", tech("service", {}, SERVICE_SIGNED)) == \
        "service refused: key %s is not trusted for service" % key_id(TRUSTED)
    assert reboots == [] and codes(ctl)[-1] == "technician_refused"
    from felt import lazy
    image = lazy.load("felt.image")
    assert not image.opened_for_service(ctl.trust)
    # Still the technician's own commands are theirs.
    assert refused_signature(ctl, "cfg", CFG, CFG_SIGNED) is None


# ----- answers the reader can trust (issue 38, item 4) -------------------------------------

# The board key's MAC of the `verify` answer of a board that runs no image, for the seed
# "00" * 16 (computed with Python's hmac over the canonical JSON docs/protocol.md names).
VERIFY_NO_IMAGE_MAC = "f201c2184082f0cd98018370ca87f6411cedff478ede9ab191c0baae84eb4656"


def vouch_of(kind, nonce, answer, field="mac"):
    """The MAC the board's key owes `answer` (docs/protocol.md): felt.mac's HMAC (RFC
    4231's vectors: test_mac.py) of the canonical JSON of the answer without it, the
    board, the kind and the nonce."""
    import binascii
    from felt import mac, protocol
    rest = dict((k, v) for k, v in answer.items() if k != field)
    data = protocol.dumps({"answer": rest, "board": "test", "kind": kind, "nonce": nonce})
    return binascii.hexlify(mac.digest(binascii.unhexlify(BOARD_KEY), data.encode())).decode()


def test_a_technicians_readings_are_answered_with_the_boards_mac_for_their_challenge():
    from table_fakes import fold_round
    ctl, hal = keyed(journal_path("technician-vouched"))
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    fold_round(ctl)
    given(ctl, NONCE)
    assert ctl.handle("tech", tech("recall", {"round": 0, "from": 0}, RECALL_SIGNED)) is None
    kind, answer = hal.link.sent[-1]
    assert kind == "recall" and answer["hand"] == 1
    assert answer["mac"] == vouch_of("recall", NONCE, answer)
    assert answer["mac"] != vouch_of("recall", NONCE2, answer)      # bound to the challenge
    given(ctl, NONCE)
    assert ctl.handle("tech", tech("eventlog", {"from": 0}, EVENTLOG_SIGNED)) is None
    kind, answer = hal.link.sent[-1]
    assert kind == "eventlog" and answer["records"][-1]["code"] == "recall"
    assert answer["mac"] == vouch_of("eventlog", NONCE, answer)


def test_verify_is_answered_with_the_boards_mac_for_its_seed_where_it_keeps_a_key():
    ctl, hal = keyed()
    assert ctl.handle("verify", {"seed": "00" * 16}) is None
    answer = hal.link.sent[-1][1]
    assert answer["mac"] is None and answer["board_mac"] == VERIFY_NO_IMAGE_MAC
    assert answer["board_mac"] == vouch_of("verify", "00" * 16, answer, "board_mac")
    plain, hal = boot(journal_path("technician-no-key"))   # a developer's: no key, no MAC
    assert plain.key is None
    assert plain.handle("verify", {"seed": "00" * 16}) is None
    assert "board_mac" not in hal.link.sent[-1][1]
