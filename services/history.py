"""The crew's history: its game nights newest first and a search through them, one game as
recorded (its rounds, seats, standing, what it did to ratings, its note), notes on a game or a
night, and abandoning or resuming a game."""
from dataclasses import dataclass

from store import club_nights as night_store
from store import games as game_store
from store import history as history_store
from store import write
from store.history import Search

from . import ratings as rating_service
from .games import game_standing, refuse_if_final


@dataclass(frozen=True)
class Nights:
    listing: object  # the store's NightsPage: this page's nights, whether more follow, counts
    searching: bool  # whether a search narrowed the list


@dataclass(frozen=True)
class GameRecord:
    rounds: list  # the saved rounds, in order, with their hands
    standing: object  # the engine's Standing after them
    seats: list  # who sat where
    rating_changes: dict  # seat -> what the game did to that player's shown rating
    note: str | None


def nights(crew_id, page=1, player=None, since=None, until=None, ahead=None, behind=None):
    """One page of the crew's nights, newest first; with any of a player, a date range (local
    dates, inclusive) or "`ahead` finished higher than `behind`", only the nights and games that
    match."""
    search = Search(player=player, since=since, until=until, ahead=ahead, behind=behind)
    return Nights(listing=history_store.nights(crew_id, search, page), searching=search.active)


def is_night(crew_id, game_id):
    """Whether this game opened one of the crew's nights (a night is known by that game)."""
    return history_store.is_night(crew_id, game_id)


def game_record(crew, game):
    """Everything one game's page shows of it as recorded."""
    rounds = history_store.recorded_rounds(game["id"])
    standing = game_standing(game, rounds)
    seats = history_store.seated_players(game["id"])
    return GameRecord(
        rounds=rounds,
        standing=standing,
        seats=seats,
        rating_changes=rating_service.seat_changes(crew, game["id"], seats),
        note=history_store.note("game", game["id"]),
    )


def final_standing(game):
    """Where the game stands after its recorded rounds (what its result card shows)."""
    return game_standing(game, history_store.recorded_rounds(game["id"]))


def save_note(crew_id, kind, subject_id, text):
    """Keep a short note on a game or a night (`kind`); an empty text removes it. Returns the
    note as kept, None once removed."""
    with write() as db:
        history_store.set_note(db, crew_id, kind, subject_id, text)
    return text or None


def final_night(game):
    """The name of the finished club night the game was played at (its results are final), or None."""
    return night_store.final_night_of_game(game["id"])


def abandon(game):
    """Stop a game still in play without a winner; returns whether it was in play. Refused for a
    game of a finished club night (`refuse_if_final`)."""
    with write() as db:
        refuse_if_final(db, game)
        return game_store.abandon(db, game["id"])


def resume(game):
    """Put an abandoned game back in play; returns whether it was abandoned (refused likewise)."""
    with write() as db:
        refuse_if_final(db, game)
        return game_store.resume(db, game["id"])
