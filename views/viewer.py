"""Who is looking: this phone's id (kept in its session cookie), the seat it holds, what it may see."""
import secrets
from dataclasses import dataclass

from flask import request, session

from store import rounds as round_store
from store import seats as seat_store


def device_id():
    """This browser's phone id, kept in its session cookie so a seat is remembered."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(16)
        session.permanent = True
    return session["device"]


@dataclass(frozen=True)
class Viewer:
    """Who is looking: this phone, the seat it holds in the game (if any), and how to name it."""

    device: str
    seat: int | None
    claims: dict

    def label(self, names):
        return f"{names[self.seat]}'s phone" if self.seat is not None else "a phone without a seat"

    def hidden_seats(self, entry):
        """Seats whose hand another phone is entering in private: their cards stay on that phone
        until the round is scored."""
        # Secrecy protects play; a correction comes after the round was played and scored.
        if entry["status"] != round_store.OPEN or entry["is_correction"]:
            return set()
        hidden = set()
        for hand in entry["hands"]:
            claim = self.claims.get(hand["seat"])
            if claim and claim["device"] != self.device and hand["entered_by"] == claim["device"]:
                hidden.add(hand["seat"])
        return hidden


def viewer_for(game):
    device = device_id()
    claims = seat_store.claims(game["id"])
    seat = next((s for s, claim in claims.items() if claim["device"] == device), None)
    return Viewer(device, seat, claims)


def unchanged_since_shown(game_id):
    """Whether the game is still at the version (`v`) the polling page shows; notes the phone
    as still at the table on the way."""
    try:
        shown = int(request.args.get("v", ""))
    except ValueError:
        return False
    seat_store.note_seen(game_id, device_id())
    return seat_store.game_version(game_id) == shown
