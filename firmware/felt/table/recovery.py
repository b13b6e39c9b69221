"""Reading the journal after a restart (felt.table.journal writes it; docs/journal.md):
the records checked one at a time, a record torn by a power cut cut off, the table's
lasting state and the round under way rebuilt, and anything that does not read exactly
`Damaged`, saying which file, which record and what.  Only a boot needs this, so the
table loads it then and forgets it after (felt.lazy).
"""

from felt import check, lazy
from felt.table import records
from felt.table.decks import Decks
from felt.table.shown import see
from felt.table.configure import load_rules, table_of
from felt.table.states import is_banked
from felt.table.journal import (CALLED_OFF, MAX_RECORD, archive, brief, why, crc_text,
                                exists, file_size)


class Damaged(Exception):
    """The journal cannot be read exactly; str() says which file, which line or record,
    and what is wrong."""


def resume(ctl):
    """Boot: carry on from the journal, the round under way included (its events
    replayed through the rules core).  No journal is a new table.  A journal that
    cannot be read exactly, or whose chips do not add up, locks the table with a
    sentence saying what was found (which file, which record, what): it is never
    taken for a new table, and nothing more is written to it.  True when the round
    under way had ended: the controller ends it once this module is forgotten, its
    heap then free for the journal's writes."""
    j = ctl.journal
    try:
        saved = recover(j)
        if saved is None:
            return False
        table, header, count, under_way = saved
        cfg, decks = restorable(ctl, table)
        r = replay(j, ctl.shown) if header is not None else None
        if under_way:
            check_round(ctl, header, table, cfg)
    except MemoryError:
        raise      # the heap, not the journal: the board reboots (felt.guard)
    except Exception as e:  # noqa: BLE001 - whatever the journal holds, never a crash
        if isinstance(e, (Damaged, check.Refused)):
            ctl.lock(brief(str(e)))
        else:
            ctl.lock(brief("journal %s not resumed: %s" % (
                j.path, why(e))))
        return False
    ctl.resumed(table, cfg, decks, r)
    load_rules(ctl)     # felt.table.configure: the controller forgets it
    if j.repaired is not None:
        # The flash is failing: the table resumes exactly, a technician is told.
        ctl.record("critical_memory_repaired", j.repaired)
    if ctl.journal.last_frame is not None:
        ctl.hal.link.resume(ctl.journal.last_frame)
    if under_way:
        ctl.round_resumed(header["hand"])
        ctl.record("power_lost_in_play", "round %d resumed after %d events" % (
            ctl.hand, count))
    ctl.evt({"e": "resumed", "hand": ctl.hand, "state": ctl.state,
              "events": count if under_way else 0})
    if not under_way:
        return False         # the last round, if any, stays lit with its winners
    if r.finished():
        return True          # the power went after the round's last event
    if r.expecting() is not None:
        what, seat = r.expecting()
        ctl.hal.card_reader.want(what, seat)
    else:
        ctl.game.ask(ctl)
    return False


def recover(j):
    """(table, header, count, under_way) to resume from after a restart, or None for
    a new table (no journal, nor a <path>.1): the last table
    record, and the last round in the file (header None if none), under_way when it
    began after that record.  Damaged when the journal cannot be read exactly; it
    is then left as found and never written to.  The journal carries on from here."""
    if j.path is None:
        return None
    if j.buf is None:
        j.buf = bytearray(MAX_RECORD + 1)
    try:
        return _recover(j)
    except OSError as e:
        raise Damaged(brief("journal %s cannot be read: %s" % (j.path, why(e))))


def _recover(j):
    path, prev, new = j.path, archive(j.path, 1), j.path + ".new"
    if exists(new):
        _settle(j, new)
    archives = _renumber(j)
    size = file_size(path)
    if size == 0:
        # Every file is born whole (renamed into place): an empty one was emptied.
        raise Damaged(brief("journal %s is empty: the journal was lost" % path))
    if size < 0:
        if exists(prev):
            raise Damaged(brief("journal %s is missing but %s is there: the journal "
                                "was lost" % (path, prev)))
        j.ready(None)
        return None
    table = None
    under_way = False
    last = None
    first = None            # the stamp's number: the file's first record
    found = {}
    for n, seq, kind, record in _records(path, found, j.buf, j.key):
        if (n == 1) != (kind == "stamp") or (n > 1 and seq - first <= 2 and kind != "table"):
            raise _damaged(path, n, "a %s record where the file must begin with its "
                           "stamp and a table record" % kind)
        body = record[kind]
        if kind == "stamp":
            _check_stamp(j, path, body)
            j.kept = body.get("archives", [])[:archives]
            first = seq
        elif kind == "table":
            table, j.table_seq, under_way = body, seq, False
        elif kind == "round":
            j.header, j.header_seq, j.count = body, seq, 0
            j.rounds += 1
            if j.events is not None:
                j.events = []
            under_way = True
        elif last not in ("round", "event"):
            raise _damaged(path, n, "an event outside any round")
        else:
            j.count += 1
            if j.events is not None:
                j.events.append(tuple(body))
        if "from" in record:
            j.last_frame = record["from"]
        last = kind
    if table is None:
        raise Damaged(brief("journal %s holds no whole table record" % path))
    if exists(prev):
        seq = _first_seq(prev, j.buf, j.key)
        if seq >= first:
            raise Damaged(brief("journal %s begins at record %d, but %s, the file before "
                                "it, at %d: an older copy" % (path, first, prev, seq)))
    if found["torn"] is not None:
        _cut(j, found["torn"])
    j.seq = found["seq"]
    if found["repaired"] is not None:
        n, what, used = found["repaired"]
        more = found["repairs"] - 1
        j.repaired = brief("journal %s line %d: %s; the table record read from its other "
                           "copy, line %d%s" % (path, n, what, used,
                                                " (and %d lines more)" % more if more else ""))
    j.ready(found["torn"] if found["torn"] is not None else found["end"])
    return table, j.header, j.count, under_way


def _check_stamp(j, path, stamp):
    if stamp.get("board") != j.stamp["board"]:
        raise Damaged(brief("journal %s was written by table %s, not this one (%s)" % (
            path, check.shown(stamp.get("board")), check.shown(j.stamp["board"]))))
    kept = stamp.get("archives", [])
    if not isinstance(kept, list) or len(kept) > j.recall or \
            [n for n in kept if not check.is_whole(n) or n < 1]:
        raise Damaged(brief("journal %s: its stamp's archives are %s" % (
            path, check.shown(kept))))


def _renumber(j):
    """How many archives there are (<path>.1, <path>.2, ...).  A power cut while a new
    file moved them one number on (Journal._new_file) leaves one number free below
    some of them: those are moved back down, as they were before that new file."""
    n = 0
    while exists(archive(j.path, n + 1)):
        n += 1
    while exists(archive(j.path, n + 2)):
        j.rename(archive(j.path, n + 2), archive(j.path, n + 1))
        n += 1
    return n


def _settle(j, new):
    """<path>.new left by a power cut: beside the file, a new file begun and not
    renamed (the file is as it was); alone, one cut between its renames, to take the
    file's place if it is whole."""
    path = j.path
    if exists(path):
        j.remove(new)
        return
    found = {}
    try:
        kinds = [r[2] for r in _records(new, found, j.buf, j.key)]
        whole = kinds == ["stamp", "table"] and found["torn"] is None \
            and found["repaired"] is None
    except Damaged:
        whole = False
    if whole:
        j.rename(new, path)
    elif exists(archive(path, 1)):
        raise Damaged(brief("journal %s is missing and %s is not whole" % (path, new)))
    else:
        j.remove(new)    # the table's first file, cut short: a new table


def _cut(j, end):
    """Cut a record torn by a power cut off the end of the file, so the next record
    never follows part of one: the whole records are copied to <path>.new, which
    then replaces the file (a cut meanwhile leaves the file as it was)."""
    new = j.path + ".new"
    j.put(new, (), "wb")
    with open(j.path, "rb") as f:
        while end > 0:
            chunk = f.read(min(end, 512))
            if not chunk:
                break
            j.put(new, (chunk,), "ab")
            end -= len(chunk)
    j.rename(new, j.path)


def replay(j, seen):
    """The current round rebuilt from its header and events, the codes of the cards
    it showed added to the set `seen` (felt.table.shown); Damaged, naming the record,
    when the rules refuse one or the chips do not add up."""
    h = j.header
    where = "journal %s record %d" % (j.path, j.header_seq)
    stacks = h.get("stacks")
    if not isinstance(stacks, list) or not all([check.is_whole(s) and 0 <= s <= check.MAX_CHIPS
                                                for s in stacks]):
        raise Damaged(brief("%s: the round's stacks are not whole numbers of chips" % where))
    if not check.is_whole(h.get("button")) or not check.is_whole(h.get("hand")):
        raise Damaged(brief("%s: the round's hand or button is not a whole number" % where))
    try:
        r, _ = begun(h)
    except MemoryError:
        raise    # the heap, not the journal: the board reboots (felt.guard)
    except Exception:  # noqa: BLE001 - whatever the header holds, a sentence
        raise Damaged(brief("%s: a round the rules cannot begin" % where))
    # The events are read from the file again, one at a time, rather than kept from
    # recover(): kept, they would lie among the garbage of reading and cut up the heap.
    for _, seq, kind, record in _records(j.path, {}, j.buf, j.key):
        if seq <= j.header_seq:
            continue
        if kind != "event":
            break                # the round ended: the table record after it
        e = tuple(record["event"])
        try:
            see(seen, r, r.apply(e), is_banked(h))
        except MemoryError:
            raise    # the heap, not the journal: the board reboots (felt.guard)
        except Exception:  # noqa: BLE001
            raise Damaged(brief("journal %s record %d: the rules refuse the event %s" % (
                j.path, seq, check.shown(e))))
    # 13:47-20.37: chips leave a round only as rake; at a banked table, to the house.
    if is_banked(h):
        held = sum(r.stacks) + r.house()
    else:
        held = sum(r.stacks) + r.raked + (0 if r.finished() else r.pot())
    if held != sum(stacks):
        raise Damaged(brief("%s: the round's chips do not add up" % where))
    return r


def begun(header):
    """The round a header begins, started: (the round, the effects of its start), the
    round its kind's table makes (felt.table.configure.table_of)."""
    r = lazy.load(table_of(header)).round_of(header)
    return r, r.start()


def rebuild(header, events):
    r, _ = begun(header)
    for e in events:
        r.apply(tuple(e))
    return r


def _records(path, found, buf, key):
    """(line number, seq, kind, record) for each whole record of the file, one at a time
    (a board never holds the whole file), each line's MAC checked by `key`, the board's
    (records.checksummed); Damaged at the first that does not read exactly, but for one
    half of a table record's pair (below): never for a line whose MAC does not hold, an
    edit.  A last line cut short by a power cut ends them: found["torn"] is then the offset where the cut begins
    (else None); found["end"], where the whole records end; found["seq"], the last
    record's number; found["repaired"], the first line passed over for the other copy
    (below), as (its line, what is wrong, the line read instead), else None; and
    found["repairs"], how many lines were passed over.

    A table record is written twice in one write, the second marked as the copy
    (Journal.table), and given out here once its copy has read the same.  One whose
    copy a power cut tore, or never began, is cut off with it: the table before it.  A
    line that does not read is passed over only where the records around it show that
    it held one half of a pair whose other half reads: the record just before it the
    table record (it was the copy), or the record just after it, one number on, the
    copy (it was the table record).  At the end of the file, only when it is exactly
    as long as the table record's copy and ends in a newline."""
    found["torn"] = found["repaired"] = None
    found["repairs"] = 0
    n = 0
    due = None              # the number the next record must have
    last = None             # the last record given out
    held = None             # a table record awaiting its copy: (line, seq, record, offset, length)
    bad = None              # the first line of a run that does not read: (line, why)
    with open(path, "rb") as f:
        lines = records.Lines(f, buf)
        while True:
            line = lines.next()
            if not lines.whole:
                break
            n += 1
            try:
                seq, record = records.parse(line, key)
                kind = records.kind(record)
                if bad is None and due is not None and seq != due:
                    raise ValueError("record %d where %d was due: a record lost, repeated "
                                     "or out of order" % (seq, due))
            except records.Edited as e:
                raise _damaged(path, n, str(e))     # no copy stands in for an edit
            except ValueError as e:
                bad = bad or (n, str(e))
                continue
            copy = record.pop("copy", None) is not None
            if bad is not None:
                # One record lost, and the pair shows which: its other half is here.
                if seq != due + 1 or (held is not None) == copy:
                    raise _damaged(path, bad[0], bad[1])
                _repaired(found, bad, held[0] if held else n)
                bad = None
                if held is None:                 # the lost one was this copy's record
                    yield n, seq, kind, record
                    last, due = seq, seq + 1
                    continue
                yield held[0], held[1], "table", held[2]   # the lost one was its copy
                last, held = held[1], None
            if held is not None:
                if not copy:
                    raise _damaged(path, held[0], "a table record without its copy (a "
                                   "journal of an older firmware?)")
                if record != held[2]:
                    raise _damaged(path, n, "the table record's copy differs from it")
                yield held[0], held[1], "table", held[2]
                last, held = seq, None
            elif copy:
                raise _damaged(path, n, "a table record's copy without the record")
            elif kind == "table":
                held = (n, seq, record, lines.at, len(line) + 1)
            else:
                yield n, seq, kind, record
                last = seq
            due = seq + 1
    end = lines.at          # where the whole lines end
    tail = line if len(line) else None
    if held is not None:
        rest = end + len(line) - held[3] - held[4]      # bytes after the table record
        if rest == 0:
            found["torn"] = held[3]              # the power went before its copy
        elif tail is not None and bad is None and rest < _copy_length(held):
            _check_torn(path, n + 1, bytes(tail), due)   # the power went in its copy
            found["torn"] = held[3]
        elif tail is None and rest == _copy_length(held):
            _repaired(found, bad, held[0])               # its copy does not read
            yield held[0], held[1], "table", held[2]
            last = held[1] + 1
        else:
            raise _damaged(path, bad[0], bad[1]) if bad else \
                _damaged(path, n + 1, "the table record's copy is damaged")
    elif bad is not None:
        raise _damaged(path, bad[0], bad[1])
    elif tail is not None:
        if len(tail) > MAX_RECORD:
            raise _damaged(path, n + 1, "longer than any record")
        _check_torn(path, n + 1, bytes(tail), due)
        found["torn"] = end
    found["end"] = end
    found["seq"] = last


def _copy_length(held):
    """The bytes of a table record's copy: its line, one number on, with `"copy":1,`."""
    return held[4] + 9 + len(str(held[1] + 1)) - len(str(held[1]))


def _repaired(found, bad, used):
    """A line passed over: the table record it held read from its other copy."""
    if found["repaired"] is None:
        found["repaired"] = (bad[0], bad[1], used)
    found["repairs"] += 1


def _check_torn(path, n, tail, due):
    """A last line without its end: part of a record a power cut interrupted, to be cut
    off, or Damaged when no record begins so (a byte we never write, a whole record
    whose end was changed)."""
    for c in tail:
        if c < 0x20 or c > 0x7e:
            raise _damaged(path, n, "a byte no record holds (%d) in the last line" % c)
    a = tail.find(b" ")
    digits = tail if a < 0 else tail[:a]
    if a == 0 or (digits and not digits.isdigit()):
        raise _damaged(path, n, "the last line is not part of a record")
    if a < 0:
        return
    if due is not None and int(digits) != due:
        raise _damaged(path, n, "the last line begins record %s where %d was due" % (
            digits.decode(), due))
    rest = tail[a + 1:]
    b = rest.find(b" ")
    crc = rest if b < 0 else rest[:b]
    if len(crc) > 8 or (b >= 0 and len(crc) != 8) or \
            not all([c in b"0123456789abcdef" for c in crc]):
        raise _damaged(path, n, "the last line is not part of a record")
    if b > 0 and len(rest) > b + 1 and crc_text(digits, rest[b + 1:-1]) == crc:
        raise _damaged(path, n, "the last record's end is damaged")


def _damaged(path, n, what):
    return Damaged(brief("journal %s line %d: %s" % (path, n, what)))


def _first_seq(path, buf, key):
    """The sequence number of the file's first record (its stamp); Damaged if none."""
    with open(path, "rb") as f:
        lines = records.Lines(f, buf)
        line = lines.next()
        if not lines.whole:
            raise _damaged(path, 1, "no whole record")
        try:
            seq, record = records.parse(line, key)
            stamp = records.kind(record) == "stamp"
        except ValueError as e:
            raise _damaged(path, 1, str(e))
    if not stamp:
        raise _damaged(path, 1, "the file does not begin with its stamp")
    return seq


CONFIG = "felt.table.config"   # reading the configuration (felt.lazy)


# ----- the table the journal holds -------------------------------------------------------


def restorable(ctl, table):
    """(config, decks) from a table record, or Refused saying what is wrong with it:
    every amount a whole number in range, and every chip there: the stacks and the
    rake hold what the configuration began with, since chips leave only as rake
    (13:47-20.37) and nothing else brings any."""
    where = "journal %s record %d: " % (ctl.journal.path, ctl.journal.table_seq)
    missing = [k for k in ctl.lasting() if k not in table]
    if missing:
        raise check.Refused(where + "the table record lacks %s" % ", ".join(sorted(missing)))
    try:
        cfg = table["config"]
        if cfg is not None:
            try:
                cfg = lazy.load(CONFIG).from_dict(cfg, len(ctl.leds["seats"]))
            finally:
                lazy.forget(CONFIG)
        stacks = table["stacks"]
        if not isinstance(stacks, list) or len(stacks) != (cfg.seats if cfg else 0):
            raise check.Refused("the stacks are not one a seat")
        for s in range(len(stacks)):
            check.whole(stacks[s], "stack %d" % s)
        check.whole(table["rake_total"], "rake_total")
        house = table.get("house", 0)
        check.whole(house, "the house's result", -check.MAX_CHIPS * 11, check.MAX_CHIPS * 11)
        w = table.get("wagers")
        if (cfg is not None and is_banked(cfg)) != (w is not None) or w is not None and (
                not isinstance(w, list) or len(w) != len(stacks) or
                [x for x in w if not isinstance(x, list) or len(x) != 2 or
                 not check.is_whole(x[0]) or not check.is_whole(x[1])]):
            raise check.Refused("the standing wagers are %s" % check.shown(w))
        check.whole(table["button"], "the button", -1, len(stacks) - 1)
        for k in ("hand", "minutes", "charged"):
            check.whole(table[k], k)
        check.flag(table["shuffler_present"], "shuffler_present")
        check.flag(table["shoe_must_go"], "shoe_must_go")
        if table["called_off"] not in CALLED_OFF:
            raise check.Refused("called_off is %s" % check.shown(table["called_off"]))
        c = table["coming"]
        if c is not None and not (isinstance(c, dict) and sorted(c) == ["at", "rules"] and
                                  isinstance(c["rules"], dict) and check.is_whole(c["at"])):
            raise check.Refused("the rule change posted is %s" % check.shown(c))
        d = table["decks"]
        if not isinstance(d, dict) or d.get("in_play") not in ("A", "B") or \
                not isinstance(d.get("retired"), list) or \
                [n for n in d["retired"] if n not in ("A", "B")]:
            raise check.Refused("the decks are %s" % check.shown(d))
        decks = Decks()
        decks.restore(d)
        held = sum(stacks) + table["rake_total"] + house
        began = sum(cfg.stacks) if cfg else 0
        if held != began:
            raise check.Refused("the stacks and the rake hold %d chips, the table began "
                                "with %d" % (held, began))
    except check.Refused as e:
        raise check.Refused(where + str(e))
    return cfg, decks


def check_round(ctl, header, table, cfg):
    """The round under way begins from the table record before it: its stacks, the
    next hand, the configured game."""
    where = "journal %s record %d: " % (ctl.journal.path, ctl.journal.header_seq)
    if cfg is None:
        raise check.Refused(where + "a round on a table not configured")
    if header.get("stacks") != table["stacks"] or header.get("hand") != table["hand"] + 1:
        raise check.Refused(where + "the round does not begin from the table before it")
    made = cfg.header()
    if header.get("game") != cfg.game or [k for k in made if header.get(k) != made[k]]:
        raise check.Refused(where + "the round is not the configured game")
