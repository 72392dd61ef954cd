"""m0018: the server's key lives in the database, so a backup restored (copied over the database,
or pointed at with ORCHARD_DATABASE) honours every table, watch and night link the app gave out
(issue 46, item 1). The row is written at the first start (store/server_key.py): a migration does
not know the folder a `secret_key` file of an older version sits in."""
from . import migrations


@migrations()
def m0018_server_key(db):
    """At most one row: the key table and watch tokens and session cookies are made with."""
    db["server_key"].create({"id": int, "key": str}, pk="id", not_null={"key"})
