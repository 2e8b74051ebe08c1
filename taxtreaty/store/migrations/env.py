"""Alembic environment: always run from `taxtreaty.store.database.migrate` with a live connection."""

from alembic import context

from taxtreaty.store.fts import FTS_OBJECTS
from taxtreaty.store.schema import Base


def include_object(obj, name, type_, reflected, compare_to) -> bool:  # type: ignore[no-untyped-def]
    # the full-text index is backend-specific DDL, not a model (see fts.py)
    return not (name and (name in FTS_OBJECTS or name.startswith("passages_fts")))


connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    include_object=include_object,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
