"""m0006: Crew links are kept only as SHA-256 hashes, so a copy of the database opens no crew."""
import hashlib

from . import migrations


@migrations()
def m0006_hash_crew_tokens(db):
    """Crew links are kept only as SHA-256 hashes, so a copy of the database opens no crew."""
    db.execute("ALTER TABLE crews ADD COLUMN token_hash TEXT")
    for crew_id, token in db.execute("SELECT id, token FROM crews").fetchall():
        db.execute(
            "UPDATE crews SET token_hash = ? WHERE id = ?",
            [hashlib.sha256(token.encode("utf-8")).hexdigest(), crew_id],
        )
    db.execute("DROP INDEX idx_crews_token")
    db.execute("ALTER TABLE crews DROP COLUMN token")
    db.execute("CREATE UNIQUE INDEX idx_crews_token_hash ON crews (token_hash)")
