"""A whole round's entry: the four hands, the checks that catch entry mistakes, and their scores."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from .cards import DECK, RANKS, Card, CardError, a_rank, parse_card, parse_cards, parse_rank, rank_name
from .piles import (PileError, PileScore, format_points, normalise_counts, score_counts,
                    score_pile, times)

PLAYERS = 4
TRICK_SIZE = 4
WON_CARDS = 48  # 12 tricks of 4; the other 4 cards are the targets


@dataclass(frozen=True)
class Hand:
    """One player's exact entry: the target card and every won card."""

    target: Card | None
    won: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        # Accepting typed text here saves every caller a parsing step; bad text is a CardError.
        if self.target is not None:
            object.__setattr__(self, "target", parse_card(self.target))
        object.__setattr__(self, "won", parse_cards(self.won))


@dataclass(frozen=True)
class QuickHand:
    """One player's quick entry: the target's rank and how many cards of each rank were won."""

    target_rank: str | None
    counts: tuple[tuple[str, int], ...] = ()
    _by_rank: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.target_rank is not None:
            object.__setattr__(self, "target_rank", parse_rank(self.target_rank))
        counts = normalise_counts(dict(self.counts))
        # Sorted and without zeros, so that equal entries compare equal however they were typed.
        ordered = tuple((rank, counts[rank]) for rank in RANKS if counts.get(rank, 0))
        object.__setattr__(self, "counts", ordered)
        object.__setattr__(self, "_by_rank", dict(ordered))

    @classmethod
    def from_counts(cls, target_rank: str | None, counts: Mapping[str, int]) -> QuickHand:
        """A quick hand from a target rank and a mapping of rank to number of won cards."""
        return cls(target_rank, tuple(counts.items()))

    def count(self, rank: str) -> int:
        """How many won cards of this rank the player entered."""
        # Canonical ranks (the round check's own calls) skip parsing: restores check many rounds.
        return self._by_rank.get(rank if rank in RANKS else parse_rank(rank), 0)


@dataclass(frozen=True)
class Problem:
    """One entry mistake in a sentence, with the seats (0-based) it concerns, none if the whole table."""

    kind: str
    message: str
    seats: tuple[int, ...]
    cards: tuple[Card, ...] = ()


def parse_hand(text: str) -> Hand:
    """A hand from text such as "10S: 3C 3D 4H"; an empty target part means no target yet."""
    target, colon, won = str(text).partition(":")
    if not colon:
        raise CardError(f"{str(text).strip()!r} has no target: write it as 'TARGET: CARD CARD ...'")
    return Hand(target.strip() or None, parse_cards(won))


def check_round(hands: Sequence[Hand], names: Sequence[str] | None = None) -> list[Problem]:
    """Every way four exact hands break the rule book's conditions for a complete round."""
    names = _names(hands, names)
    problems = _missing_targets([hand.target for hand in hands], names)
    problems += _shared_targets(hands, names)
    problems += _repeats_in_pile(hands, names)
    problems += _cards_in_several_piles(hands, names)
    problems += _targets_in_piles(hands, names)
    problems += _pile_sizes(hands, names)
    total = sum(len(hand.won) for hand in hands)
    if total != WON_CARDS:
        message = f"The piles hold {total} cards; the 12 tricks make {WON_CARDS}."
        problems.append(Problem("wrong-total", message, ()))
    seen = {card for hand in hands for card in hand.won} | {hand.target for hand in hands}
    missing = tuple(card for card in DECK if card not in seen)
    if missing:
        listed = ", ".join(str(card) for card in missing)
        message = f"Not yet in any pile or target ({len(missing)}): {listed}."
        problems.append(Problem("missing-cards", message, (), missing))
    return problems


def quick_counts(won_ranks: Mapping[str, int], target_rank: str | None) -> dict[str, int]:
    """What quick entry asks of a pile (the hint on the page says it in words): every rank won
    twice or more, and every card of the target's rank, which the target pairs with. Any other
    single scores nothing, so leaving it out never changes the score."""
    return {rank: count for rank, count in won_ranks.items()
            if count >= 2 or (count and rank == target_rank)}


def left_out(hands: Sequence[Hand | QuickHand], targets: Sequence[Card | None] | None = None) -> dict[str, int]:
    """Cards of each rank that no pile and no target holds, in rank order, while a pile is entered by
    rank counts: quick entry may leave out singles, so these are what the quick piles do not say
    (empty when every pile is exact: their missing cards are a problem of their own)."""
    if all(isinstance(hand, Hand) for hand in hands):
        return {}
    held = _held_by_rank(hands, targets)
    return {rank: 4 - held[rank] for rank in RANKS if held[rank] < 4}


def _held_by_rank(hands, targets=None) -> Counter:
    """Cards of each rank the entries place: piles (exact or counted) and targets."""
    held = Counter()
    for seat, hand in enumerate(hands):
        if isinstance(hand, Hand):
            held.update(card.rank for card in hand.won)
            target = hand.target.rank if hand.target else None
        else:
            held.update({rank: max(count, 0) for rank, count in hand.counts})
            target = hand.target_rank
        if targets is not None and targets[seat] is not None:
            target = targets[seat].rank
        if target is not None:
            held[target] += 1
    return held


def _left_out_problems(hands: Sequence[Hand | QuickHand], names: list[str], targets=None) -> list[Problem]:
    """Cards no entry holds that cannot all be singles left out of the quick piles: a quick pile
    may leave out one card of a rank it has no count of, and never one of its own target's rank."""
    problems = []
    for rank, missing in left_out(hands, targets).items():
        could = [seat for seat, hand in enumerate(hands) if isinstance(hand, QuickHand)
                 and hand.count(rank) == 0 and hand.target_rank != rank]
        if missing <= len(could):
            continue
        cards = f"{missing} {rank_name(rank, plural=True)} are" if missing > 1 else f"{a_rank(rank)} is"
        if could:
            where = (f"only {_join([names[s] + '’s' for s in could])} quick "
                     f"{'pile' if len(could) == 1 else 'piles'} could hold one as a single")
        else:
            where = "no quick pile could hold one as a single"
        them, were = ("them", "they were") if missing > 1 else ("it", "it was")
        message = (f"{cards[0].upper()}{cards[1:]} in no pile or target, and {where} "
                   f"(a pile counts every card of its target’s rank): enter {them} where {were} won.")
        quick = tuple(seat for seat, hand in enumerate(hands) if isinstance(hand, QuickHand))
        problems.append(Problem("left-out", message, quick))
    return problems


def check_quick_round(hands: Sequence[QuickHand], names: Sequence[str] | None = None) -> list[Problem]:
    """Every check that rank counts allow; whole tricks cannot be checked as singles may be left out."""
    names = _names(hands, names)
    problems = _missing_targets([hand.target_rank for hand in hands], names)
    for seat, hand in enumerate(hands):
        problems += _impossible_counts(seat, hand, names[seat])
    totals = Counter()  # cards of each rank across the table, piles and targets
    for hand in hands:
        for rank, count in hand.counts:
            totals[rank] += max(count, 0)
        if hand.target_rank is not None:
            totals[hand.target_rank] += 1
    for rank in RANKS:
        total = totals[rank]
        if total <= 4:
            continue
        holders = tuple(seat for seat, hand in enumerate(hands)
                        if hand.count(rank) > 0 or hand.target_rank == rank)
        # A single holder's excess is already told in that seat's own problem; tell it once.
        if len(holders) > 1:
            message = (f"There are {total} {rank_name(rank, plural=True)} across the table "
                       "(piles and targets); the deck has 4.")
            problems.append(Problem("too-many-of-rank", message, holders))
    total = sum(max(count, 0) for hand in hands for _, count in hand.counts)
    if total > WON_CARDS:
        message = f"The piles hold {total} cards; the 12 tricks make only {WON_CARDS}."
        problems.append(Problem("wrong-total", message, ()))
    return problems


def score_round(hands: Sequence[Hand | QuickHand],
                names: Sequence[str] | None = None) -> tuple[PileScore, ...]:
    """Each player's pile score, every pile scored on its own."""
    names = _names(hands, names)
    scores = []
    for name, hand in zip(names, hands):
        try:
            if isinstance(hand, QuickHand):
                scores.append(score_counts(dict(hand.counts), hand.target_rank))
            else:
                scores.append(score_pile(hand.won, hand.target))
        except PileError as error:
            raise PileError(f"{name}: {error}") from error
    return tuple(scores)


def _impossible_counts(seat: int, hand: QuickHand, name: str) -> list[Problem]:
    problems = []
    for rank, count in hand.counts:
        plural = rank_name(rank, plural=True)
        if count < 0:
            message = f"{name}'s pile cannot hold {format_points(count)} {plural}."
            problems.append(Problem("bad-count", message, (seat,)))
        elif count > 4:
            message = f"{name}'s pile cannot hold {count} {plural}: the deck has 4."
            problems.append(Problem("too-many-of-rank", message, (seat,)))
        elif count == 4 and rank == hand.target_rank:
            message = (f"{name} has 4 {plural} in the pile and {a_rank(rank)} as target; "
                       "the deck has 4.")
            problems.append(Problem("too-many-of-rank", message, (seat,)))
    return problems


def _names(hands: Sequence, names: Sequence[str] | None) -> list[str]:
    if len(hands) != PLAYERS:
        raise ValueError(f"A round has {PLAYERS} hands, not {len(hands)}")
    if names is None:
        return [f"Player {seat + 1}" for seat in range(PLAYERS)]
    if len(names) != PLAYERS:
        raise ValueError(f"A round has {PLAYERS} players' names, not {len(names)}")
    return list(names)


def _missing_targets(targets: Sequence, names: list[str]) -> list[Problem]:
    return [Problem("missing-target", f"{names[seat]} has no target card yet.", (seat,))
            for seat, target in enumerate(targets) if target is None]


def _shared_targets(hands: Sequence[Hand], names: list[str]) -> list[Problem]:
    targets = ((seat, [hand.target]) for seat, hand in enumerate(hands) if hand.target is not None)
    owners = _seats_by_card(targets)
    problems = []
    for card, seats in owners:
        both = "both" if len(seats) == 2 else "all"
        message = f"{_join([names[s] for s in seats])} {both} have {card} as target."
        problems.append(Problem("duplicate", message, seats, (card,)))
    return problems


def _repeats_in_pile(hands: Sequence[Hand], names: list[str]) -> list[Problem]:
    problems = []
    for seat, hand in enumerate(hands):
        for card, n in sorted(Counter(hand.won).items()):
            if n > 1:
                message = f"{card} is in {names[seat]}'s pile {times(n)}."
                problems.append(Problem("duplicate", message, (seat,), (card,)))
    return problems


def _cards_in_several_piles(hands: Sequence[Hand], names: list[str]) -> list[Problem]:
    problems = []
    for card, seats in _seats_by_card(enumerate(hand.won for hand in hands)):
        owners = [f"{names[seat]}'s" for seat in seats]
        message = f"{card} is in {_join(owners)} piles."
        problems.append(Problem("duplicate", message, seats, (card,)))
    return problems


def _targets_in_piles(hands: Sequence[Hand], names: list[str]) -> list[Problem]:
    problems = []
    for owner, hand in enumerate(hands):
        for seat, other in enumerate(hands):
            if hand.target is not None and hand.target in other.won:
                where = f"{names[seat]}'s own" if seat == owner else f"{names[seat]}'s"
                message = f"{names[owner]}'s target {hand.target} is also in {where} pile."
                seats = tuple(sorted({owner, seat}))
                problems.append(Problem("target-in-pile", message, seats, (hand.target,)))
    return problems


def _pile_sizes(hands: Sequence[Hand], names: list[str]) -> list[Problem]:
    problems = []
    for seat, hand in enumerate(hands):
        size = len(hand.won)
        cards = "1 card" if size == 1 else f"{size} cards"
        if size % TRICK_SIZE:
            message = f"{names[seat]}'s pile has {cards}: a pile is whole tricks, so 0, 4, 8 … 48 cards."
        elif size > WON_CARDS:
            message = f"{names[seat]}'s pile has {cards}: a pile holds at most the 12 tricks, 48 cards."
        else:
            continue
        problems.append(Problem("not-whole-tricks", message, (seat,)))
    return problems


def _seats_by_card(cards_by_seat) -> list[tuple[Card, tuple[int, ...]]]:
    """Cards held in more than one seat, in deck order, with those seats."""
    seats = defaultdict(set)
    for seat, cards in cards_by_seat:
        for card in cards:
            seats[card].add(seat)
    return [(card, tuple(sorted(seats[card]))) for card in sorted(seats) if len(seats[card]) > 1]


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


MODES = ("quick", "exact")  # how a hand's won pile is entered: rank counts, or every card


def quick_from_exact(hand: Hand) -> QuickHand:
    """The same hand as rank counts: what is kept when a hand switches from exact to quick entry."""
    return QuickHand.from_counts(hand.target.rank if hand.target else None,
                                 Counter(card.rank for card in hand.won))


def check_entry(hands: Sequence[Hand | QuickHand], names: Sequence[str] | None = None,
                targets: Sequence[Card | None] | None = None, bid_entered: bool = True) -> list[Problem]:
    """The round check for hands entered each in its own mode (exact cards or quick counts).

    All exact: the full check. Otherwise every exact pile is checked card by card against the
    other exact piles and every target, and the whole table by rank counts. `targets` are the
    target cards of every hand (a quick hand's value knows only the rank): no two may be the same.
    """
    missing_bid = [] if bid_entered else [Problem("missing-bid", "The bid is not entered yet.", ())]
    return missing_bid + _check_hands(hands, names, targets)


def _check_hands(hands, names, targets) -> list[Problem]:
    if all(isinstance(hand, Hand) for hand in hands):
        return check_round(hands, names)
    names = _names(hands, names)
    if targets is None:
        targets = [hand.target if isinstance(hand, Hand) else None for hand in hands]
    exact = [hand if isinstance(hand, Hand) else Hand(None) for hand in hands]
    problems = []
    problems += _shared_targets([Hand(target) for target in targets], names)
    problems += _repeats_in_pile(exact, names)
    problems += _cards_in_several_piles(exact, names)
    problems += _targets_in_piles([Hand(target, hand.won) for target, hand in zip(targets, exact)], names)
    problems += [p for p in _pile_sizes(exact, names) if isinstance(hands[p.seats[0]], Hand)]
    quick = [quick_from_exact(hand) if isinstance(hand, Hand) else hand for hand in hands]
    merged = _merge(check_quick_round(quick, names), problems)
    # Once every target is in and nothing else is wrong, what no entry holds must be singles.
    return merged or _left_out_problems(hands, names, targets)


def _merge(quick: list[Problem], exact: list[Problem]) -> list[Problem]:
    """The quick check's problems (missing targets first), then the card-level ones it cannot see."""
    missing = [p for p in quick if p.kind == "missing-target"]
    return missing + exact + [p for p in quick if p.kind != "missing-target"]


def entered_hand(mode: str, target: Card | str | None, won: Sequence[Card | str] = (),
                 counts: Mapping[str, int] | None = None) -> Hand | QuickHand:
    """One hand as the engine's value for its entry mode: every won card (exact), or the target's
    rank and the rank counts (quick)."""
    if mode not in MODES:
        raise ValueError(f"A hand is entered quick or exact, not {mode!r}")
    target = parse_card(target) if target else None
    if mode == "exact":
        return Hand(target, tuple(won))
    return QuickHand.from_counts(target.rank if target else None, counts or {})


def score_hand(hand: Hand | QuickHand) -> PileScore | None:
    """The pile score of one hand, or None while it cannot be scored (no target yet, or an
    impossible pile such as five of a rank)."""
    if (hand.target if isinstance(hand, Hand) else hand.target_rank) is None:
        return None
    try:
        if isinstance(hand, QuickHand):
            return score_counts(dict(hand.counts), hand.target_rank)
        return score_pile(hand.won, hand.target)
    except PileError:
        return None
