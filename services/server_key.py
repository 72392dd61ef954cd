"""The server's key at start: the one the database keeps (store/server_key.py), made at the first
start of a version that keeps it there."""
import secrets

from store import connect, write
from store import server_key as key_store


def load(path):
    """The key of the database at `path` (migrated). At the first start it is stored: the key an
    earlier version kept in `secret_key` beside the file, so its links go on working, or a new
    random one. Worker processes starting at once store one key between them."""
    db = connect(path)
    try:
        found = key_store.stored(db)
        if found:
            return found
        with write(db):
            key_store.keep(db, key_store.older_key(path) or secrets.token_hex(32))
        return key_store.stored(db)
    finally:
        db.close()
