"""Alembic environment: always run from `taxtreaty.store.database.migrate` with a live connection."""

from alembic import context

from taxtreaty.store.migrations.env_filters import include_object
from taxtreaty.store.schema import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    include_object=include_object,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
