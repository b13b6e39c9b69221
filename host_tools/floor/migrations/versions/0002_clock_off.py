"""How far each table's clock is off the floor's, when by more than a minute.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("tables", sa.Column("clock_off", sa.Float, nullable=True))


def downgrade():
    with op.batch_alter_table("tables") as table:      # SQLite drops a column so
        table.drop_column("clock_off")
