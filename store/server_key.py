"""The server's key (table and watch tokens and session cookies are made with it), kept in the
database itself: a backup carries it, so a restored copy honours every link the app gave out,
wherever the copy is put. The service that makes it at the first start is services/server_key.py."""
from pathlib import Path

KEY_FILE = "secret_key"  # where earlier versions kept the key: beside the database file


def stored(db):
    """The key the database keeps, or None before the first start of a version that keeps it."""
    row = db.execute("SELECT key FROM server_key WHERE id = 1").fetchone()
    return row[0] if row else None


def keep(db, key):
    """Store `key` unless another process stored one first (in db's transaction)."""
    db.execute("INSERT OR IGNORE INTO server_key (id, key) VALUES (1, ?)", [key])


def older_key(path):
    """The key an earlier version kept in a file beside the database at `path`, or None."""
    beside = Path(path).parent / KEY_FILE
    return (beside.read_text().strip() or None) if beside.is_file() else None
