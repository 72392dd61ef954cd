"""The tools index and the rule book in the app, its examples computed by the engine."""
from web.access import CREW, PUBLIC, TABLE, allow
from collections import Counter


from services.games import house_rules
from scoring import (
    RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, HouseRules, auction, game_result, legal_call_error, parse_call, parse_card,
    rank_value, score_counts, trick_winner,
)
from services import games as game_service

from ..lookup import load_crew
from ..render import render

from . import bp


@bp.get("/c/<token>/tools/")
@allow(CREW, TABLE)
def tools_index(token):
    crew = load_crew(token)
    return render("tools/index.html", crew=crew, recent=game_service.latest_saved(crew["id"]))


# The rule book's worked examples (RULES.md, section 2): target rank and won ranks. The scores
# and their explanations are the engine's, computed on every view.
EXAMPLES = (
    ("10", "3 3 4 6 9 9 J J J Q A A", "The rule book’s first example"),
    ("4", "4 4 10 10", "The target makes the triple"),
    ("2", "2 2 2", "Four of the target’s rank, even of 2s"),
    ("K", "A A A A", "Four Aces, the target not an Ace (a King here)"),
    ("Q", "7 7 7", "Three 7s, the target another rank (a Queen here)"),
)
TRICK_EXAMPLES = (
    ("4H KH 2S AH", "S"),
    ("9D KD AS 2D", "H"),
    ("5C 3S QC JS", "S"),
)
BID_EXAMPLES = (
    (["2S"], "3D"),
    (["3D"], "2C"),
    (["2H"], "2C"),
)


def _other_rank(rank):
    """Some rank that is not this one, to stand as a target that plays no part."""
    return RANKS[-1] if rank != RANKS[-1] else RANKS[-2]


def _rules_context(crew):
    rules = house_rules(crew) if crew else HouseRules()
    values = {}
    for rank in RANKS:
        values.setdefault(rank_value(rank), []).append(rank)
    value_rows = [
        {"ranks": ranks, "value": value,
         "points": [score_counts({ranks[0]: n}, _other_rank(ranks[0])).total for n in (2, 3, 4)]}
        for value, ranks in values.items()
    ]
    examples = []
    for target, won, title in EXAMPLES:
        score = score_counts(Counter(won.split()), target)
        examples.append({"title": title, "target": target, "won": won.split(), "score": score})
    low = RANKS[0]
    target_bonus = {
        "rank": low,
        "triple": score_counts({low: 2}, low).total,
        "plain_triple": score_counts({low: 3}, _other_rank(low)).total,
        "four": score_counts({low: 3}, low).total,
        "plain_four": score_counts({low: 4}, _other_rank(low)).total,
    }
    tricks = [{"cards": [parse_card(c) for c in cards.split()], "trump": trump,
               "result": trick_winner(cards.split(), trump)} for cards, trump in TRICK_EXAMPLES]
    # The examples open with Two Spades: a crew whose bids start higher sees them worked under the
    # rule book's lowest bid, and the page says so (they were an error page for it).
    example_min = rules.min_bid if rules.min_bid <= 2 else HouseRules().min_bid
    bids = [{"calls": [parse_call(c) for c in calls], "call": parse_call(call),
             "error": legal_call_error(calls, call, example_min)} for calls, call in BID_EXAMPLES]
    after_two_spades = auction(["2S"], example_min).lowest_legal
    redeal = auction([None] * 4, rules.min_bid)
    over = auction(["2S", None, None, None], example_min)
    # End of game, worked by the engine: a tie just past the crew's goal, the others below the
    # leaders whatever the goal (a short game's too), then one more round when the tie plays on.
    lead = rules.goal + 5
    tie_round = (lead, lead, *((100, 40) if lead > 100 else (lead // 10 * 5, lead // 25 * 5)))
    next_round = (10, 0, 20, 0)
    tied = game_result([tie_round], rules)
    settled = None if tied.over else game_result([tie_round, next_round], rules)
    return {
        "crew": crew, "rules": rules, "book": HouseRules(), "value_rows": value_rows,
        "examples": examples, "target_bonus": target_bonus, "tricks": tricks, "bids": bids,
        "suits": SUITS, "suit_names": SUIT_NAMES, "suit_symbols": SUIT_SYMBOLS, "example_min": example_min,
        "after_two_spades": after_two_spades, "redeal": redeal, "over": over,
        "tie_round": tie_round, "next_round": next_round, "tied": tied, "settled": settled,
        "seat_names": ("Ann", "Ben", "Cleo", "Dan"),
    }


@bp.get("/c/<token>/tools/rules")
@allow(CREW, TABLE)
def rules_show(token):
    return render("tools/rules.html", **_rules_context(load_crew(token)))


@bp.get("/rules")
@allow(PUBLIC)
def rules_public():
    return render("tools/rules.html", **_rules_context(None))
