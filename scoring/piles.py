"""Scoring one player's winnings pile together with their target card (rule book, section 2)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping

from .cards import DECK, RANKS, Card, is_whole_number, parse_card, parse_cards, parse_rank, rank_name, rank_value

MAX_PILE_CARDS = len(DECK)  # every card of the deck in one pile, and not one more
MINUS = "−"  # the real minus sign reads better than a hyphen next to card values
TARGET_TRIPLE_POINTS = 40
TARGET_FOUR_POINTS = 80


class PileError(ValueError):
    """A pile or rank count that no real round could produce."""


def format_points(points: int, signed: bool = False) -> str:
    """Points as players write them, with a real minus sign and, if asked, a plus sign."""
    if points < 0:
        return f"{MINUS}{-points}"
    return f"+{points}" if signed and points > 0 else str(points)


def times(n: int) -> str:
    """How often something happens, in words: "twice", "three times"."""
    return {1: "once", 2: "twice", 3: "three times", 4: "four times"}.get(n, f"{n} times")


@dataclass(frozen=True)
class Group:
    """All the cards of one rank in a pile plus target, and what they score."""

    rank: str
    count: int
    points: int
    rule: str

    @property
    def on_target(self) -> bool:
        """Whether the group is of the target's rank."""
        return self.rule.startswith("target-")

    @property
    def label(self) -> str:
        """A short name such as "Three Jacks" or "Three 4s (target rank)"."""
        label = _group_name(self.rank, self.count)
        return f"{label} (target rank)" if self.on_target else label

    @property
    def explanation(self) -> str:
        """One line saying how the group scores, such as "Three Jacks: 2 × 10 = +20"."""
        name = _group_name(self.rank, self.count)
        value = format_points(rank_value(self.rank))
        points = format_points(self.points, signed=True)
        if self.rule == "target-four":
            return f"{name} with your target: {self.points} (whatever the rank's value)"
        if self.rule == "target-triple":
            return f"{name} with your target: {self.points}"
        if self.rule == "target-pair":
            return f"{name} with your target: {points} (a normal pair)"
        if self.count == 2:
            return f"{name}: {points}"
        multiplier = 2 if self.count == 3 else 4
        return f"{name}: {multiplier} × {value} = {points}"


@dataclass(frozen=True)
class PileScore:
    """A pile's score, its scoring groups and the ranks that scored nothing."""

    total: int
    groups: tuple[Group, ...]
    singles: tuple[str, ...]
    target_rank: str

    def lines(self) -> list[str]:
        """The breakdown as lines a player can check against the cards."""
        lines = [group.explanation for group in self.groups]
        if self.singles:
            lines.append("Singles score nothing: " + ", ".join(self.singles))
        lines.append(f"Total: {format_points(self.total)}")
        return lines

    @property
    def target_bonus(self) -> int:
        """3 or 4 when the pile made three or four of its target's rank (the 40 and 80 point
        groups), else 0: the classes the history counts."""
        for group in self.groups:
            if group.rule in ("target-triple", "target-four"):
                return group.count
        return 0

    def as_dict(self) -> dict:
        """The score as plain values ready for JSON."""
        return {
            "total": self.total,
            "target_rank": self.target_rank,
            "groups": [
                {"rank": g.rank, "count": g.count, "points": g.points, "rule": g.rule,
                 "text": g.explanation}
                for g in self.groups
            ],
            "singles": list(self.singles),
        }


def normalise_counts(counts: Mapping[str, int]) -> dict[str, int]:
    """Rank counts keyed by canonical rank, refusing a rank given twice or a count that is no number."""
    normalised: dict[str, int] = {}
    keys: dict[str, str] = {}
    for key, count in counts.items():
        rank = parse_rank(key)
        if rank in normalised:
            plural = rank_name(rank, plural=True)
            raise PileError(f"The {plural} are counted twice ({keys[rank]!r} and {key!r})")
        keys[rank] = key
        if not is_whole_number(count):
            plural = rank_name(rank, plural=True)
            raise PileError(f"The number of {plural} must be a whole number, not {count!r}")
        normalised[rank] = count
    return normalised


def score_counts(counts: Mapping[str, int], target_rank: str | None) -> PileScore:
    """Score a pile given as the number of won cards of each rank (target not included)."""
    if target_rank is None:
        raise PileError("There is no target card yet: every player sets one card aside as target")
    target_rank = parse_rank(target_rank)
    won = normalise_counts(counts)
    groups, singles = [], []
    for rank in RANKS:
        count = won.get(rank, 0) + (rank == target_rank)
        _check_count(rank, won.get(rank, 0), count)
        if count == 1:
            singles.append(rank)
        elif count > 1:
            groups.append(_group(rank, count, rank == target_rank))
    total = sum(group.points for group in groups)
    return PileScore(total, tuple(groups), tuple(singles), target_rank)


def score_pile(cards: Iterable[Card | str], target: Card | str | None) -> PileScore:
    """Score a pile given card by card, refusing a repeated card or the target inside the pile."""
    if target is None:
        raise PileError("There is no target card yet: every player sets one card aside as target")
    target = parse_card(target)
    cards = parse_cards(cards)
    check_pile_cards(cards, target)
    return score_counts(Counter(card.rank for card in cards), target.rank)


def check_pile_cards(cards: Iterable[Card], target: Card | None = None) -> None:
    """Refuse a card that is in the pile twice, or the target card also in the pile."""
    cards = list(cards)
    repeated = sorted(card for card, n in Counter(cards).items() if n > 1)
    if repeated:
        card = repeated[0]
        raise PileError(f"{card} is in the pile {times(cards.count(card))}")
    if target is not None and target in cards:
        raise PileError(f"Your target {target} cannot also be in your won pile")


def _check_count(rank: str, won: int, count: int) -> None:
    if won < 0:
        raise PileError(f"A pile cannot hold {format_points(won)} {rank_name(rank, plural=True)}")
    if count > 4:
        with_target = f" ({won} won plus your target)" if count > won else ""
        raise PileError(
            f"You cannot have {count} {rank_name(rank, plural=True)}{with_target}: "
            "there are only 4 in the deck"
        )


def _group(rank: str, count: int, on_target: bool) -> Group:
    value = rank_value(rank)
    if on_target and count == 3:
        return Group(rank, count, TARGET_TRIPLE_POINTS, "target-triple")
    if on_target and count == 4:
        return Group(rank, count, TARGET_FOUR_POINTS, "target-four")
    if count == 2:
        return Group(rank, count, value, "target-pair" if on_target else "pair")
    return Group(rank, count, value * (2 if count == 3 else 4), "triple" if count == 3 else "four")


def _group_name(rank: str, count: int) -> str:
    plural = rank_name(rank, plural=True)
    return f"Pair of {plural}" if count == 2 else f"{'Three' if count == 3 else 'Four'} {plural}"
