"""A finished game's one highlight, for its result card and record: the winner's comeback when they
were well behind, else the best single round. Pure: running totals in, a fact out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

COMEBACK_MIN = 30  # points behind the leader, after some round, that make a win a comeback


@dataclass(frozen=True)
class Highlight:
    kind: str  # "comeback": `seat` was `points` behind the leader after `round`; "best round": scored `points` in it
    seat: int
    points: int
    round: int  # 1-based


def highlight(running: Sequence[Sequence[int]], winners: Sequence[int]) -> Highlight | None:
    """The game's highlight from each round's totals after it (`running`) and its winning seats:
    the largest deficit a winner came back from (at least COMEBACK_MIN), else the highest one-round
    score (the earliest, on a tie), else None (no round scored above 0)."""
    comeback = None
    for number, totals in enumerate(running, start=1):
        for seat in winners:
            behind = max(totals) - totals[seat]
            if behind >= COMEBACK_MIN and (comeback is None or behind > comeback.points):
                comeback = Highlight("comeback", seat, behind, number)
    if comeback:
        return comeback
    best, before = None, [0] * (len(running[0]) if running else 0)
    for number, totals in enumerate(running, start=1):
        for seat, total in enumerate(totals):
            scored = total - before[seat]
            if scored > 0 and (best is None or scored > best.points):
                best = Highlight("best round", seat, scored, number)
        before = totals
    return best
