"""The floor's database (SQLAlchemy): every table's events, each once, and what the
floor reads off them: its rounds, its tilts, its last state and whether it is online.
SQLite by default (one file), PostgreSQL by URL; the schema is Alembic's
(host_tools/floor/migrations), brought up to date when the store opens.
"""

import json
from pathlib import Path

from sqlalchemy import (JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData,
                        String,
                        Table, UniqueConstraint, create_engine, func, insert, select, update)
from sqlalchemy.exc import IntegrityError

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
)

def _of_a_run(name, *columns):
    """A table of what tables' runs said, each once: keyed by (table, run, n), the n of
    the event it comes from (host_tools.floor.wire)."""
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
        upgrade(self.engine)

    def seen(self, table, at, online=None, state=None):
        """The table heard from at `at`: its row made or brought up to date."""
        with self.engine.begin() as db:
            row = db.execute(select(tables).where(tables.c.name == table)).first()
            if row is None:
                db.execute(insert(tables).values(
                    name=table, first_seen=at, last_seen=at, online=bool(online),
                    since=at, state=state))
                return
            values = {"last_seen": max(at, row.last_seen)}
            if online is not None and online != row.online:
                values.update(online=online, since=at)
            if state is not None:
                values["state"] = state
            db.execute(update(tables).where(tables.c.name == table).values(**values))

    def add_event(self, table, run, n, at, event):
        """Store the event once: False if (table, run, n) was stored before."""
        self.seen(table, at)
        try:
            with self.engine.begin() as db:
                db.execute(insert(events).values(table_name=table, run=run, n=n, at=at,
                                                  kind=event["e"], body=event))
                self._derived(db, table, run, n, at, event)
        except IntegrityError:
            return False
        return True

    def _derived(self, db, table, run, n, at, e):
        """What the floor reads off an event: a round ended, a tilt begun or cleared."""
        k = e["e"]
        if k == "end" and isinstance(e.get("hand"), int):
            db.execute(insert(rounds).values(
                table_name=table, run=run, n=n, at=at, hand=e["hand"],
                rake=int(e.get("rake") or 0), house=e.get("house_round"),
                called_off=e.get("called_off"), winners=e.get("winners") or []))
        elif k == "locked":
            db.execute(insert(tilts).values(
                table_name=table, run=run, n=n, at=at, code=str(e.get("code") or "locked"),
                why=str(e.get("why", ""))[:500]))
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
        """{events, rounds, tilts} stored for the table."""
        with self.engine.connect() as db:
            return {name: db.execute(select(func.count()).select_from(t)
                                     .where(t.c.table_name == table)).scalar()
                    for name, t in (("events", events), ("rounds", rounds), ("tilts", tilts))}

    def table_rows(self):
        with self.engine.connect() as db:
            return [dict(r._mapping) for r in db.execute(select(tables).order_by(tables.c.name))]

    def events_of(self, table, run=None):
        """[(run, n, event)] of the table, in the order stored."""
        q = select(events.c.run, events.c.n, events.c.body).where(events.c.table_name == table)
        if run is not None:
            q = q.where(events.c.run == run)
        with self.engine.connect() as db:
            return [(r, n, b if isinstance(b, dict) else json.loads(b))
                    for r, n, b in db.execute(q.order_by(events.c.id))]

    def shift(self, table, since, now):
        """The table's figures from `since` to `now`: hands, rake, the house's result (a
        banked table), tilts; and its pace, the hands of the last hour."""
        with self.engine.connect() as db:
            hands, rake, house = db.execute(
                select(func.count(), func.coalesce(func.sum(rounds.c.rake), 0),
                       func.sum(rounds.c.house))
                .where(rounds.c.table_name == table, rounds.c.at >= since)).one()
            last_hour = db.execute(select(func.count()).select_from(rounds).where(
                rounds.c.table_name == table, rounds.c.at >= now - 3600)).scalar()
            tilted = db.execute(select(func.count()).select_from(tilts).where(
                tilts.c.table_name == table, tilts.c.at >= since)).scalar()
        return {"hands": hands, "hands_per_hour": last_hour, "rake": rake, "house": house,
                "tilts": tilted}

    def rounds_between(self, start, end, table=None):
        """Every round ended from `start` to `end` (seconds), oldest first."""
        q = select(rounds).where(rounds.c.at >= start, rounds.c.at < end)
        if table is not None:
            q = q.where(rounds.c.table_name == table)
        with self.engine.connect() as db:
            return [dict(r._mapping) for r in db.execute(q.order_by(rounds.c.at))]

    def last_events(self, table, count):
        """The table's last `count` events, oldest first: (run, n, at, event)."""
        q = (select(events.c.run, events.c.n, events.c.at, events.c.body)
             .where(events.c.table_name == table).order_by(events.c.at.desc(),
                                                            events.c.n.desc()).limit(count))
        with self.engine.connect() as db:
            return list(reversed([tuple(r) for r in db.execute(q)]))
