"""A technician's authority (felt.table.technician, docs/tilts.md): where the board trusts
keys, configuring the table, registering a deck and clearing a tilt take a command
signed by a trusted key for this board's challenge; an unsigned, foreign or replayed
one is refused and changes nothing.  Seat buttons and the dealer's panel are untouched.

The signatures are made ahead with the RFC 8032 section 7.1 test keys (TEST 1 trusted,
TEST 2 not) over felt.table.technician.signed_bytes, as host_tools/tech.py signs."""

import os

from table_fakes import BOARD, FakeHal, boot, events, journal_path, scratch_dir

TRUSTED = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
NONCE, NONCE2 = "00112233aabbccdd", "8899aabbccddeeff"
CFG = {"seats": 4, "stacks": [100, 100, 100, 100], "small_bet": 2, "big_bet": 4,
       "blinds": [1, 2], "ante": 0, "cap": 4, "button": "dealer_right"}
# Signed for board "test" and NONCE by the trusted key, unless named otherwise.
CFG_SIGNED = ("66ff34439ce5ce880a4f67893385c199c71242e2e618b7ba4eccaa855ca94ae8"
              "886fa9843c682e482d9f7632db08ca782d2fb32a7371f92cd104eb87c39af700")
CFG_OTHER_KEY = ("74da503ffda57c37d83d6907fd32a6b91af3ca9ff92734199085378b3920c478"
                 "e00fa2aa0378f3ea8a253ceddde94243f24616dcf66a3b2aa737166d2580af04")
CFG_OTHER_BOARD = ("054b83a0d11a80a5327f48afd26fba9ba6242ce5d2a3c4093006e87136c4ac48"
                   "59fde5e3eb0f064324519d86ba441d306cc894ce9c93ee6d87d1dd8dca90b20f")
DECK_SIGNED = ("dc16694cb73c58fea2ff5359c54997f60eb7c66aee951c8f8777f7cf2ce1a144"     # NONCE2
               "84f6718b5dade7ff876f73c843acfafd1da58386c15dbb66d16f39aded5b2605")
# Reading past rounds and the event log (issue 21: the unsigned `recall` gave every card).
RECALL_SIGNED = ("f7b3fea283dceed112007301c42d6f0e0f57fa480786dbbf0c1ca66e92152943"
                 "da90feffd536718ed4681159680d583c029a2316b8aee98a2abb8cc945443c05")
EVENTLOG_SIGNED = ("916bcdd898be8e5f7ed260a9cf9cb847835382661d7321f5d1c3cc7f1558efcb"
                   "e2a928751fe8ab1991a6aa2efd76b2fb2549d13aa301701d36d81f0480ca1d0a")
# Keys have roles (issue 21, item 5): the RFC 8032 TEST 3 key is the owner's, which
# signs images; a technician's command it signs is refused, but the owner's own.
IMAGE_KEY = "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025"
CFG_BY_IMAGE_KEY = ("93480540d7e08b2d8b3dff84b2c7d9ff6ffceb612724f5cf60735eb9f8a40d8a"
                    "3de669f1a12481200319d6aece1e7c5f88d5c4f9f6f996c4811fcafa14d3a00e")
# The trust document (issue 38, item 1): version 1 trusts IMAGE_KEY as the owner and
# TRUSTED as a technician (trust_file); version 2, signed by the owner, leaves TRUSTED
# out (V2_SIG), and comes in a `root` command signed for NONCE.
V1 = {"version": 1, "owners": [IMAGE_KEY], "technicians": [TRUSTED]}
V1_SIG = ("0fab74b0eb679c997b0b567237d7ed16582650d9bcccda394d113634b2f9fb71"
          "53397a22b6b354ced1f5ca15ab67879f19163f5fc099be686183fc1bc7987701")
V2 = {"version": 2, "owners": [IMAGE_KEY], "technicians": []}
V2_SIG = ("eb2a94fc9bae55b26470a36f7ac014732c1daca9efdee7f2ef0b368f668f283c"
          "36c94b2f269c4033dda7fc9b933c2c59586615cd2516dede30883db3ae54b901")
ROOT_V2_BY_OWNER = ("1ce1956db4c351dd4fac3bea41c5ccd6a4e0590fa4e63d2340ff0e5d4ccd29de"
                    "2d648bc4ecbdaab6fe8a16698ce2d081e64068f9c2de6002918ee1ba8cf14400")
ROOT_V2_BY_TECH = ("4f9ae5721037f67e91835c9c2720d81be3fcb6a330a2d1716bee707a3c72d095"
                   "3e5339f347c8aa2c7982cfff4a1909cdc5a9dade512ac3f4890da78c91f65f0c")
ROOT_V1_BY_OWNER = ("6e61987cec5fd521f013fd696483ceb04d343793e98a82f02520272687013bb7"
                    "a7431dfb204f03d441a3a6da2a184d3932903965a5938746abc054bf66c94e0d")
# The technician's grab: version 2 naming their key an owner, signed by it (GRAB_SIG);
# the command carrying it signed by the owner, so that only the document's signature
# is at stake.
GRAB = {"version": 2, "owners": [IMAGE_KEY, TRUSTED], "technicians": []}
GRAB_SIG = ("485077609117632b5de2de0e1da48b10ce39e530b33cdd7e3a808d360c31ae62"
            "561b0b789dfe4d4a7e7623df9afe5fa76f4158a9d85c6eef255e60007d94e103")
ROOT_GRAB_BY_OWNER = ("9c56a9f4b5d76305d140d649a02cf20da973bb3c6a9a23e1d29bf1b27fdae19a"
                      "d1373135346b8278875eb69c95f3bcfc55265d98bd13d7a477909422f49c9302")
# The USB REPL opened (issue 21, item 2), signed for NONCE by the owner's (image) key:
# from the REPL a technician's key was made an owner's (issue 38, item 1).
SERVICE_BY_OWNER = ("8c16c8495e6e575c649573c6eaae2ca0e753f9d6da0a57793e743f119d699ad8"
                    "f4730e1f45d1eb0cc81f8719255bb58fb2bc507ff05745f28956b28a76a8990f")
# The same, signed by the technician's key: refused.
SERVICE_SIGNED = ("a5793a6b68ce03d07ea774eb7803aa9a86ff088e9c48168b566bcfbb5770720d"
                  "4195c621ad72ab3d47b4c1c699a6540b13f32913c65f1f6e92f04c7647e62f0e")
CLEAR_SIGNED = ("c7218a24b3af8d87546bc21e7c782ca7680192ac3647aa0f9d97f6d5473f89c8"
                "0e3e033b08c1ea4b350bebd432f203496798786862f6142c9af7d9ee8e678f05")


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


def keyed(path=None):
    """A table that trusts TRUSTED, its challenge NONCE; (controller, hal).  Its image
    folder is the trust document's: the board's record is kept there."""
    from felt.table.controller import Controller
    from felt.table.journal import Journal
    hal = FakeHal()
    trust = trust_file()
    ctl = Controller(hal, BOARD, Journal(path), trust, trust[:trust.rfind("/")])
    given(ctl, NONCE)
    return ctl, hal


def given(ctl, nonce):
    """The table's challenge is `nonce`, drawn now (as the `challenge` query draws)."""
    ctl.challenge, ctl.challenge_ms = nonce, ctl.hal.ticks_ms()


def tech(cmd, body, sig):
    return {"cmd": cmd, "body": body, "sig": sig}


def codes(ctl):
    return [r["code"] for r in ctl.eventlog.memory]


def test_an_unsigned_configuration_is_refused_where_the_board_trusts_keys():
    ctl, hal = keyed()
    why = ctl.handle("cfg", CFG)
    assert why == "cfg is a technician's command: send it signed (tech)"
    assert ctl.config is None
    for kind, body in (("deck", {"register": "A"}), ("clear", {}), ("rules", {"ante": 1})):
        assert ctl.handle(kind, body) == "%s is a technician's command: send it signed (tech)" % kind


def test_a_command_signed_by_a_trusted_key_is_carried_out_and_logged():
    ctl, hal = keyed()
    assert ctl.handle("challenge", {}) is None
    assert hal.link.sent[-1] == ("challenge", {"board": "test", "nonce": NONCE})
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    assert ctl.config is not None and ctl.stacks == [100, 100, 100, 100]
    assert codes(ctl)[-1] == "technician"
    assert ctl.eventlog.memory[-1]["detail"].startswith("cfg, signed by key ")


def test_a_replayed_command_is_refused_and_changes_nothing():
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    assert ctl.challenge != NONCE                      # spent
    ctl.stacks[0] = 60                                 # play went on since
    why = ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED))
    assert why == "cfg refused: not signed by a trusted key for this board's challenge"
    assert ctl.stacks == [60, 100, 100, 100]
    assert codes(ctl)[-1] == "technician_refused"


def test_a_command_signed_by_another_key_or_for_another_board_is_refused():
    for sig in (CFG_OTHER_KEY, CFG_OTHER_BOARD):
        ctl, hal = keyed()
        why = ctl.handle("tech", tech("cfg", CFG, sig))
        assert why.startswith("cfg refused: not signed by a trusted key")
        assert ctl.config is None


def test_a_signature_covers_the_body():
    ctl, hal = keyed()
    changed = dict(CFG, stacks=[1000, 100, 100, 100])
    assert ctl.handle("tech", tech("cfg", changed, CFG_SIGNED)).startswith("cfg refused")
    assert ctl.config is None


def test_a_command_not_signed_for_the_challenge_does_not_spend_it():
    """Issue 21: anyone on the link could spend the technician's challenge with a bogus
    `tech` frame; now only a command a trusted key signed for it does."""
    from felt.table.technician import RETRY_MS
    ctl, hal = keyed()
    for sig in (CFG_OTHER_KEY, CFG_OTHER_BOARD, "ab" * 64):
        assert ctl.handle("tech", tech("cfg", CFG, sig)).startswith("cfg refused")
        hal.now += RETRY_MS
    assert ctl.challenge == NONCE
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    assert ctl.challenge != NONCE                      # spent by the signed one


def test_a_challenge_expires_after_five_minutes():
    from felt.table.technician import CHALLENGE_MS
    assert CHALLENGE_MS == 5 * 60 * 1000
    ctl, hal = keyed()
    hal.now = CHALLENGE_MS                             # the technician took too long
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)).startswith("cfg refused")
    assert ctl.config is None
    assert ctl.handle("challenge", {}) is None         # a new one, drawn when asked
    assert hal.link.sent[-1][1]["nonce"] not in (None, NONCE)
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
    the kept records have files of their own, and a signature refused holds off the
    next check a second (a flood does not stall the board checking signatures)."""
    from felt.table.technician import RETRY_MS
    path = journal_path("technician-flood")
    ctl, hal = keyed(path)
    assert ctl.handle("tech", tech("cfg", CFG, CFG_SIGNED)) is None
    ctl.record("deck_retired", "deck A: a deck check found 51 cards")
    whys = set()
    for i in range(400):
        whys.add(ctl.handle("tech", tech("cfg", CFG, "%0128x" % i)))
        hal.now += 10
    assert whys == {"cfg refused: not signed by a trusted key for this board's challenge",
                    "cfg refused: a command was refused less than a second ago"}
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
    hal.now += RETRY_MS                                # a second later, checked again
    given(ctl, NONCE2)
    # Its signature checked (the challenge spent): deck A is in service already.
    assert ctl.handle("tech", tech("deck", {"register": "A"}, DECK_SIGNED)) == \
        "deck A is in service already"
    assert ctl.challenge != NONCE2


def test_a_malformed_technician_command_is_refused_with_why():
    ctl, hal = keyed()
    assert ctl.handle("tech", {"cmd": "btn", "body": {}, "sig": CFG_SIGNED}) == \
        'tech cmd must be one of cfg, rules, deck, clear, recall, eventlog, root, service, not "btn"'
    assert ctl.handle("tech", tech("cfg", CFG, "00" * 10)) == \
        "tech sig must be 64 bytes in lower-case hex"
    assert ctl.challenge == NONCE                      # checked before anything is spent


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
    ctl.refused_ms = None                  # a second has passed since the last refusal
    return ctl.handle("tech", tech(cmd, body, sig))


def test_a_key_that_signs_images_cannot_sign_a_technicians_command():
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("cfg", CFG, CFG_BY_IMAGE_KEY)) == \
        "cfg refused: not signed by a trusted key for this board's challenge"
    assert ctl.config is None


def test_a_new_trust_document_signed_by_the_owner_revokes_a_key_and_never_goes_back():
    # Issue 38, item 1: a key is revoked by a newer version that leaves it out; versions
    # only grow, so the older document that named it is never taken again.
    ctl, hal = keyed()
    assert ctl.handle("tech", tech("root", {"doc": V2, "sig": V2_SIG}, ROOT_V2_BY_OWNER)) \
        is None
    assert codes(ctl)[-2:] == ["trust_replaced", "technician"]
    assert refused_signature(ctl, "cfg", CFG, CFG_SIGNED) == \
        "cfg refused: not signed by a trusted key for this board's challenge"
    assert ctl.config is None
    from felt import lazy
    image = lazy.load("felt.image")
    assert image.document(ctl.trust) == V2
    # The boot after takes it: its owner signed it, and it is the one recorded.
    assert image.taken(ctl.trust, ctl.image) == V2
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
        "root refused: not signed by a trusted key for this board's challenge"
    assert refused_signature(ctl, "root", {"doc": GRAB, "sig": GRAB_SIG},
                             ROOT_GRAB_BY_OWNER) == \
        "root sig: not by a key that is an owner in the document this board holds and in " \
        "the new one"
    from felt import lazy
    image = lazy.load("felt.image")
    assert image.document(ctl.trust) == V1
    assert "trust_replaced" not in codes(ctl)
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
    assert ctl.eventlog.memory[-1]["detail"].startswith("service, signed by key ")
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
        "service refused: not signed by a trusted key for this board's challenge"
    assert reboots == [] and codes(ctl)[-1] == "technician_refused"
    from felt import lazy
    image = lazy.load("felt.image")
    assert not image.opened_for_service(ctl.trust)
    # Still the technician's own commands are theirs.
    assert refused_signature(ctl, "cfg", CFG, CFG_SIGNED) is None
