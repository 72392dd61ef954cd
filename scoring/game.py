"""Running totals and when the game ends and who wins (rule book, section 3)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Sequence

from .bidding import MAX_BID
from .cards import is_whole_number

TIE_RULES = ("play-on", "shared")
MAX_GOAL = 100_000  # far beyond any real game; keeps totals in ordinary integers
MAX_HANDS = 30  # a game cut to a number of hands (a club night's stage) is at most this long


class GameError(ValueError):
    """House rules or round scores that no game could have."""


@dataclass(frozen=True)
class HouseRules:
    """The choices a crew makes before a game; the defaults are the rule book's."""

    goal: int = 250
    tie_rule: str = "play-on"
    min_bid: int = 1
    redeal_moves_deal: bool = False
    hand_limit: int | None = None  # a club night's stage: the game ends after this many hands

    def __post_init__(self) -> None:
        if not is_whole_number(self.goal) or not 1 <= self.goal <= MAX_GOAL:
            raise GameError(f"The goal must be a whole number of points from 1 to {MAX_GOAL}, not {self.goal!r}")
        if self.tie_rule not in TIE_RULES:
            raise GameError(f"A tie at the top either plays on or is shared, not {self.tie_rule!r}")
        if not is_whole_number(self.min_bid) or not 1 <= self.min_bid <= MAX_BID:
            raise GameError(f"The lowest bid must be from 1 to {MAX_BID}, not {self.min_bid!r}")
        if not isinstance(self.redeal_moves_deal, bool):
            raise GameError(f"Whether a redeal moves the deal is yes or no, not {self.redeal_moves_deal!r}")
        if self.hand_limit is not None and (not is_whole_number(self.hand_limit)
                                            or not 1 <= self.hand_limit <= MAX_HANDS):
            raise GameError(f"A game cut short ends after 1 to {MAX_HANDS} hands, not {self.hand_limit!r}")

    def as_json(self) -> dict:
        """The rules as one value, stored on a crew or a game and exported as it is: each rule by its
        name (a stage's hand limit only when it has one)."""
        value = asdict(self)
        if self.hand_limit is None:
            del value["hand_limit"]
        return value

    @classmethod
    def from_json(cls, value: object) -> "HouseRules":
        """The rules `as_json` wrote, read back (from the database or a file): a rule left out is the
        rule book's (so a file from before a rule existed reads as it was played), a rule this
        version does not know is refused, and each value is checked as above."""
        if not isinstance(value, dict):
            raise GameError("House rules are a set of named rules")
        unknown = sorted(str(key)[:40] for key in value if key not in RULE_NAMES)
        if unknown:
            raise GameError(f"There is no house rule called {unknown[0]!r}")
        return cls(**value)

    def summary(self) -> list[str]:
        """The rules in force, one short line each, as players say them."""
        return [
            f"Play to {self.goal}",
            "A tie at the top plays on" if self.tie_rule == "play-on" else "A tie at the top is a shared win",
            f"Bids from {self.min_bid}",
            "After four passes the deal moves on" if self.redeal_moves_deal
            else "After four passes the same dealer deals again",
        ] + ([f"Ends after {self.hand_limit} hands: whoever leads then tops the table"] if self.hand_limit else [])


RULE_NAMES = frozenset(field.name for field in fields(HouseRules))


@dataclass(frozen=True)
class GameResult:
    """Where a game stands after the rounds played so far."""

    totals: tuple[int, ...]
    over: bool
    winners: tuple[int, ...]
    tie_at_top: bool
    goal_reached_after: int | None
    leaders: tuple[int, ...]


def running_totals(round_scores: Sequence[Sequence[int]]) -> list[tuple[int, int, int, int]]:
    """The four players' totals after each round."""
    a = b = c = d = 0
    result = []
    for number, scores in enumerate(round_scores, start=1):
        if len(scores) != 4 or not all(is_whole_number(score) for score in scores):
            raise GameError(f"Round {number} needs four whole-number scores, not {list(scores)!r}")
        a, b, c, d = a + scores[0], b + scores[1], c + scores[2], d + scores[3]
        result.append((a, b, c, d))
    return result


def game_result(round_scores: Sequence[Sequence[int]], rules: HouseRules = HouseRules()) -> GameResult:
    """Whether the game is over after these rounds, and who won or leads."""
    return result_of(running_totals(round_scores), rules)


def result_of(history: Sequence[Sequence[int]], rules: HouseRules = HouseRules()) -> GameResult:
    """`game_result` from the running totals after each round (`running_totals`), when the caller
    has them already."""
    goal_reached_after = ended_after = None
    for number, totals in enumerate(history, start=1):
        if goal_reached_after is None and max(totals) >= rules.goal:
            goal_reached_after = number
        # Once the goal has been reached the game ends at the first round with a single
        # leader, even if every total has since dropped below the goal again: the rule
        # book asks only for one player alone at the top, not for the goal to be held.
        if goal_reached_after is not None and (len(_leaders(totals)) == 1 or rules.tie_rule == "shared"):
            ended_after = number
            break
        # A game cut to a number of hands ends after its last one, whoever leads (equal leaders
        # share the win): there is no further hand to play it on.
        if number == rules.hand_limit:
            ended_after = number
            break
    if ended_after is not None and ended_after < len(history):
        raise GameError(f"The game ended after round {ended_after}, so there is no round {ended_after + 1}")
    totals = history[-1] if history else (0, 0, 0, 0)
    leaders = _leaders(totals)
    over = ended_after is not None
    return GameResult(
        totals=totals,
        over=over,
        winners=leaders if over else (),
        tie_at_top=goal_reached_after is not None and not over,
        goal_reached_after=goal_reached_after,
        leaders=leaders,
    )


def _leaders(totals: Sequence[int]) -> tuple[int, ...]:
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)
