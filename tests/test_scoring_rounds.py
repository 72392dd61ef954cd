from collections import Counter
from dataclasses import replace

import pytest

from scoring.cards import DECK, RANKS, CardError, parse_card, parse_cards
from scoring.piles import PileError
from scoring.rounds import (
    Hand,
    Problem,
    QuickHand,
    check_quick_round,
    check_round,
    parse_hand,
    score_round,
)

NAMES = ["Ann", "Ben", "Cleo", "Dan"]
C = parse_card


def complete_round() -> list[Hand]:
    """Seat i's target is the first card of the i-th quarter of the deck; the other 12 are won."""
    return [Hand(DECK[13 * seat], DECK[13 * seat + 1: 13 * seat + 13]) for seat in range(4)]


def swap(hand: Hand, old: str, new: str) -> Hand:
    return replace(hand, won=tuple(C(new) if card == C(old) else card for card in hand.won))


def test_complete_round_has_no_problems():
    assert check_round(complete_round(), NAMES) == []


def test_hands_of_the_complete_round_hold_what_we_think():
    hands = complete_round()
    assert hands[0].target == C("2D") and hands[0].won[0] == C("2H") and hands[0].won[-1] == C("5D")
    assert hands[1].target == C("5H")


def test_same_card_in_two_piles():
    hands = complete_round()
    hands[0] = swap(hands[0], "2H", "6D")   # 6D is in Ben's pile
    assert check_round(hands, NAMES) == [
        Problem("duplicate", "6♦ is in Ann's and Ben's piles.", (0, 1), (C("6D"),)),
        Problem("missing-cards", "Not yet in any pile or target (1): 2♥.", (), (C("2H"),)),
    ]


def test_same_card_in_three_piles():
    hands = complete_round()
    hands[0] = swap(hands[0], "2H", "6D")
    hands[2] = swap(hands[2], "8S", "6D")
    problems = check_round(hands, NAMES)
    assert problems[0] == Problem("duplicate", "6♦ is in Ann's, Ben's and Cleo's piles.", (0, 1, 2), (C("6D"),))


def test_same_card_twice_in_one_pile():
    hands = complete_round()
    hands[0] = swap(hands[0], "2H", "3D")
    assert check_round(hands, NAMES) == [
        Problem("duplicate", "3♦ is in Ann's pile twice.", (0,), (C("3D"),)),
        Problem("missing-cards", "Not yet in any pile or target (1): 2♥.", (), (C("2H"),)),
    ]


def test_target_in_another_pile():
    hands = complete_round()
    hands[1] = swap(hands[1], "6D", "2D")   # 2D is Ann's target
    assert check_round(hands, NAMES) == [
        Problem("target-in-pile", "Ann's target 2♦ is also in Ben's pile.", (0, 1), (C("2D"),)),
        Problem("missing-cards", "Not yet in any pile or target (1): 6♦.", (), (C("6D"),)),
    ]


def test_target_in_own_pile():
    hands = complete_round()
    hands[0] = swap(hands[0], "2H", "2D")
    assert check_round(hands, NAMES)[0] == Problem(
        "target-in-pile", "Ann's target 2♦ is also in Ann's own pile.", (0,), (C("2D"),))


def test_two_players_with_the_same_target():
    hands = complete_round()
    hands[1] = replace(hands[1], target=C("2D"))
    assert check_round(hands, NAMES) == [
        Problem("duplicate", "Ann and Ben both have 2♦ as target.", (0, 1), (C("2D"),)),
        Problem("missing-cards", "Not yet in any pile or target (1): 5♥.", (), (C("5H"),)),
    ]


def test_piles_that_are_not_whole_tricks():
    hands = complete_round()
    moved = hands[0].won[-1]
    hands[0] = replace(hands[0], won=hands[0].won[:-1])
    hands[1] = replace(hands[1], won=hands[1].won + (moved,))
    assert check_round(hands, NAMES) == [
        Problem("not-whole-tricks", "Ann's pile has 11 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards.", (0,)),
        Problem("not-whole-tricks", "Ben's pile has 13 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards.", (1,)),
    ]


def test_missing_trick_is_a_wrong_total_and_names_the_cards():
    hands = complete_round()
    hands[3] = replace(hands[3], won=hands[3].won[:8])
    assert check_round(hands, NAMES) == [
        Problem("wrong-total", "The piles hold 44 cards; the 12 tricks make 48.", ()),
        Problem("missing-cards", "Not yet in any pile or target (4): A♦, A♥, A♣, A♠.", (),
                parse_cards("AD AH AC AS")),
    ]


def test_missing_target():
    hands = complete_round()
    hands[2] = replace(hands[2], target=None)
    assert check_round(hands, NAMES) == [
        Problem("missing-target", "Cleo has no target card yet.", (2,)),
        Problem("missing-cards", "Not yet in any pile or target (1): 8♣.", (), (C("8C"),)),
    ]


def test_a_pile_of_more_than_48_cards():
    hands = [Hand(C("2D"), DECK[1:]), Hand(C("2H")), Hand(C("2C")), Hand(C("2S"))]
    problems = check_round(hands, NAMES)
    kinds = [problem.kind for problem in problems]
    assert "Ann's pile has 51 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards." in [p.message for p in problems]
    assert kinds.count("target-in-pile") == 3 and "wrong-total" in kinds
    hands[0] = Hand(C("2D"), DECK)
    assert Problem("not-whole-tricks", "Ann's pile has 52 cards: a pile holds at most the 12 tricks, 48 cards.",
                   (0,)) in check_round(hands, NAMES)


def test_names_default_to_player_numbers():
    hands = complete_round()
    hands[2] = replace(hands[2], target=None)
    assert check_round(hands)[0].message == "Player 3 has no target card yet."


def test_an_empty_entry_names_all_missing_cards_and_never_raises():
    problems = check_round([Hand(None)] * 4, NAMES)
    assert [p.kind for p in problems] == ["missing-target"] * 4 + ["wrong-total", "missing-cards"]
    assert problems[-1].cards == DECK
    assert problems[-1].message.startswith("Not yet in any pile or target (52): 2♦, 2♥, 2♣, 2♠, 3♦")


def test_problems_come_in_a_fixed_order():
    hands = complete_round()
    hands[0] = swap(hands[0], "2H", "6D")
    hands[2] = replace(hands[2], target=None)
    hands[3] = replace(hands[3], won=hands[3].won[:-1])
    first = check_round(hands, NAMES)
    assert [p.kind for p in first] == ["missing-target", "duplicate", "not-whole-tricks", "wrong-total",
                                       "missing-cards"]
    assert check_round(list(hands), NAMES) == first


@pytest.mark.parametrize("count", [3, 5])
def test_check_round_wants_four_hands(count):
    with pytest.raises(ValueError):
        check_round(complete_round()[:1] * count)


def test_hand_accepts_typed_cards():
    assert Hand("10s", "3c 3d") == Hand(C("10S"), (C("3C"), C("3D")))


def test_parse_hand():
    assert parse_hand("10S: 3C 3D") == Hand(C("10S"), (C("3C"), C("3D")))
    assert parse_hand(": 3C") == Hand(None, (C("3C"),))
    with pytest.raises(CardError, match="has no target"):
        parse_hand("3C 3D")


def quick(hand: Hand) -> QuickHand:
    return QuickHand.from_counts(hand.target.rank, Counter(card.rank for card in hand.won))


def test_quick_hand_normalises_ranks_and_drops_zeros():
    hand = QuickHand.from_counts("t", {"j": 2, "10": 1, "2": 0})
    assert hand == QuickHand("10", (("10", 1), ("J", 2)))
    assert hand.count("j") == 2
    assert hand.count("Q") == 0


def test_quick_complete_round_has_no_problems():
    assert check_quick_round([quick(hand) for hand in complete_round()], NAMES) == []


def test_quick_round_may_leave_singles_out():
    hands = [QuickHand.from_counts("2", {"J": 2}), QuickHand.from_counts("3", {}),
             QuickHand.from_counts("4", {}), QuickHand.from_counts("5", {})]
    assert check_quick_round(hands, NAMES) == []


@pytest.mark.parametrize(
    "hands, expected",
    [
        (
            [("2", {"J": 3}), ("J", {"J": 1}), ("4", {"J": 1}), ("5", {})],
            [Problem("too-many-of-rank",
                     "There are 6 Jacks across the table (piles and targets); the deck has 4.", (0, 1, 2))],
        ),
        (
            [("2", {"J": 5}), ("3", {}), ("4", {}), ("5", {})],
            [Problem("too-many-of-rank", "Ann's pile cannot hold 5 Jacks: the deck has 4.", (0,))],
        ),
        (
            [("J", {"J": 4}), ("3", {}), ("4", {}), ("5", {})],
            [Problem("too-many-of-rank",
                     "Ann has 4 Jacks in the pile and a Jack as target; the deck has 4.", (0,))],
        ),
        (
            [("A", {"A": 4}), ("3", {}), ("4", {}), ("5", {})],
            [Problem("too-many-of-rank",
                     "Ann has 4 Aces in the pile and an Ace as target; the deck has 4.", (0,))],
        ),
        (
            [("8", {"8": 4}), ("3", {}), ("4", {}), ("5", {})],
            [Problem("too-many-of-rank",
                     "Ann has 4 8s in the pile and an 8 as target; the deck has 4.", (0,))],
        ),
        (
            [("2", {}), ("3", {"A": -1}), ("4", {}), ("5", {})],
            [Problem("bad-count", "Ben's pile cannot hold −1 Aces.", (1,))],
        ),
        (
            [(None, {}), ("3", {}), ("4", {}), ("5", {})],
            [Problem("missing-target", "Ann has no target card yet.", (0,))],
        ),
        (
            # Only without targets can the piles hold more than 48 cards and no rank too many.
            [(None, {rank: 4 for rank in RANKS}), (None, {}), (None, {}), (None, {})],
            [Problem("missing-target", f"{name} has no target card yet.", (seat,))
             for seat, name in enumerate(NAMES)]
            + [Problem("wrong-total", "The piles hold 52 cards; the 12 tricks make only 48.", ())],
        ),
    ],
)
def test_quick_round_problems(hands, expected):
    quick_hands = [QuickHand.from_counts(target, counts) for target, counts in hands]
    assert check_quick_round(quick_hands, NAMES) == expected


def test_score_round_scores_each_pile_exact_or_quick():
    hands = complete_round()
    # Ann: four 2s with her target 80, four 3s −60, four 4s −60. Ben: three 5s with his target 40,
    # four 6s 20, four 7s 20, pair of 8s 5. Cleo: pair of 8s with her target 5, four 9s 20,
    # four 10s 40, three Jacks 20. Dan: four Queens 40, four Kings 40, four Aces 60.
    exact = score_round(hands)
    assert [score.total for score in exact] == [-40, 85, 85, 140]
    assert [score.total for score in score_round([quick(hand) for hand in hands])] == [-40, 85, 85, 140]


def test_score_round_names_the_player_whose_pile_cannot_be_scored():
    hands = complete_round()
    hands[1] = replace(hands[1], target=None)
    with pytest.raises(PileError, match="^Ben: There is no target card yet"):
        score_round(hands, NAMES)
