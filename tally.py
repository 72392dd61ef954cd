"""The bridge between what is stored and the rule engine: stored rows in, engine answers out."""
from dataclasses import dataclass

from scoring import (
    Bid,
    HouseRules,
    Hand,
    PileError,
    Problem,
    QuickHand,
    check_quick_round,
    check_round,
    dealer_seat,
    first_bidder_seat,
    game_result,
    parse_card,
    running_totals,
    score_counts,
    score_pile,
)

# Problems a single tap may not create: the deck has each card once and four of each rank.
_REFUSED_ON_TAP = {"duplicate", "target-in-pile", "too-many-of-rank", "bad-count"}


def engine_hand(mode, hand):
    """A stored hand as the engine's value for the round's entry mode."""
    target = parse_card(hand["target"]) if hand["target"] else None
    if mode == "exact":
        return Hand(target, tuple(parse_card(code) for code in hand["won"]))
    return QuickHand.from_counts(target.rank if target else None, hand["counts"])


def engine_hands(entry):
    return [engine_hand(entry["mode"], hand) for hand in entry["hands"]]


def pile_score(mode, hand):
    """The engine's score and breakdown for one stored hand, or None until it can be scored."""
    value = engine_hand(mode, hand)
    try:
        if mode == "exact":
            return score_pile(value.won, value.target)
        return score_counts(dict(value.counts), value.target_rank)
    except PileError:
        return None


def problems(entry, names):
    """Everything that keeps a round from being saved, in the engine's words."""
    found = []
    if entry["bid_number"] is None:
        found.append(Problem("missing-bid", "The bid is not entered yet.", ()))
    hands = engine_hands(entry)
    found += check_round(hands, names) if entry["mode"] == "exact" else check_quick_round(hands, names)
    return found


def refused_change(before, after, names, seat, hidden=()):
    """The engine's reason to refuse a tap that turns `before` into `after`, or None.

    A card already in another pile or used as a target cannot be taken twice, and no pile holds
    five of a rank. Cross-table rank counts in quick mode are only reported, since a table
    fixing a mistake moves counts in any order.
    """
    old = {problem.message for problem in problems(before, names)}
    for problem in problems(after, names):
        if problem.message in old or problem.kind not in _REFUSED_ON_TAP:
            continue
        if after["mode"] == "quick" and problem.seats != (seat,):
            continue
        return _already_held(before, problem, names, hidden) or problem.message
    return None


def _already_held(before, problem, names, hidden):
    """Say where a refused card already is, which reads better than the state it would create;
    a hand entered in private on another phone is not named."""
    for card in problem.cards:
        for hand in before["hands"]:
            owner = "another player's" if hand["seat"] in hidden else f"{names[hand['seat']]}'s"
            if hand["target"] == card.code:
                return f"{card} is already {owner} target card."
            if card.code in hand["won"]:
                return f"{card} is already in {owner} pile."
    return None


def scores_to_save(entry):
    """The four scores of a round that passed its check."""
    return [pile_score(entry["mode"], hand).total for hand in entry["hands"]]


@dataclass(frozen=True)
class Standing:
    """Where a game stands after its saved rounds."""

    totals: tuple
    running: list
    result: object
    next_number: int
    next_dealer: int
    next_first_bidder: int
    to_goal: tuple
    order: tuple  # seats from the highest total down


def standing(game, saved_rounds):
    """Totals, the engine's verdict and who deals next, from the saved rounds."""
    scores = [row["scores"] for row in saved_rounds]
    result = game_result(scores, house_rules(game))
    next_number = len(saved_rounds) + 1
    dealer = next_dealer(game, saved_rounds)
    return Standing(
        totals=result.totals,
        running=running_totals(scores),
        result=result,
        next_number=next_number,
        next_dealer=dealer,
        next_first_bidder=first_bidder_seat(dealer),
        to_goal=tuple(max(game["goal"] - total, 0) for total in result.totals),
        order=tuple(sorted(range(len(result.totals)), key=lambda seat: -result.totals[seat])),
    )


def house_rules(row):
    """The house rules stored on a crew or game row, as the engine's value."""
    return HouseRules(
        goal=row["goal"],
        tie_rule=row["tie_rule"],
        min_bid=row["min_bid"],
        redeal_moves_deal=bool(row["redeal_moves_deal"]),
    )


def next_dealer(game, saved_rounds):
    return dealer_for(game, len(saved_rounds) + 1, sum(row["redeals"] or 0 for row in saved_rounds))


def dealer_for(game, number, redeals_so_far):
    """Who deals round `number` after `redeals_so_far` redeals in the game (this round's included)."""
    return dealer_seat(
        game["first_dealer"],
        number,
        redeals_before=redeals_so_far,
        redeal_moves_deal=house_rules(game).redeal_moves_deal,
    )


def bid_of(entry):
    """The round's winning bid as the engine's value, or None before it is entered."""
    if entry["bid_number"] is None:
        return None
    return Bid(entry["bid_number"], entry["bid_suit"])


def leader_seat(entry):
    """The bid winner leads the first trick."""
    return entry["bid_seat"]


def dealer_and_first_bidder(entry):
    return entry["dealer"], first_bidder_seat(entry["dealer"])
