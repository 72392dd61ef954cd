""""We sat in the wrong seats": after some rounds a table finds two players sat in each other's
places. They swap seats in the game: every saved round's piles, bids and deals stay where they
were played, so they count for whoever really sat there, and the totals, the winner, the
history and any club night's leaderboard follow."""
from scoring import PLAYERS
from store import games as game_store
from store import seat_repair as repair_store
from store import write

from .games import refuse_if_final
from .refusals import Refused


def swap(game, a, b, version, by=None):
    """Swap seats a and b; returns the sentence saying what was done. Refused (nothing changed)
    for the same seat twice, a round still being entered or corrected, or a page older than the game."""
    if a not in range(PLAYERS) or b not in range(PLAYERS):
        raise Refused("Pick two of the game's four seats.", 422)
    if a == b:
        raise Refused("Pick two different players to swap.", 422)
    names = game["names"]
    with write() as db:
        if game_store.game_version(game["id"], db) != version:
            raise Refused("The game changed since this page was drawn: look at the seats again, then swap.")
        refuse_if_final(db, game)
        number, correcting = repair_store.open_round(db, game["id"])
        if correcting:
            raise Refused(f"A correction of round {number} is open: save it or drop it first, then swap seats.")
        if number is not None:
            raise Refused(f"Round {number} is being entered: save it or discard it first, then swap seats.")
        detail = f"{names[a]} and {names[b]} swapped seats: what was entered at each seat counts for the other"
        repair_store.swap_seats(db, game["id"], a, b, detail, by)
    return f"{names[a]} and {names[b]} swapped seats: every saved round now counts for whoever sat there."
