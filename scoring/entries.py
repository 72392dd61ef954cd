"""Hands as the app stores and passes them (dicts of mode, target, won cards, rank counts) turned
into the engine's values, scored and checked. Pure like the rest of the engine; the store, the
services and the restore checks all ask here."""
from functools import lru_cache

from .rounds import check_entry, entered_hand, left_out, score_hand
from .cards import parse_card

# The engine's values and scores of the hands seen last, per process: a tap changes one hand of
# four, and the round is checked and scored again around it. Both are immutable (frozen
# dataclasses of tuples), so one value can serve every request.
ENGINE_VALUES_KEPT = 4096


@lru_cache(maxsize=ENGINE_VALUES_KEPT)
def _engine_value(mode, target, won, counts):
    return entered_hand(mode, target, won, dict(counts))


_score = lru_cache(maxsize=ENGINE_VALUES_KEPT)(score_hand)


def engine_hand(hand):
    """A stored hand as the rule engine's value for its entry mode."""
    return _engine_value(hand["mode"], hand["target"], tuple(hand["won"]), tuple(hand["counts"].items()))


def hand_score(hand):
    """The engine's score and breakdown of a stored hand, or None until it can be scored."""
    return _score(engine_hand(hand))


def round_problems(entry, names, engine_hands=None):
    """Everything that keeps a stored round from being saved, in the engine's words
    (`engine_hands`: the hands' engine values, when the caller has them already)."""
    return check_entry(
        engine_hands or [engine_hand(hand) for hand in entry["hands"]], names,
        targets=[parse_card(hand["target"]) if hand["target"] else None for hand in entry["hands"]],
        bid_entered=entry["bid_number"] is not None,
    )


def round_left_out(entry, engine_hands=None):
    """The cards of a stored round that no entry holds, by rank: singles quick entry left out, if
    the table says so (see rounds.left_out)."""
    return left_out(engine_hands or [engine_hand(hand) for hand in entry["hands"]],
                    [parse_card(hand["target"]) if hand["target"] else None for hand in entry["hands"]])
