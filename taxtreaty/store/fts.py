"""The backend-specific full-text index: SQLite FTS5 or PostgreSQL tsvector + GIN.

On PostgreSQL the tsvector is a stored generated column `passages.fts_vector` (migration 0003)
with a GIN index; the database keeps it up to date on insert.

Both index `passages.folded` (case- and accent-folded text), so folding happens once, in Python,
the same way for both backends; the query side folds the same way. Ranking is BM25 on SQLite
(`bm25()`, lower is better) and `ts_rank` on PostgreSQL (higher is better); `search_rows`
returns a "higher is better" score either way, ties in passage order. On SQLite, queries of
very common words are ranked from champion lists (`champions.py`), with the same results.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from taxtreaty.store import champions

#: the names the migrations create; the schema comparison test ignores them
FTS_OBJECTS = ("passages_fts", "ix_passages_fts", "ix_passages_fts_vector", "fts_vector")

SQLITE_DDL = (
    # external-content FTS5: the text lives once, in passages.folded
    "CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5("
    "folded, content='passages', content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
)
POSTGRES_DDL = (
    "CREATE INDEX IF NOT EXISTS ix_passages_fts ON passages USING gin (to_tsvector('simple', folded))",
)


def create(connection: Connection) -> None:
    ddl = SQLITE_DDL if connection.dialect.name == "sqlite" else POSTGRES_DDL
    for statement in ddl:
        connection.execute(text(statement))


def drop(connection: Connection) -> None:
    if connection.dialect.name == "sqlite":
        connection.execute(text("DROP TABLE IF EXISTS passages_fts"))
    else:
        connection.execute(text("DROP INDEX IF EXISTS ix_passages_fts"))


def index_passages(connection: Connection, rows: Sequence[tuple[int, str]]) -> None:
    """Add (passage id, folded text) rows to the index (PostgreSQL indexes by itself)."""
    if connection.dialect.name == "sqlite" and rows:
        connection.execute(
            text("INSERT INTO passages_fts(rowid, folded) VALUES (:id, :folded)"),
            [{"id": pid, "folded": folded} for pid, folded in rows],
        )


def any_expression(alternatives: Sequence[Sequence[Sequence[str]]], dialect: str) -> str:
    """An OR of `match_expression`s: any of several phrases (the translations of a query)."""
    joiner = " OR " if dialect == "sqlite" else " | "
    return joiner.join("(" + match_expression(groups, dialect) + ")" for groups in alternatives if groups)


def match_expression(groups: Sequence[Sequence[str]], dialect: str) -> str:
    """An AND of OR-groups of words: [["beneficial"], ["owner", "owners"]].

    Each word is a literal token (quoted), so user input cannot inject query syntax.
    """
    if dialect == "sqlite":
        parts = ["(" + " OR ".join('"' + w.replace('"', "") + '"' for w in g) + ")" for g in groups]
        return " AND ".join(parts)
    parts = ["(" + " | ".join("'" + w.replace("'", "").replace("\\", "") + "'" for w in g) + ")" for g in groups]
    return " & ".join(parts)


def search_rows(
    connection: Connection | Session,
    groups: Sequence[Sequence[str]],
    *,
    filters: str = "",
    params: dict | None = None,
    limit: int = 50,
) -> list[tuple[int, float]]:
    """(passage id, score) for passages matching every group; higher score ranks first.

    `filters` is an SQL fragment over the `p` (passages) alias, with bound `params`.
    """
    if not groups:
        return []
    connection = connection.connection() if isinstance(connection, Session) else connection
    return _run(connection, [groups], match_expression(groups, connection.dialect.name), filters, params, limit)


def search_any(
    connection: Connection | Session,
    alternatives: Sequence[Sequence[Sequence[str]]],
    *,
    filters: str = "",
    params: dict | None = None,
    limit: int = 50,
) -> list[tuple[int, float]]:
    """Like `search_rows`, for passages matching any one of several AND-groups."""
    if not any(alternatives):
        return []
    connection = connection.connection() if isinstance(connection, Session) else connection
    return _run(connection, alternatives, any_expression(alternatives, connection.dialect.name), filters, params,
                limit)


def _run(
    connection: Connection, alternatives: champions.Alternatives, expression: str, filters: str,
    params: dict | None, limit: int,
) -> list[tuple[int, float]]:
    dialect = connection.dialect.name
    params = dict(params or {})
    if dialect == "sqlite" and "treaty" in params:
        # one treaty has a few hundred passages at most: rank just those ("treaty" is the key
        # `search._filters` binds)
        within = [row[0] for row in connection.execute(text(f"SELECT p.id FROM passages p WHERE 1 = 1 {filters}"),
                                                        params)]
        return champions.rank_among(connection, expression, within, limit)
    if dialect == "sqlite":
        # "language": the key `search._filters` binds when the query keeps one language
        best = champions.top(connection, alternatives, expression, filters, params, limit, params.get("language"))
        if best is not None:
            return best
    params["q"] = expression
    params["limit"] = limit
    if dialect == "sqlite" and not filters:
        # no filter: rank inside the index, without joining every match to its row first
        sql = ("SELECT rowid, -bm25(passages_fts) AS score FROM passages_fts "
               "WHERE passages_fts MATCH :q ORDER BY bm25(passages_fts), rowid LIMIT :limit")
    elif dialect == "sqlite":
        sql = (
            "SELECT p.id, -bm25(passages_fts) AS score FROM passages_fts "
            "JOIN passages p ON p.id = passages_fts.rowid "
            f"WHERE passages_fts MATCH :q {filters} ORDER BY bm25(passages_fts), p.id LIMIT :limit"
        )
    else:
        # fts_vector: the stored tsvector column of migration 0003
        sql = (
            "SELECT p.id, ts_rank(p.fts_vector, to_tsquery('simple', :q)) AS score "
            "FROM passages p WHERE p.fts_vector @@ to_tsquery('simple', :q) "
            f"{filters} ORDER BY score DESC, p.id LIMIT :limit"
        )
    return [(int(r[0]), float(r[1])) for r in connection.execute(text(sql), params)]
