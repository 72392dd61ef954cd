"""Phones at a table: which seat a phone holds, and what of a round in progress it may see.

The one visibility policy: while a round is being played, the hand of a seat that a phone holds
is that phone's alone (its target and pile, whoever entered them); every other phone sees only
whether it is being entered or all in. Every way of reading a round in progress goes through
`hidden_seats`: pages, fragments, polls, refusal messages. Exports leave a round in progress
out, and saved rounds (corrections included: the cards were shown when it was scored) are
open to the whole table."""
from dataclasses import dataclass

from store import games as game_store
from store import rounds as round_store
from store import seats as seat_store
from store import write
from store.seats import SeatTaken

from .refusals import Refused


@dataclass(frozen=True)
class Viewer:
    """Who is looking: this phone, the seat it holds in the game (if any), and how to name it."""

    device: str
    seat: int | None
    claims: dict

    def label(self, names):
        return f"{names[self.seat]}'s phone" if self.seat is not None else "the table's shared phone"

    def hidden_seats(self, entry):
        """Seats whose hand this phone may not read: those other phones hold, while the round is
        being played."""
        # Secrecy protects play; a correction comes after the round was played and scored.
        if entry["status"] != round_store.OPEN or entry["is_correction"]:
            return set()
        return {seat for seat, claim in self.claims.items() if claim["device"] != self.device}

    def seated(self):
        """The seats phones hold: their hands are marked "all in" by their own phone."""
        return set(self.claims)


def viewer_for(game, device):
    """This phone as the table sees it in `game` (its claims as loaded with it, if they were)."""
    claims = game["claims"] if "claims" in game else seat_store.claims(game["id"])
    seat = next((s for s, claim in claims.items() if claim["device"] == device), None)
    return Viewer(device, seat, claims)


def take_seat(game, seat, device, force=False):
    """This phone takes a seat; one another active phone holds is Refused unless `force`."""
    try:
        with write() as db:
            seat_store.take(db, game["id"], seat, device, force=force)
    except SeatTaken:
        raise Refused(f"{game['names'][seat]}'s seat is in use on another phone.", 409,
                      field=f"seat-{seat}") from None


def leave_seat(game_id, device):
    """This phone gives up its seat in the game."""
    with write() as db:
        seat_store.leave(db, game_id, device)


def live_version(crew_id, game_id, device, board=False, state=...):
    """A live poll's first question, in one indexed read: the game's version (`board`: the
    scoreboard's own), or None when the link holds no such game. Notes the phone as still at the
    table on the way. `state`, (version, seen) or None, when the link's read answered it already
    (services/links.py, `resolve` with `poll`): then no read of its own."""
    if state is ...:
        state = game_store.live_state(crew_id, game_id, device, board)
    if state is None:
        return None
    version, seen = state
    if device is not None:
        if seat_store.seen_long_ago(game_id, device, seen):
            # A draft: not worth waiting for the disk (a poll is quick, web/quick.py)
            with write(draft=True) as db:
                seat_store.note_seen(db, game_id, device)
    return version
