"""The sqlite-utils database class every connection uses."""
import sqlite_utils
from sqlite_utils.db import dedupe_keys


class Database(sqlite_utils.Database):
    """sqlite-utils, with a plain SELECT run as it is. sqlite-utils wraps every query in a
    SAVEPOINT and a RELEASE, to roll back a statement that turns out not to return rows; a
    SELECT always returns rows, so here that guard is two statements spent for nothing."""

    def query(self, sql, params=None):
        if sql.lstrip()[:6].upper() != "SELECT":
            return super().query(sql, params)
        cursor = self.conn.execute(sql, () if params is None else params)
        keys = dedupe_keys(column[0] for column in cursor.description)
        return (dict(zip(keys, row)) for row in cursor)
