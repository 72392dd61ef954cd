"""Seasons: a club's ladder across its games and club nights (our rule book's "Seasons").

Each event (a finished game, or a finished club night as a whole) gives each of its players one
comparable result whatever its size: the share of the other players they finished ahead of, as a
percentage, a tie counting half (a game of four: 100, 66.7, 33.3, 0; two tied at the top of a game
of four: 83.3 each). The season's rule counts each player's best N events (or all) and ranks only
players with at least M events; their average of the counted results places them, equal averages
sharing a place. Everything here is pure: the caller gives the events and the rule.
"""
from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Hashable, Mapping, Sequence

from .rounding import tenths

MAX_SEASON_EVENTS = 1000  # the most a rule's "best N" or "at least M" can name
TREND_LENGTH = 5  # the last results a standings line draws as its trend
MAX_SEASONS = 100  # a crew's seasons, kept for good


class SeasonError(ValueError):
    """A season's dates or rule that no season could have; the message is the sentence to show."""


@dataclass(frozen=True)
class SeasonRule:
    """Which results count: each player's best `best` events (None: every event), and only players
    with at least `minimum` events are ranked."""

    best: int | None = None
    minimum: int = 1

    def __post_init__(self) -> None:
        for value, what in ((self.best, "best"), (self.minimum, "minimum")):
            if value is None and what == "best":
                continue
            if type(value) is not int or not 1 <= value <= MAX_SEASON_EVENTS:
                raise SeasonError(f"A season counts from 1 to {MAX_SEASON_EVENTS} events, not {value!r}.")

    def sentence(self) -> str:
        """The rule in one sentence, as every page of the season shows it."""
        counted = ("Every event counts" if self.best is None
                   else f"Each player’s best {self.best} event{'' if self.best == 1 else 's'} count")
        ranked = ("every player is ranked from their first event" if self.minimum == 1
                  else f"a player is ranked from their {_ordinal(self.minimum)} event")
        return f"{counted}; {ranked}."


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def check_days(first: datetime.date, last: datetime.date | None) -> None:
    """A season's first day, and its last one when it has one (not before the first)."""
    if last is not None and last < first:
        raise SeasonError("The last day cannot come before the first.")


@dataclass(frozen=True)
class Event:
    """One finished game or club night: `places` maps each of its players to their place (1 is
    first; equal places are a tie). `left_out` is the reason it does not count, or None."""

    key: Hashable
    day: datetime.date
    name: str
    places: Mapping[Hashable, int]
    left_out: str | None = None


def event_results(places: Mapping[Hashable, int]) -> dict[Hashable, Fraction]:
    """Each player's result in one event: the share of the others they finished ahead of, a tie
    counting half, as a percentage (exact, as a Fraction)."""
    others = len(places) - 1
    if others < 1:
        return {player: Fraction(100) for player in places}
    at = Counter(places.values())
    behind, seen = {}, 0  # how many finished below each place
    for place in sorted(at, reverse=True):
        behind[place] = seen
        seen += at[place]
    return {player: Fraction(100 * (2 * behind[place] + at[place] - 1), 2 * others)
            for player, place in places.items()}


@dataclass(frozen=True)
class Entry:
    """One event in a player's breakdown: its result, whether it counts, and why."""

    event: Event
    result: Fraction
    counted: bool
    why: str


@dataclass(frozen=True)
class Line:
    """A player's line in the standings. `place` is None for a player not yet ranked, who needs
    `to_qualify` more events."""

    player: Hashable
    place: int | None
    counted: int
    played: int
    average: Fraction | None
    best: Fraction | None
    trend: tuple[Fraction, ...]
    entries: tuple[Entry, ...]
    to_qualify: int


def standings(events: Sequence[Event], rule: SeasonRule,
              order: Mapping[Hashable, str] | None = None) -> list[Line]:
    """The season's standings: ranked players by average (equal averages share a place, then by
    best result), then the players still short of the minimum (most events first). `order` names
    players for ties at the same place (alphabetical), else they keep the order they came in."""
    played: dict[Hashable, list[tuple[Event, Fraction]]] = {}
    left: dict[Hashable, list[tuple[Event, Fraction]]] = {}
    for event in sorted(events, key=lambda e: e.day):
        for player, result in event_results(event.places).items():
            (left if event.left_out is not None else played).setdefault(player, []).append((event, result))
    lines = []
    for player in {**played, **left}:
        own = played.get(player, [])
        ranked_results = sorted(own, key=lambda pair: -pair[1])  # stable: the earlier event first among equals
        counted = ranked_results if rule.best is None else ranked_results[:rule.best]
        counted_keys = {id(pair[0]) for pair in counted}
        why_in = "every event counts" if rule.best is None else f"among the best {rule.best}"
        why_out = f"not among the best {rule.best}"
        entries = [Entry(event, result, id(event) in counted_keys, why_in if id(event) in counted_keys else why_out)
                   for event, result in own]
        entries += [Entry(event, result, False, f"left out of the season: {event.left_out}")
                    for event, result in left.get(player, [])]
        entries.sort(key=lambda entry: entry.event.day)
        total = sum((result for _, result in counted), Fraction(0))
        lines.append(Line(
            player=player, place=None, counted=len(counted), played=len(own),
            average=total / len(counted) if counted else None,
            best=max((result for _, result in own), default=None),
            trend=tuple(result for _, result in own[-TREND_LENGTH:]),
            entries=tuple(entries), to_qualify=max(0, rule.minimum - len(own))))
    name = (lambda line: order.get(line.player, "")) if order else (lambda line: "")
    ranked = sorted((line for line in lines if line.played and not line.to_qualify),
                    key=lambda line: (-line.average, -line.best, name(line)))
    placed = []
    for index, line in enumerate(ranked):
        same = placed and placed[-1].average == line.average
        placed.append(replace(line, place=placed[-1].place if same else index + 1))
    waiting = sorted((line for line in lines if not line.played or line.to_qualify),
                     key=lambda line: (-line.played, name(line)))
    return placed + waiting


def percent(value: Fraction | None) -> str:
    """A result or an average as shown: one decimal ("66.7"), whole numbers without ("100")."""
    if value is None:
        return "—"
    return tenths(value, whole_without_point=True)  # 125/4 shows as 31.3, as a table works it
