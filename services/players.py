"""Players, the crew's people: everyone's record, one player's page (their numbers, best and worst
rounds, recent games and form, rating), two players head to head, renaming one, and merging two
names of one person."""
from dataclasses import dataclass

from store import crews as crew_store
from store import players as player_store
from store import stats, write
from store.crews import LookAlike
from store.players import NameTaken

from . import ratings as rating_service
from .refusals import Refused


@dataclass(frozen=True)
class PlayerPage:
    summary: dict  # games, wins, averages, bids, bonuses (stats.summary)
    extremes: dict  # where the best and worst rounds were scored
    recent: list  # the last CHART_GAMES finished games, oldest first
    form_games: list  # the last FORM_GAMES of them, newest first
    ratings: list  # the shown rating after each recent game, oldest first (rating_service)
    players: list  # the whole crew, as the merge form offers it
    others: list  # everyone else in the crew, for a head-to-head


@dataclass(frozen=True)
class Versus:
    other: dict
    duel: dict  # stats.head_to_head


@dataclass(frozen=True)
class Merged:
    other: dict  # the player folded in (now gone)
    games: int  # how many games moved


def crew_players(crew_id):
    """The crew's players by name, as the forms offer them."""
    return crew_store.players(crew_id)


def find(crew_id, player_id):
    """The crew's player with this id, or None (another crew's player too)."""
    return player_store.player(crew_id, player_id)


def overview(crew_id):
    """Everyone's record, for the list of players."""
    return stats.overview(crew_id)


def player_page(crew, player):
    """Everything a player's page shows about them."""
    summary = stats.summary(player["id"])
    recent = stats.recent_games(player["id"])
    players = crew_store.players(crew["id"])
    rated = rating_service.player_ratings(crew, player["id"], stats.CHART_GAMES)
    return PlayerPage(
        summary=summary,
        extremes=stats.extreme_rounds(player["id"], summary["best_round"], summary["worst_round"]),
        recent=recent,
        form_games=recent[-stats.FORM_GAMES:][::-1],
        ratings=rated,
        players=players,
        others=[p for p in players if p["id"] != player["id"]],
    )


def versus(crew_id, player_id, other_id):
    """Two players of the crew head to head, or None when `other_id` is not another of its players."""
    other = player_store.player(crew_id, other_id)
    if other is None or other_id == player_id:
        return None
    return Versus(other=other, duel=stats.head_to_head(player_id, other_id))


def rename(crew_id, player_id, name):
    """Give the player a new name; Refused when another player of the crew has it."""
    try:
        with write() as db:
            player_store.rename(db, crew_id, player_id, name)
    except NameTaken:
        raise Refused(f"Another player of this crew is already called {name}.", 422, field="name") from None
    except LookAlike as alike:
        raise Refused(alike.sentence(), 422, field="name") from None


def merge(crew_id, keep_id, other_id):
    """Fold another player of the crew (the same person under another name) into `keep_id`;
    Refused when both sat at one game or came to one club night: they are two people."""
    other = player_store.player(crew_id, other_id)
    try:
        with write() as db:
            moved = player_store.merge(db, crew_id, keep_id, other["id"])
    except player_store.TwoRunningTables:
        keep = player_store.player(crew_id, keep_id)
        raise Refused(f"{keep['name']} and {other['name']} both sit at a club night table still being played: "
                      "merge them once one of those games is over.", 409, field="other") from None
    except (player_store.SharedGame, player_store.SharedNight) as shared:
        met = (f"played game {shared.game_id}" if isinstance(shared, player_store.SharedGame)
               else f"came to the club night {shared.name}")
        keep = player_store.player(crew_id, keep_id)
        raise Refused(f"{keep['name']} and {other['name']} both {met}, so they are two people: nothing was merged.",
                      409, field="other") from None
    return Merged(other=other, games=moved)
