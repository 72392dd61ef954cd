"""Where a game stands after its saved rounds: totals, the verdict, and who deals next."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .bidding import dealer_seat, first_bidder_seat
from .game import GameResult, HouseRules, result_of, running_totals
from .rounds import PLAYERS


@dataclass(frozen=True)
class Standing:
    """Where a game stands after its saved rounds."""

    totals: tuple[int, ...]
    running: list
    result: GameResult
    next_number: int
    next_dealer: int
    next_first_bidder: int
    to_goal: tuple[int, ...]
    order: tuple[int, ...]  # seats from the highest total down


def standing(round_scores: Sequence[Sequence[int]], redeals: int, first_dealer: int,
             rules: HouseRules = HouseRules()) -> Standing:
    """Totals, the engine's verdict and who deals next, from the saved rounds' scores and the
    number of redeals they took."""
    running = running_totals(round_scores)
    result = result_of(running, rules)
    next_number = len(round_scores) + 1
    dealer = round_dealer(first_dealer, next_number, redeals, rules)
    return Standing(
        totals=result.totals,
        running=running,
        result=result,
        next_number=next_number,
        next_dealer=dealer,
        next_first_bidder=first_bidder_seat(dealer),
        to_goal=tuple(max(rules.goal - total, 0) for total in result.totals),
        order=tuple(sorted(range(len(result.totals)), key=lambda seat: -result.totals[seat])),
    )


def round_dealer(first_dealer: int, number: int, redeals_so_far: int, rules: HouseRules = HouseRules()) -> int:
    """Who deals round `number` after `redeals_so_far` redeals in the game (this round's included)."""
    return dealer_seat(first_dealer, number, redeals_before=redeals_so_far,
                       redeal_moves_deal=rules.redeal_moves_deal)


def rematch_first_dealer(first_dealer: int) -> int:
    """A rematch moves the first deal on one seat, clockwise."""
    return (first_dealer + 1) % PLAYERS
