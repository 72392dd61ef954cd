"""A club night's limits, its stages' seatings and what earlier stages leave behind."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from ..game import MAX_HANDS
from ..rounds import PLAYERS

MIN_PLAYERS = PLAYERS  # one full table
MAX_PLAYERS = 200  # fifty tables: a big club's whole membership
MAX_STAGES = 20
# A night's log, lines at most: far more than a night of changes. Live entry refuses a step that
# would go past it (a restored file can hold this many), so every export restores.
MAX_LOG_LINES = 100_000
# New names a night's door code may add (each a line of the night's log and a player of the crew,
# kept when the organiser undoes it): twice a full night, so a code passed round cannot grow either
# without end. After that the organiser adds anyone else by name.
MAX_DOOR_ARRIVALS = 2 * MAX_PLAYERS
MAX_STAGE_HANDS = MAX_HANDS  # a stage of hands is a game cut to that many hands
FORMATS = ("hands", "game")  # stages of a fixed number of hands, or one game to the goal a table
RANKINGS = ("total", "per-hand", "placement")
RANKING_NAMES = {
    "total": "Total points",
    "per-hand": "Points per hand played",
    "placement": "Placement points per stage",
}
# How a night makes its tables: "mixed", new tablemates each stage (draw_seating), or "standing",
# players of similar standing together (draw_by_standing): the first stage by a season's
# standings, later ones by the night's own so far (Swiss).
SEATINGS = ("mixed", "standing")
SEATING_NAMES = {
    "mixed": "Mixed: new tablemates each stage",
    "standing": "By standing: the season’s for stage 1, tonight’s after",
}
# Up to this many seatings are tried one by one for a stage; past it, a local search.
EXHAUSTIVE_LIMIT = 20_000
RESTARTS = 4
# Small nights also look one stage ahead when that is at most this many splits to try.
LOOKAHEAD_LIMIT = 200_000
LOOKAHEAD_OPTIONS = 48  # of the best splits now, this many are looked ahead from
# "Draw again" tries this many seeds for a seating other than the one shown, as good as the first.
DRAW_AGAIN_TRIES = 4

class NightError(ValueError):
    """A night, a stage or a seating that the rules do not allow."""


@dataclass(frozen=True)
class Seating:
    """One stage: the tables in order, each in seat order, and who sits this stage out."""

    tables: tuple[tuple[Hashable, ...], ...]
    sitting_out: tuple[Hashable, ...] = ()

    @property
    def players(self) -> tuple[Hashable, ...]:
        return tuple(itertools.chain(*self.tables, self.sitting_out))


def sit_out_count(present: int) -> int:
    """How many players sit a stage out: whoever is left over once the tables of four are full."""
    return present % PLAYERS


def check_present(present: Sequence[Hashable]) -> None:
    """The players here for a stage: at least one table's worth, at most the club's limit, each once."""
    if len(set(present)) != len(present):
        raise NightError("A player can sit at only one table at a time")
    if len(present) < MIN_PLAYERS:
        raise NightError(f"A stage needs at least {MIN_PLAYERS} players here, not {len(present)}")
    if len(present) > MAX_PLAYERS:
        raise NightError(f"A night seats at most {MAX_PLAYERS} players, not {len(present)}")


def check_format(format: str, stage_hands: int | None, ranking: str) -> None:
    if format not in FORMATS:
        raise NightError(f"A night is stages of a set number of hands or one game a table, not {format!r}")
    if format == "hands" and (not isinstance(stage_hands, int) or isinstance(stage_hands, bool)
                              or not 1 <= stage_hands <= MAX_STAGE_HANDS):
        raise NightError(f"A stage is 1 to {MAX_STAGE_HANDS} hands, not {stage_hands!r}")
    if ranking not in RANKINGS:
        raise NightError(f"A night is ranked by {', '.join(RANKINGS)}, not {ranking!r}")


# --- What earlier stages leave behind -------------------------------------------------------

@dataclass(frozen=True)
class Record:
    """Counts from the stages so far: stages each player played, how often each pair met at a
    table, how often each player sat on another's left, and first deals."""

    played: Mapping[Hashable, int]
    met: Mapping[frozenset, int]
    left_of: Mapping[tuple, int]  # (a, b): b sat on a's left
    first_deals: Mapping[Hashable, int]

    @classmethod
    def of(cls, stages: Sequence[Seating]) -> "Record":
        played, met, left_of, first_deals = {}, {}, {}, {}
        for stage in stages:
            for table in stage.tables:
                first_deals[table[0]] = first_deals.get(table[0], 0) + 1
                for seat, player in enumerate(table):
                    played[player] = played.get(player, 0) + 1
                    pair = (player, table[(seat + 1) % len(table)])
                    left_of[pair] = left_of.get(pair, 0) + 1
                for a, b in itertools.combinations(table, 2):
                    key = frozenset((a, b))
                    met[key] = met.get(key, 0) + 1
        return cls(played, met, left_of, first_deals)


def repeat_meetings(stages: Sequence[Seating]) -> int:
    """Meetings at a table beyond each pair's first: the figure seating keeps as low as it can."""
    return sum(count - 1 for count in Record.of(stages).met.values())


def repeat_left_neighbours(stages: Sequence[Seating]) -> int:
    """Times a player had the same left-hand neighbour again."""
    return sum(count - 1 for count in Record.of(stages).left_of.values())


def swap(seating: Seating, a: Hashable, b: Hashable) -> Seating:
    """The seating with two players' places exchanged (either may be sitting out)."""
    if a == b:
        raise NightError("Pick two different players to swap")
    everyone = seating.players
    for player in (a, b):
        if player not in everyone:
            raise NightError("Both players must be in this stage's seating")

    def placed(player):
        return b if player == a else a if player == b else player

    return Seating(tables=tuple(tuple(placed(p) for p in table) for table in seating.tables),
                   sitting_out=tuple(placed(p) for p in seating.sitting_out))


def check_seating(seating: Seating, present: Sequence[Hashable]) -> None:
    """A seating the organiser could be shown: everyone here placed once, full tables only, and
    exactly the left-over players sitting out."""
    check_present(present)
    if sorted(map(repr, seating.players)) != sorted(map(repr, present)):
        raise NightError("Everyone here must be seated or sitting out, each once")
    if any(len(table) != PLAYERS for table in seating.tables):
        raise NightError(f"Every table seats {PLAYERS}")
    if len(seating.sitting_out) != sit_out_count(len(present)):
        raise NightError("Only the players left over once the tables are full sit out")
