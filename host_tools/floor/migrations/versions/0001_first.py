"""The floor's first schema: tables, their events (each once), rounds and tilts.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _of_a_run(name, *columns):
    """A table keyed by (table, run, n), as store._of_a_run makes them in this version."""
    op.create_table(
        name,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_name", sa.String(64), sa.ForeignKey("tables.name"), nullable=False),
        sa.Column("run", sa.String(64), nullable=False),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        *columns,
        sa.UniqueConstraint("table_name", "run", "n", name="one_%s_once" % name[:-1]))


def upgrade():
    op.create_table(
        "tables",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("first_seen", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("online", sa.Boolean, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("state", sa.JSON))
    _of_a_run("events",
              sa.Column("kind", sa.String(32), nullable=False),
              sa.Column("body", sa.JSON, nullable=False))
    _of_a_run("rounds",
              sa.Column("hand", sa.Integer, nullable=False),
              sa.Column("rake", sa.Integer, nullable=False),
              sa.Column("house", sa.Integer),
              sa.Column("called_off", sa.String(32)),
              sa.Column("winners", sa.JSON, nullable=False))
    _of_a_run("tilts",
              sa.Column("code", sa.String(64), nullable=False),
              sa.Column("why", sa.String(500), nullable=False),
              sa.Column("cleared_at", sa.Float))
    op.create_index("events_by_table_and_time", "events", ["table_name", "at"])


def downgrade():
    op.drop_index("events_by_table_and_time", "events")
    for name in ("tilts", "rounds", "events", "tables"):
        op.drop_table(name)
