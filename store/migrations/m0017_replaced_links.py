"""m0017: a link that was replaced is still known by its old token's hash, so a phone still holding
it is told the link was replaced (410), not answered as a guess at a link (issue 44, item 2)."""
from . import migrations


@migrations()
def m0017_replaced_links(db):
    """The SHA-256 hash of each token a link had before "Replace" gave it a new one, and when."""
    db["replaced_links"].create(
        {"token_hash": str, "link_id": int, "replaced": str},
        pk="token_hash",
        foreign_keys=[("link_id", "links", "id")],
        not_null={"link_id", "replaced"},
    )
