import pytest

from scoring.cards import Card, parse_card, parse_cards
from scoring.piles import Group, PileError, PileScore, score_counts, score_pile


@pytest.mark.parametrize(
    "won, target, total",
    [
        # The rule book's worked examples.
        ("3C 3D 4H 6S 9C 9D JC JD JH QS AH AD", "10S", 25),
        ("4C 4D 10C 10D", "4S", 50),
        # The examples that follow from the table.
        ("2D 2H 2S", "2C", 80),
        ("AD AH AC AS", "KS", 60),
        ("7D 7H 7C", "2S", 10),
        # One line of the table each.
        ("2D 2H", "KS", -15),
        ("2D 2H 2C", "KS", -30),
        ("2D 2H 2C 2S", "KS", -60),
        ("6D 6H", "KS", 5),
        ("6D 6H 6C 6S", "KS", 20),
        ("10D 10H", "KS", 10),
        ("QD QH QC", "KS", 20),
        ("KD KH KC KS", "AS", 40),
        ("AD AH", "KS", 15),
        ("AD AH AC", "KS", 30),
        ("AD AH", "AS", 40),   # three Aces of the target's rank: 40, not 30
        ("AD AH AC", "AS", 80),
        ("2D", "2C", -15),     # two of the target's rank is a normal pair
        ("AD", "AS", 15),
        ("5D 5H", "5S", 40),   # a low rank is worth 40 as a target triple
        ("", "AS", 0),
        ("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD", "AS", 0),
    ],
)
def test_score_pile(won, target, total):
    assert score_pile(parse_cards(won), parse_card(target)).total == total


def test_first_worked_example_in_detail():
    score = score_pile(parse_cards("3C 3D 4H 6S 9C 9D JC JD JH QS AH AD"), parse_card("10S"))
    assert score == PileScore(
        total=25,
        groups=(
            Group("3", 2, -15, "pair"),
            Group("9", 2, 5, "pair"),
            Group("J", 3, 20, "triple"),
            Group("A", 2, 15, "pair"),
        ),
        singles=("4", "6", "10", "Q"),
        target_rank="10",
    )
    assert score.lines() == [
        "Pair of 3s: −15",
        "Pair of 9s: +5",
        "Three Jacks: 2 × 10 = +20",
        "Pair of Aces: +15",
        "Singles score nothing: 4, 6, 10, Q",
        "Total: 25",
    ]


def test_second_worked_example_in_detail():
    score = score_pile(parse_cards("4C 4D 10C 10D"), parse_card("4S"))
    assert score.groups == (Group("4", 3, 40, "target-triple"), Group("10", 2, 10, "pair"))
    assert score.singles == ()
    assert score.lines() == ["Three 4s with your target: 40", "Pair of 10s: +10", "Total: 50"]


@pytest.mark.parametrize(
    "group, label, explanation",
    [
        (Group("J", 3, 20, "triple"), "Three Jacks", "Three Jacks: 2 × 10 = +20"),
        (Group("9", 2, 5, "pair"), "Pair of 9s", "Pair of 9s: +5"),
        (Group("3", 2, -15, "pair"), "Pair of 3s", "Pair of 3s: −15"),
        (Group("3", 3, -30, "triple"), "Three 3s", "Three 3s: 2 × −15 = −30"),
        (Group("A", 4, 60, "four"), "Four Aces", "Four Aces: 4 × 15 = +60"),
        (Group("4", 3, 40, "target-triple"), "Three 4s (target rank)", "Three 4s with your target: 40"),
        (Group("2", 4, 80, "target-four"), "Four 2s (target rank)",
         "Four 2s with your target: 80 (whatever the rank's value)"),
        (Group("4", 2, -15, "target-pair"), "Pair of 4s (target rank)",
         "Pair of 4s with your target: −15 (a normal pair)"),
    ],
)
def test_group_label_and_explanation(group, label, explanation):
    assert group.label == label
    assert group.explanation == explanation


def test_negative_total_uses_a_real_minus_sign():
    score = score_pile(parse_cards("2D 2H 5C 5S"), parse_card("KS"))
    assert score.lines()[-1] == "Total: −30"


def test_as_dict_is_plain_values():
    score = score_pile(parse_cards("4C 4D 10C 10D 7H"), parse_card("4S"))
    assert score.as_dict() == {
        "total": 50,
        "target_rank": "4",
        "groups": [
            {"rank": "4", "count": 3, "points": 40, "rule": "target-triple",
             "text": "Three 4s with your target: 40"},
            {"rank": "10", "count": 2, "points": 10, "rule": "pair", "text": "Pair of 10s: +10"},
        ],
        "singles": ["7"],
    }


@pytest.mark.parametrize(
    "counts, target, total",
    [
        ({"3": 2, "4": 1, "6": 1, "9": 2, "J": 3, "Q": 1, "A": 2}, "10", 25),
        ({"4": 2, "10": 2}, "4", 50),
        ({"2": 3}, "2", 80),
        ({"A": 4}, "K", 60),
        ({"7": 3}, "2", 10),
        ({"t": 2, "j": 0}, "a", 10),   # any form of rank is accepted; zero counts are fine
        ({}, "5", 0),
    ],
)
def test_score_counts(counts, target, total):
    assert score_counts(counts, target).total == total


def test_score_counts_lists_a_lone_target_as_a_single():
    score = score_counts({"J": 2}, "Q")
    assert score.singles == ("Q",)
    assert score.groups == (Group("J", 2, 10, "pair"),)


@pytest.mark.parametrize(
    "counts, target, message",
    [
        ({"J": 5}, "Q", "You cannot have 5 Jacks: there are only 4 in the deck"),
        ({"J": 4}, "J", "You cannot have 5 Jacks (4 won plus your target): there are only 4 in the deck"),
        ({"2": -1}, "Q", "A pile cannot hold −1 2s"),
        ({"10": 1, "T": 1}, "Q", "The 10s are counted twice ('10' and 'T')"),
        ({"J": 2.5}, "Q", "The number of Jacks must be a whole number, not 2.5"),
        ({"J": 2}, None, "There is no target card yet: every player sets one card aside as target"),
    ],
)
def test_score_counts_refuses_impossible_counts(counts, target, message):
    with pytest.raises(PileError) as caught:
        score_counts(counts, target)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "won, target, message",
    [
        ("JH 2C JH", "QS", "J♥ is in the pile twice"),
        ("JH JH JH", "QS", "J♥ is in the pile three times"),
        ("JH QS", "QS", "Your target Q♠ cannot also be in your won pile"),
        ("JH", None, "There is no target card yet: every player sets one card aside as target"),
    ],
)
def test_score_pile_refuses_impossible_piles(won, target, message):
    with pytest.raises(PileError) as caught:
        score_pile(parse_cards(won), target and parse_card(target))
    assert str(caught.value) == message


def test_score_pile_does_not_need_whole_tricks():
    assert score_pile(parse_cards("JH JS"), parse_card("2C")).total == 10


def test_score_pile_accepts_typed_cards():
    assert score_pile(["4c", "4d", "10C", "tD"], "4♠").total == 50


def test_pile_error_is_a_value_error():
    assert issubclass(PileError, ValueError)


def test_groups_are_sorted_low_to_high_whatever_the_order_of_the_cards():
    score = score_pile([Card("A", "S"), Card("A", "H"), Card("2", "S"), Card("2", "H")], Card("9", "C"))
    assert [group.rank for group in score.groups] == ["2", "A"]
