"""Alembic's environment for the floor's database: run on the connection the store
opened (host_tools.floor.store.upgrade), its tables those of store.metadata."""

from alembic import context

from host_tools.floor.store import metadata

context.configure(connection=context.config.attributes["connection"],
                  target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
