"""Skill ratings from finished games: openskill's Plackett-Luce model (Weng and Lin 2011,
algorithm 4) over each game's four finishing places, game by game in the order they started.

Plain values in, plain values out: no Flask, no SQL. What counts as a finished game's result
(its players and their places, equal totals sharing a place) comes from the store.
"""
from dataclasses import dataclass

from openskill.models import PlackettLuce

SHOWN_AFTER = 3  # a player's rating is shown from their 3rd finished game on
CAREFUL_SIGMAS = 3  # the ladder's careful figure (openskill's ordinal): rating - 3 × uncertainty
# How settled a rating is, by its uncertainty (sigma): a new player starts at 8.3 and loses
# about 0.1 a game at first, so "still settling" lasts about a dozen games.
SETTLING = ((6.5, "still settling"), (4.5, "nearly settled"), (0.0, "settled"))

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True)
class Result:
    """One finished game: its id and each player's place (1 for the winner; equal totals share)."""

    game_id: int
    places: tuple  # ((player_id, place), ...) in seat order


@dataclass(frozen=True)
class Change:
    """What one finished game did to one player's rating."""

    game_id: int
    player_id: int
    games: int  # the player's finished games, this one included
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float

    @property
    def delta(self):
        return self.mu - self.mu_before

    @property
    def ordinal(self):
        return self.mu - CAREFUL_SIGMAS * self.sigma


def rate(results):
    """Every player's rating change, game by game, for finished games given oldest first.
    A player not seen before starts at openskill's default rating."""
    current = {}  # player id -> (rating, finished games)
    changes = []
    for result in results:
        players = [player for player, _ in result.places]
        before = [current.get(player, (MODEL.rating(), 0)) for player in players]
        after = MODEL.rate([[rating] for rating, _ in before],
                           ranks=[place for _, place in result.places])
        for player, (old, games), [new] in zip(players, before, after):
            current[player] = (new, games + 1)
            changes.append(Change(result.game_id, player, games + 1,
                                  old.mu, old.sigma, new.mu, new.sigma))
    return changes


def shown(games):
    """Whether a rating after this many finished games is shown."""
    return games >= SHOWN_AFTER


def settling(sigma):
    return next(words for floor, words in SETTLING if sigma >= floor)


def in_words(mu, sigma, games):
    """A rating as a player reads it: "about 27, still settling after 4 games"."""
    return f"about {round(mu)}, {settling(sigma)} after {games} game{'' if games == 1 else 's'}"


def signed(delta):
    """A rating change to one decimal with its sign and a real minus: +1.8, −0.3, ±0."""
    text = f"{abs(delta):.1f}"
    if text == "0.0":
        return "±0"
    return ("+" if delta > 0 else "−") + text
