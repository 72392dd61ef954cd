"""store/rounds.py keeps the engine's values and scores of the hands it saw last: a hand's score
always follows what the hand holds now, whatever was scored before."""
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RANKS, entered_hand, score_hand
from scoring.entries import engine_hand, hand_score
from support.profiles import examples


def quick(target, counts):
    return {"mode": "quick", "target": target, "won": [], "counts": counts}


def test_a_hand_changed_back_and_forth_scores_as_it_holds_now():
    hand = quick("7C", {"7": 2})
    first = hand_score(hand)
    assert first.total == 40  # three 7s with the target
    hand["counts"] = {"7": 3}
    assert hand_score(hand).total == 80
    hand["counts"] = {"7": 2}
    assert hand_score(hand) == first
    exact = {"mode": "exact", "target": "7C", "won": ["7D", "7H"], "counts": {}}
    assert hand_score(exact).total == 40
    exact["won"].append("7S")
    assert hand_score(exact).total == 80


@settings(max_examples=examples(200))
@given(st.sampled_from(RANKS), st.dictionaries(st.sampled_from(RANKS), st.integers(0, 4), max_size=6))
def test_kept_values_are_the_engine_s_own(rank, counts):
    hand = quick(rank + "S", counts)
    value = entered_hand("quick", rank + "S", (), counts)
    assert engine_hand(hand) == value
    assert hand_score(hand) == score_hand(value)
