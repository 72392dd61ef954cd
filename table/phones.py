"""Phones at a table: which seat a phone holds, and what of a round in progress it may see."""
from dataclasses import dataclass

from store import rounds as round_store
from store import seats as seat_store


@dataclass(frozen=True)
class Viewer:
    """Who is looking: this phone, the seat it holds in the game (if any), and how to name it."""

    device: str
    seat: int | None
    claims: dict

    def label(self, names):
        return f"{names[self.seat]}'s phone" if self.seat is not None else "the table's shared phone"

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


def viewer_for(game, device):
    """This phone as the table sees it in `game`."""
    claims = seat_store.claims(game["id"])
    seat = next((s for s, claim in claims.items() if claim["device"] == device), None)
    return Viewer(device, seat, claims)
