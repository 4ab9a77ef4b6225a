"""The little of sqlite-utils the store uses, over the standard library's sqlite3.

The store reads rows as dicts and creates its tables from a columns map; sqlite-utils did
that, and importing it (with the date parser and the plugin manager it brings) was about
a fifth of a `pbem show`. Same SQL, same connection settings (sqlite3's defaults, which
sqlite-utils kept), same table definitions: a store made by either opens with the other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

# A Python type -> the column type sqlite-utils gave it.
_TYPES = {str: "TEXT", int: "INTEGER", bytes: "BLOB", float: "FLOAT"}


class Database:
    """One SQLite file: its connection (`conn`), statements, and tables by name."""

    def __init__(self, path: str | Path) -> None:
        self.conn = sqlite3.connect(str(path))

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> sqlite3.Cursor:
        return self.conn.execute(sql, params or [])

    def table_names(self) -> list[str]:
        rows = self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return [str(name) for (name,) in rows]

    def close(self) -> None:
        self.conn.close()

    def table(self, name: str) -> Table:
        return Table(self, name)

    __getitem__ = table


class Table:
    """A table of a Database: its rows as dicts, counted or listed by a WHERE clause."""

    def __init__(self, db: Database, name: str) -> None:
        self.db = db
        self.name = name

    def create(
        self,
        columns: dict[str, type],
        pk: str | tuple[str, ...] | None = None,
        if_not_exists: bool = False,
    ) -> None:
        keys = (pk,) if isinstance(pk, str) else tuple(pk or ())
        lines = []
        for column, kind in columns.items():
            primary = " PRIMARY KEY" if keys == (column,) else ""
            lines.append(f"   [{column}] {_TYPES[kind]}{primary}")
        if len(keys) > 1:
            lines.append(f"   PRIMARY KEY ({', '.join(f'[{k}]' for k in keys)})")
        exists = " IF NOT EXISTS" if if_not_exists else ""
        body = ",\n".join(lines)
        self.db.conn.execute(f"CREATE TABLE{exists} [{self.name}] (\n{body}\n)")

    def count_where(self, where: str | None = None, params: Sequence[Any] | None = None) -> int:
        sql = f"SELECT count(*) FROM [{self.name}]" + (f" WHERE {where}" if where else "")
        return int(self.db.execute(sql, params).fetchone()[0])

    def rows_where(
        self,
        where: str | None = None,
        params: Sequence[Any] | None = None,
        order_by: str | None = None,
    ) -> Iterator[dict[str, Any]]:
        sql = f"SELECT * FROM [{self.name}]"
        if where:
            sql += f" WHERE {where}"
        if order_by:
            sql += f" ORDER BY {order_by}"
        cursor = self.db.execute(sql, params)
        names = [column[0] for column in cursor.description]
        for row in cursor:
            yield dict(zip(names, row, strict=True))

    def insert(self, row: dict[str, Any]) -> None:
        """Insert one row and commit it (as sqlite-utils' insert does; tests use it)."""
        names = ", ".join(f"[{name}]" for name in row)
        marks = ", ".join("?" * len(row))
        with self.db.conn:
            self.db.conn.execute(
                f"INSERT INTO [{self.name}] ({names}) VALUES ({marks})", list(row.values())
            )
