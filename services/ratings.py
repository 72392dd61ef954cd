"""Skill ratings: the crew's ladder, a player's rating over their last games, what one game did
to its players' ratings, and switching ratings on or off for the crew. A crew with ratings off
is shown none of them, and none is read."""
from dataclasses import dataclass

from scoring import ratings
from store import ratings as rating_store
from store import stats
from store import write


@dataclass(frozen=True)
class Ladder:
    rated: list  # players whose rating is shown, by their careful figure
    unrated: list  # players with too few finished games yet, by games played


def refresh(crew_id):
    """Work the crew's ratings out again from its finished games when a change since the last
    time left them stale (store/ratings.py keeps them as a cache): one write transaction, only
    then. Each read of the ratings below comes after it."""
    if rating_store.is_fresh(crew_id):
        return
    with write() as db:
        if not rating_store.is_fresh(crew_id, db):  # another request may have rebuilt them meanwhile
            rating_store.rebuild(db, crew_id)


def ladder(crew):
    """The crew's ladder; empty while the crew has ratings off."""
    if not crew["ratings"]:
        return Ladder(rated=[], unrated=[])
    refresh(crew["id"])
    entries = rating_store.ladder(crew["id"])
    return Ladder(rated=[e for e in entries if e["shown"]],
                  unrated=[e for e in entries if not e["shown"]])


def switch(crew_id, enabled):
    """Ratings on or off for the whole crew: only what the pages show changes."""
    with write() as db:
        rating_store.set_enabled(db, crew_id, enabled)


def seat_changes(crew, game_id, seats):
    """seat -> what this game did to the seated player's rating, for ratings that are shown
    (`seats`: the game's seats with their player ids); empty while the crew has ratings off."""
    if not crew["ratings"]:
        return {}
    refresh(crew["id"])
    changes = rating_store.game_changes(crew["id"], game_id)
    return {seat["seat"]: changes[seat["player_id"]] for seat in seats
            if seat["player_id"] in changes and ratings.shown(changes[seat["player_id"]].games)}


def player_ratings(crew, player_id, last=stats.CHART_GAMES):
    """The player's rating after each of their `last` finished games, oldest first, once it is
    shown: dicts of mu, sigma, games, game_id and created (when that game started). Empty while
    the crew has ratings off."""
    if not crew["ratings"]:
        return []
    refresh(crew["id"])
    rated = [{"mu": change.mu, "sigma": change.sigma, "games": change.games, "game_id": change.game_id}
             for change in rating_store.player_history(crew["id"], player_id, last)]
    dates = stats.game_dates([change["game_id"] for change in rated])
    return [{**change, "created": dates[change["game_id"]]} for change in rated
            if ratings.shown(change["games"])]
