"""Ranking a club night: one leaderboard from every table of every stage."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..rounding import tenths
from .rules import RANKINGS, NightError

@dataclass(frozen=True)
class TableScore:
    """One table of one stage as it stands: its players in seat order, their points there, and
    the hands it has saved."""

    players: tuple[Hashable, ...]
    points: tuple[int, ...]
    hands: int


@dataclass(frozen=True)
class Line:
    """A player's line on the night's leaderboard."""

    player: Hashable
    place: int
    points: int
    hands: int
    placement: Fraction  # placement points over the stages played (halves on ties)
    stages: int

    @property
    def per_hand(self) -> Fraction | None:
        return Fraction(self.points, self.hands) if self.hands else None


def per_hand_text(value: Fraction | None) -> str:
    """Points per hand as the leaderboard shows them: to a tenth, half away from zero (25/4 is 6.3,
    −5/2 is −2.5), worked on the exact fraction the ranking compares, with a real minus sign as
    every score has; "–" before a hand is played. A value that rounds to 0.0 has no sign."""
    return "–" if value is None else tenths(value)


def placement_points(table: TableScore) -> dict:
    """One point for each tablemate with fewer points this stage and half a point for each with
    the same (3, 2, 1, 0 at a table without ties); nothing before the table saves a hand."""
    return {player: Fraction(halves, 2) for player, halves in _placement_halves(table).items()}


def _placement_halves(table: TableScore) -> dict:
    """`placement_points` in halves, as whole numbers (a night adds them up many times)."""
    if not table.hands:
        return {}
    return {player: sum(2 if points > other else 1 if points == other else 0
                        for k, other in enumerate(table.points) if k != seat)
            for seat, (player, points) in enumerate(zip(table.players, table.points))}


def rank_night(players: Sequence[Hashable], tables: Sequence[TableScore], ranking: str) -> list[Line]:
    """The leaderboard: every player of the night, best first, with their place.

    Ranked by the night's measure; equal on it, by total points, then by points per hand; a
    player without a hand played comes after everyone with one when ranked per hand. Players
    equal on all of these share the place (the next place is skipped, as in 1, 2, 2, 4)."""
    if ranking not in RANKINGS:
        raise NightError(f"A night is ranked by {', '.join(RANKINGS)}, not {ranking!r}")
    points = {player: 0 for player in players}
    hands = dict.fromkeys(players, 0)
    halves = dict.fromkeys(players, 0)
    stages = dict.fromkeys(players, 0)
    for table in tables:
        for player, scored in zip(table.players, table.points):
            if player not in points:
                raise NightError("A table's player is not one of the night's")
            points[player] += scored
            hands[player] += table.hands
            stages[player] += 1
        for player, won in _placement_halves(table).items():
            halves[player] += won
    placement = {player: Fraction(n, 2) for player, n in halves.items()}

    def key(player):
        per_hand = Fraction(points[player], hands[player]) if hands[player] else None
        per = (per_hand is not None, per_hand or 0)
        if ranking == "total":
            return (points[player], per)
        if ranking == "per-hand":
            return (per, points[player])
        return (placement[player], points[player], per)

    ordered = sorted(players, key=key, reverse=True)
    lines, place = [], 0
    for index, player in enumerate(ordered):
        if index == 0 or key(player) != key(ordered[index - 1]):
            place = index + 1
        lines.append(Line(player=player, place=place, points=points[player], hands=hands[player],
                          placement=placement[player], stages=stages[player]))
    return lines
