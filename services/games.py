"""Games: starting one and its rematch, finding one in a crew, what its scoreboard shows, and the
game as the engine sees it (its house rules, where it stands after its saved rounds)."""
import json
from dataclasses import dataclass

from scoring import PLAYERS, SCOREBOARD_ROUNDS, HouseRules, rematch_first_dealer, round_dealer, standing
from store import club_nights as night_store
from store.crews import LookAlike
from store import games as game_store
from store import rounds as round_store
from store import seats as seat_store
from store import write

from .refusals import Refused


def refuse_if_final(db, game):
    """A game played at a club night that is finished is final: no round of it is saved, undone,
    brought back or corrected, no seat swapped, and it is neither abandoned nor resumed, until the
    night is reopened (services/club_night_stages.py, `reopen`)."""
    night = night_store.final_night_of_game(game["id"], db)
    if night is not None:
        raise Refused(f"This game was played at {night}, which is finished: its results are final. "
                      "The organiser can reopen the night on its page to change them.", 409)


def house_rules(row):
    """The house rules stored on a crew or game row, as the engine's value."""
    return HouseRules.from_json(json.loads(row["rules"]))


def game_standing(game, saved_rounds):
    """Totals, the engine's verdict and who deals next, from the game's saved rounds."""
    return standing(
        [row["scores"] for row in saved_rounds],
        sum(row["redeals"] or 0 for row in saved_rounds),
        game["first_dealer"],
        house_rules(game),
    )


def dealer_for(game, number, redeals_so_far):
    """Who deals round `number` after `redeals_so_far` redeals in the game (this round's included)."""
    return round_dealer(game["first_dealer"], number, redeals_so_far, house_rules(game))


def find(crew_id, game_id):
    """The crew's game with this id, or None."""
    return game_store.game(crew_id, game_id)


def start(crew_id, names, first_dealer, rules):
    """A new game for four named players (new names join the crew); returns its id. Refused (on
    the seat's field) when a new name is drawn like a player's the crew has."""
    try:
        with write() as db:
            return game_store.insert_game(db, crew_id, names, first_dealer, rules)
    except LookAlike as alike:
        raise Refused(alike.sentence(), 422, field=f"player_{names.index(alike.name)}") from None


def rematch(crew_id, game):
    """A new game with the same seats and house rules, the deal moved on one seat; returns its id."""
    with write() as db:
        return game_store.insert_game(db, crew_id, game["names"], rematch_first_dealer(game["first_dealer"]),
                                      house_rules(game), rematch_of=game["id"])


def version(game_id):
    """The game's live version: a phone's poll answers 204 while it still shows this one."""
    return game_store.game_version(game_id)


def latest_saved(crew_id):
    """The crew's newest game with a saved round, and its saved rounds; None before any."""
    for game in game_store.games(crew_id):
        saved = round_store.scored(game["id"])
        if saved:
            return game, saved
    return None


@dataclass(frozen=True)
class Scoreboard:
    rounds: list  # the newest saved rounds, SCOREBOARD_ROUNDS at most, in order
    earlier: int  # how many saved rounds come before them (their running totals start after those)
    standing: object  # the engine's Standing: totals, verdict, next dealer
    open_round: object  # the round being entered (or corrected), if any
    undone: object  # an undone round that can be brought back, if any
    all_agreed: set  # ids of saved rounds all four players agreed to
    just_saved: str | None  # "Round N saved." once the save this phone made is in


def scoreboard(game, just_saved=None):
    """What the scoreboard shows; `just_saved`: the round number a save on this phone came from."""
    saved = round_store.scored(game["id"])
    listed = saved[-SCOREBOARD_ROUNDS:]
    agreed = seat_store.signoffs([row["id"] for row in listed])
    done = None
    if just_saved is not None and any(row["number"] == just_saved for row in saved):
        done = f"Round {just_saved} saved."
    return Scoreboard(
        rounds=listed,
        earlier=len(saved) - len(listed),
        standing=game_standing(game, saved),
        open_round=round_store.open_round(game["id"]),
        undone=round_store.undone_after(game["id"], len(saved)),
        all_agreed={row["id"] for row in listed if len(agreed.get(row["id"], ())) == PLAYERS},
        just_saved=done,
    )
