"""Crews and their players. A crew's link holds its token; the store keeps only the token's
SHA-256 hash, so whoever knows the link is the only one who can rebuild it."""
import hashlib
import json
import secrets

from scoring import HouseRules
from scoring import names as name_rule

from . import get_db, now


def create_crew(db, name):
    """Store a new crew under a fresh unguessable token (256 bits), in db's transaction; returns
    the token."""
    token = secrets.token_urlsafe(32)
    db["crews"].insert({"name": name, "token_hash": token_hash(token), "created": now(),
                        "rules": json.dumps(HouseRules().as_json())})  # the rule book's until changed
    return token


def rotate_token(db, crew_id):
    """Give the crew a new link, in db's transaction; the old one stops working at once.
    Returns the new token."""
    token = secrets.token_urlsafe(32)
    db.execute("UPDATE crews SET token_hash = ? WHERE id = ?", [token_hash(token), crew_id])
    return token


def token_hash(token):
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def crew_by_token(token):
    """The crew that owns this link, or None; its "token" is the one it was found by."""
    rows = list(get_db().query("SELECT * FROM crews WHERE token_hash = ?", [token_hash(token)]))
    return {**rows[0], "token": token} if rows else None


def players(crew_id):
    return list(
        get_db().query(
            "SELECT * FROM players WHERE crew_id = ? ORDER BY name COLLATE NOCASE", [crew_id]
        )
    )


class LookAlike(Exception):
    """A new name is drawn like another player's of the crew (`scoring.names.look_alike`)."""

    def __init__(self, name, other):
        super().__init__(name)
        self.name, self.other = name, other

    def sentence(self):
        return name_rule.look_alike_sentence(self.name, self.other)


def player_ids_for_names(db, crew_id, names):
    """Ids of the named players, creating the ones the crew does not know yet (in db's transaction);
    LookAlike when a new name is drawn like a player's the crew has (or one just created)."""
    ids, known = [], None
    for name in names:
        found = list(
            db.query(
                "SELECT id FROM players WHERE crew_id = ? AND name_key = ?",
                [crew_id, name_rule.key(name)],
            )
        )
        if found:
            ids.append(found[0]["id"])
            continue
        if known is None:
            known = [row[0] for row in db.execute("SELECT name FROM players WHERE crew_id = ?", [crew_id])]
        other = name_rule.look_alike(name, known)
        if other:
            raise LookAlike(name, other)
        cursor = db.execute(
            "INSERT INTO players (crew_id, name, name_key, created) VALUES (?, ?, ?, ?)",
            [crew_id, name, name_rule.key(name), now()],
        )
        ids.append(cursor.lastrowid)
        known.append(name)
    return ids


def set_house_rules(db, crew_id, rules):
    """Store the crew's house rules (in db's transaction); games already started keep their own copy."""
    db.execute(
        "UPDATE crews SET rules = ? WHERE id = ?", [json.dumps(rules.as_json()), crew_id],
    )
