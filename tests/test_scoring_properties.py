from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import DECK, RANKS, SUITS, Card, rank_value
from scoring.piles import score_counts, score_pile
from scoring.rounds import Hand, check_round
from support.profiles import examples

pytestmark = pytest.mark.fuzz

SOME = settings(max_examples=examples(60), deadline=None)


@st.composite
def deals(draw):
    """A whole round as it could really end: four targets and twelve tricks shared out among four piles."""
    cards = draw(st.permutations(DECK))
    trick_winners = draw(st.lists(st.integers(0, 3), min_size=12, max_size=12))
    piles = [[] for _ in range(4)]
    for trick, winner in enumerate(trick_winners):
        piles[winner] += cards[4 + 4 * trick: 8 + 4 * trick]
    return [Hand(cards[seat], tuple(piles[seat])) for seat in range(4)]


@SOME
@given(deals())
def test_a_real_deal_always_passes_the_round_check(hands):
    assert check_round(hands) == []


@SOME
@given(deals(), st.data())
def test_moving_one_card_breaks_whole_tricks(hands, data):
    giver = data.draw(st.sampled_from([seat for seat, hand in enumerate(hands) if hand.won]))
    taker = data.draw(st.sampled_from([seat for seat in range(4) if seat != giver]))
    card = data.draw(st.sampled_from(hands[giver].won))
    hands[giver] = Hand(hands[giver].target, tuple(c for c in hands[giver].won if c != card))
    hands[taker] = Hand(hands[taker].target, hands[taker].won + (card,))
    problems = check_round(hands)
    assert {(p.kind, p.seats) for p in problems} == {("not-whole-tricks", (giver,)), ("not-whole-tricks", (taker,))}


@SOME
@given(deals(), st.data())
def test_writing_a_card_twice_is_caught_and_the_lost_card_named(hands, data):
    seat = data.draw(st.sampled_from([seat for seat, hand in enumerate(hands) if hand.won]))
    lost = data.draw(st.sampled_from(hands[seat].won))
    copied = data.draw(st.sampled_from([card for card in DECK if card != lost]))
    hands[seat] = Hand(hands[seat].target, tuple(copied if c == lost else c for c in hands[seat].won))
    problems = check_round(hands)
    assert {p.kind for p in problems} & {"duplicate", "target-in-pile"}
    assert problems[-1].kind == "missing-cards" and problems[-1].cards == (lost,)
    assert not {p.kind for p in problems} & {"not-whole-tricks", "wrong-total"}


@st.composite
def piles(draw):
    """A target and a won pile of different cards, not necessarily whole tricks."""
    cards = draw(st.permutations(DECK))
    size = draw(st.integers(0, 24))
    return cards[0], cards[1: 1 + size]


@SOME
@given(piles(), st.randoms())
def test_pile_score_ignores_order_and_suits(pile, random):
    target, won = pile
    # Each rank's suits are swapped by a bijection, so the cards stay different cards.
    swaps = {rank: dict(zip(SUITS, random.sample(SUITS, 4))) for rank in RANKS}

    def other(card):
        return Card(card.rank, swaps[card.rank][card.suit])

    shuffled = [other(card) for card in won]
    random.shuffle(shuffled)
    assert score_pile(shuffled, other(target)) == score_pile(won, target)


@SOME
@given(piles())
def test_score_pile_equals_score_counts_on_the_same_ranks(pile):
    target, won = pile
    assert score_pile(won, target) == score_counts(Counter(card.rank for card in won), target.rank)


@SOME
@given(st.sampled_from(RANKS), st.sampled_from(RANKS), st.dictionaries(st.sampled_from(RANKS), st.integers(0, 3)))
def test_the_fourth_card_of_a_rank_against_the_triple(rank, target_rank, others):
    """The fourth card scores more than the triple unless the rank is a low one (2–5) and not the target's."""
    others = {r: min(n, 3) for r, n in others.items() if r != rank}
    on_target = rank == target_rank
    triple = score_counts({**others, rank: 3 - on_target}, target_rank).total
    four = score_counts({**others, rank: 4 - on_target}, target_rank).total
    if on_target:
        assert four - triple == 80 - 40
    else:
        assert four - triple == 2 * rank_value(rank)   # 4 × value instead of 2 × value
    assert (four > triple) == (on_target or rank_value(rank) > 0)
