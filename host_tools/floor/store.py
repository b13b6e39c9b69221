"""The floor's database (SQLAlchemy): every table's events, each once, and what the
floor reads off them: its rounds, its tilts, its last state and whether it is online.
SQLite by default (one file), PostgreSQL by URL; the schema is Alembic's
(host_tools/floor/migrations), brought up to date when the store opens.
"""

import json
from pathlib import Path

from sqlalchemy import (JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData,
                        String, Table, UniqueConstraint, create_engine, func, insert, select,
                        update)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.event import listen
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, StatementError

MIGRATIONS = Path(__file__).with_name("migrations")

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("name", String(64), primary_key=True),
    Column("first_seen", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("online", Boolean, nullable=False, default=False),
    Column("since", Float, nullable=False),          # online or offline since
    Column("state", JSON),                           # the table's last retained state
    # How far the table's clock is off the floor's (seconds, + ahead), when by more
    # than a minute (CLOCK_SAID_S); null when within.
    Column("clock_off", Float),
)

def _of_a_run(name, *columns):
    """A table of what tables' runs said, each once: keyed by (table, run, n), the n of
    the event it comes from (host_tools.floorlink.wire)."""
    return Table(
        name, metadata,
        Column("id", Integer, primary_key=True),
        Column("table_name", String(64), ForeignKey("tables.name"), nullable=False),
        Column("run", String(64), nullable=False),
        Column("n", Integer, nullable=False),
        Column("at", Float, nullable=False),
        *columns,
        UniqueConstraint("table_name", "run", "n", name="one_%s_once" % name[:-1]))


events = _of_a_run(
    "events",
    Column("kind", String(32), nullable=False),
    Column("body", JSON, nullable=False),
    Index("events_by_table_and_time", "table_name", "at"))

rounds = _of_a_run(                                   # from each round's end event
    "rounds",
    Column("hand", Integer, nullable=False),
    Column("rake", Integer, nullable=False),
    Column("house", Integer),                        # a house-banked round's result
    Column("called_off", String(32)),
    Column("winners", JSON, nullable=False))

tilts = _of_a_run(                                    # from each `locked` event
    "tilts",
    Column("code", String(64), nullable=False),
    Column("why", String(500), nullable=False),
    Column("cleared_at", Float))


CLOCK_SAID_S = 60       # a table's clock off by more than this is said and kept

NO_FIGURES = {"hands": 0, "hands_per_hour": 0, "rake": 0, "house": None, "tilts": 0}


def _sqlite_pragmas(connection, record):
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def _insert_new(db, table, rows):
    """Insert the rows (dicts) whose (table_name, run, n) is not there yet, in one
    statement where the database can say which it inserted (SQLite, PostgreSQL); their
    keys."""
    if not rows:
        return []
    key = (table.c.table_name, table.c.run, table.c.n)
    insert_or_not = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}.get(
        db.dialect.name)
    if insert_or_not is not None:
        return [tuple(r) for r in db.execute(
            insert_or_not(table).on_conflict_do_nothing().returning(*key), rows)]
    new = []
    for row in rows:                    # another database: one at a time
        try:
            with db.begin_nested():
                db.execute(insert(table).values(**row))
            new.append((row["table_name"], row["run"], row["n"]))
        except IntegrityError:
            pass
    return new


def refused_for_its_data(e):
    """Whether the database (or its driver) refused a write for the values in it, not
    because it is away (OperationalError, InterfaceError) nor for a fault of the
    floor's own: one such value must not cost the rest of a batch its place."""
    if isinstance(e, (DataError, IntegrityError, OverflowError)):
        return True      # OverflowError: sqlite3's, a number past 64 bits
    return isinstance(e, StatementError) and not isinstance(e, DBAPIError)


def upgrade(engine):
    """The schema brought to Alembic's head (host_tools/floor/migrations)."""
    from alembic import command
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


class Store:
    def __init__(self, url="sqlite:///floor.db"):
        self.engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            # Readers (the page) never wait for the writer; each commit is on the disk
            # before the tables are told it is stored.
            listen(self.engine, "connect", _sqlite_pragmas)
        upgrade(self.engine)

    def write(self, batch, now):
        """What the floor heard, in one transaction: `batch` holds ("event", table, run,
        n, at, body) (`at` the floor's time), ("state", table, state, said, clock_off)
        and ("online", table, online) in the order heard (`said`: when the table said it,
        on the floor's clock, or None for what the broker kept from before; `clock_off`:
        the table's clock against the floor's, seconds, or None).  A table's last_seen is
        when it last said an event or a state, never moved back.  Returns (stored, refused): the events stored now, (table, run, n, at) (an
        event stored before is not stored again), and [(item, why)], what the database
        refused for its values: then each item of the batch is written alone, so that
        only those are lost.  The database away raises (SQLAlchemyError)."""
        try:
            return self._write(batch, now), []
        except Exception as e:  # noqa: BLE001 - refused_for_its_data tells which it is
            if not refused_for_its_data(e) or len(batch) == 1:
                raise
        stored, refused = [], []
        for item in batch:
            try:
                stored += self._write([item], now)
            except Exception as e:  # noqa: BLE001
                if not refused_for_its_data(e):
                    raise
                refused.append((item, str(e).splitlines()[0][:300]))
        return stored, refused

    def _write(self, batch, now):
        stored = []
        heard = {}              # table: its row's new values
        with self.engine.begin() as db:
            for item in batch:
                kind, table = item[0], item[1]
                row = heard.setdefault(table, {})
                said = item[4] if kind == "event" else item[3] if kind == "state" else None
                if said is not None:
                    row["last_seen"] = max(row.get("last_seen", said), said)
                if kind == "state":
                    row["state"] = item[2]
                    if item[4] is not None:
                        row["clock_off"] = round(item[4], 1) \
                            if abs(item[4]) > CLOCK_SAID_S else None
                elif kind == "online":
                    row["online"] = item[2]
            self._tables(db, heard, now)
            rows = {}           # (table, run, n): the event's row, each once
            for item in batch:
                if item[0] == "event":
                    _, table, run, n, at, body = item
                    rows[(table, run, n)] = {"table_name": table, "run": run, "n": n,
                                             "at": at, "kind": body["e"], "body": body}
            # In the order the table said them: a round's record follows its end.
            for key in sorted(_insert_new(db, events, list(rows.values()))):
                row = rows[key]
                self._derived(db, key[0], key[1], key[2], row["at"], row["body"])
                stored.append(key + (row["at"],))
        return stored

    def _tables(self, db, heard, now):
        """Each table heard from: its row made, or its last state, whether it is
        online (and since when), when it was last heard and its clock brought up to
        date.  What the broker kept (retained) is not the table heard: a table first
        known by it was last heard, as far as the floor knows, now."""
        known = {r.name: r for r in db.execute(select(tables).where(
            tables.c.name.in_(list(heard))))}
        for name, values in heard.items():
            row = known.get(name)
            if row is None:
                db.execute(insert(tables).values(
                    name=name, first_seen=now, last_seen=values.get("last_seen", now),
                    online=bool(values.get("online")), since=now, state=values.get("state"),
                    clock_off=values.get("clock_off")))
                continue
            if values.get("last_seen", row.last_seen + 1) <= row.last_seen:
                del values["last_seen"]         # said before what was heard already
            if "online" in values and values["online"] == row.online:
                del values["online"]
            elif "online" in values:
                values["since"] = now
            if values:
                db.execute(update(tables).where(tables.c.name == name).values(**values))

    def _derived(self, db, table, run, n, at, e):
        """What the floor reads off an event: a round ended, a tilt begun or cleared.
        Its fields are as host_tools.floorlink.kinds says (checked before it was queued).
        (A round's record is the event after its end: read where it is, record_of.)"""
        k = e["e"]
        if k == "end":
            db.execute(insert(rounds).values(
                table_name=table, run=run, n=n, at=at, hand=e["hand"], rake=e["rake"],
                house=e.get("house_round"), called_off=e["called_off"],
                winners=e["winners"]))
        elif k == "locked":
            db.execute(insert(tilts).values(
                table_name=table, run=run, n=n, at=at, code=e["code"], why=e["why"][:500]))
        elif k == "cleared":
            db.execute(update(tilts).where(tilts.c.table_name == table,
                                           tilts.c.cleared_at.is_(None)).values(cleared_at=at))

    def stored_upto(self, table, run):
        """The n up to which every event of the run is stored (0: none)."""
        with self.engine.connect() as db:
            ns = db.execute(select(events.c.n).where(events.c.table_name == table,
                                                     events.c.run == run)
                            .order_by(events.c.n)).scalars()
            upto = 0
            for n in ns:
                if n != upto + 1:
                    break
                upto = n
            return upto

    def counts(self, table):
        """{events, rounds, records, tilts} stored for the table (records: the rounds'
        records, host_tools.floorlink.records)."""
        with self.engine.connect() as db:
            out = {name: db.execute(select(func.count()).select_from(t)
                                    .where(t.c.table_name == table)).scalar()
                   for name, t in (("events", events), ("rounds", rounds), ("tilts", tilts))}
            out["records"] = db.execute(select(func.count()).select_from(events).where(
                events.c.table_name == table, events.c.kind == "record")).scalar()
        return out

    def table_rows(self):
        with self.engine.connect() as db:
            return [dict(r) for r in db.execute(select(tables).order_by(tables.c.name)).mappings()]

    def events_of(self, table, run=None):
        """[(run, n, event)] of the table, in the order stored."""
        q = select(events.c.run, events.c.n, events.c.body).where(events.c.table_name == table)
        if run is not None:
            q = q.where(events.c.run == run)
        with self.engine.connect() as db:
            return [(r, n, b if isinstance(b, dict) else json.loads(b))
                    for r, n, b in db.execute(q.order_by(events.c.id))]

    def shifts(self, since, now):
        """Every table's figures from `since` to `now`, {table: figures}: hands, rake, the
        house's result (a banked table), tilts; and its pace, the hands of the last hour.
        Three queries for the whole floor."""
        figures = {}
        with self.engine.connect() as db:
            for name, hands, rake, house in db.execute(
                    select(rounds.c.table_name, func.count(),
                           func.coalesce(func.sum(rounds.c.rake), 0), func.sum(rounds.c.house))
                    .where(rounds.c.at >= since).group_by(rounds.c.table_name)):
                figures[name] = {"hands": hands, "hands_per_hour": 0, "rake": rake,
                                 "house": house, "tilts": 0}
            for name, count in db.execute(
                    select(rounds.c.table_name, func.count()).where(rounds.c.at >= now - 3600)
                    .group_by(rounds.c.table_name)):
                # setdefault: a round stored between the two queries, its table's first
                figures.setdefault(name, dict(NO_FIGURES))["hands_per_hour"] = count
            for name, count in db.execute(
                    select(tilts.c.table_name, func.count()).where(tilts.c.at >= since)
                    .group_by(tilts.c.table_name)):
                figures.setdefault(name, dict(NO_FIGURES))["tilts"] = count
        return figures

    def rounds_between(self, start, end, table=None):
        """Every round ended from `start` to `end` (seconds), oldest first."""
        q = select(rounds).where(rounds.c.at >= start, rounds.c.at < end)
        if table is not None:
            q = q.where(rounds.c.table_name == table)
        with self.engine.connect() as db:
            return [dict(r) for r in db.execute(q.order_by(rounds.c.at)).mappings()]

    def record_of(self, table, run, end_n):
        """The record of the round whose end is event `end_n` of the run: its `record`
        event ({"e", "hand", "format", "text"}), or None when none is stored.  A table
        sends a round's record as the event after its end (Publisher), so it is found
        by its key: nothing is written to tie them when it is stored."""
        q = select(events.c.body).where(events.c.table_name == table, events.c.run == run,
                                        events.c.n == end_n + 1, events.c.kind == "record")
        with self.engine.connect() as db:
            body = db.execute(q).scalar()
        return body if body is None or isinstance(body, dict) else json.loads(body)

    def recorded(self, table, since):
        """{(run, n)}: the ends, since `since` (seconds), of the table's rounds whose
        record is stored."""
        q = select(events.c.run, events.c.n).where(
            events.c.table_name == table, events.c.kind == "record", events.c.at >= since)
        with self.engine.connect() as db:
            return {(run, n - 1) for run, n in db.execute(q)}

    def last_events(self, table, count):
        """The table's last `count` events, oldest first: (run, n, at, event)."""
        q = (select(events.c.run, events.c.n, events.c.at, events.c.body)
             .where(events.c.table_name == table).order_by(events.c.at.desc(),
                                                            events.c.n.desc()).limit(count))
        with self.engine.connect() as db:
            return list(reversed([tuple(r) for r in db.execute(q)]))

    def round_events(self, table, run, end_n):
        """The events of the round whose end is event `end_n` of the run, from its `hand`
        event (or as far back as the run goes), oldest first: [(n, at, event)]."""
        q = (select(events.c.n, events.c.at, events.c.body)
             .where(events.c.table_name == table, events.c.run == run, events.c.n <= end_n,
                    events.c.n >= select(func.coalesce(func.max(events.c.n), 1))
                    .where(events.c.table_name == table, events.c.run == run,
                           events.c.kind == "hand", events.c.n < end_n).scalar_subquery())
             .order_by(events.c.n))
        with self.engine.connect() as db:
            return [tuple(r) for r in db.execute(q)]
