"""Each round's record (its hand history or house-banked record, host_tools.floor.records):
the n of the `record` event that holds it, beside the round's row.

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
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("record_n", sa.Integer))


def downgrade():
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("record_n")
