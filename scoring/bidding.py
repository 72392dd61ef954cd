"""Bids, the auction that picks trump, and who deals and bids first each round (rule book, 1.1–1.2)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from .cards import SUIT_HINT, SUIT_NAMES, SUIT_SYMBOLS, SUITS, CardError, is_whole_number, parse_suit

MAX_BID = 13
_ALL_BIDS = MAX_BID * len(SUITS)
# The longest legal auction: three passes, then every one of the 52 bids with two passes
# between each and the next, then the three passes that end it.
MAX_AUCTION_CALLS = 3 + _ALL_BIDS + 2 * (_ALL_BIDS - 1) + 3
PASS_WORDS = ("pass", "p", "-")
_NUMBER_WORDS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
                 "Eleven", "Twelve", "Thirteen")


class BidError(ValueError):
    """A bid or call that the rules do not allow."""


@dataclass(frozen=True, order=True)
class Bid:
    """A bid, a number from 1 to 13 and a suit, ordered by strength as in the auction."""

    # Declared first so that order=True compares number, then suit in bidding order.
    _key: tuple[int, int] = field(init=False, repr=False)
    number: int
    suit: str

    def __post_init__(self) -> None:
        if not is_whole_number(self.number) or not 1 <= self.number <= MAX_BID:
            raise BidError(f"{self.number!r} cannot be bid: bids are numbers from 1 to {MAX_BID}")
        if self.suit not in SUITS:
            raise BidError(f"{self.suit!r} is not a suit ({SUIT_HINT})")
        object.__setattr__(self, "_key", (self.number, SUITS.index(self.suit)))

    @property
    def code(self) -> str:
        """The bid as plain text, such as "2S"."""
        return f"{self.number}{self.suit}"

    @property
    def name(self) -> str:
        """The bid in words, such as "Two Spades" or "One Heart"."""
        suit = SUIT_NAMES[self.suit]
        return f"{_NUMBER_WORDS[self.number - 1]} {suit[:-1] if self.number == 1 else suit}"

    def __str__(self) -> str:
        return f"{self.number}{SUIT_SYMBOLS[self.suit]}"


def parse_call(text: str | Bid | None) -> Bid | None:
    """The call in text such as "2S", "13d", "2♠" or "pass" (None stands for a pass)."""
    if text is None or isinstance(text, Bid):
        return text
    cleaned = str(text).strip()
    if cleaned.lower() in PASS_WORDS:
        return None
    match = re.fullmatch(r"(\d+)\s*(\S+)", cleaned)
    if match:
        try:
            suit = parse_suit(match.group(2))
        except CardError as error:
            raise BidError(f"{cleaned!r}: {error}") from None
        if 1 <= int(match.group(1)) <= MAX_BID:
            return Bid(int(match.group(1)), suit)
    raise BidError(f"{cleaned!r}: a bid is a number from 1 to {MAX_BID} and a suit, "
                   "such as 2S or 2♠, or pass")


def highest_bid(bids: Sequence[Bid | str | None]) -> int | None:
    """Index of the strongest bid among the calls (passes ignored), or None if nobody bid."""
    calls = [parse_call(call) for call in bids]
    made = [index for index, call in enumerate(calls) if call is not None]
    return max(made, key=lambda index: calls[index], default=None)


@dataclass(frozen=True)
class Auction:
    """Where an auction stands after its calls; offsets count from the round's first bidder."""

    calls: tuple[Bid | None, ...]
    highest: int | None
    over: bool
    redeal: bool
    next_caller: int | None
    # None once the auction is over, and also while 13♠ stands, when only passes remain.
    lowest_legal: Bid | None

    @property
    def winner_offset(self) -> int | None:
        """Offset from the first bidder of the player holding the highest bid."""
        return None if self.highest is None else self.highest % 4

    @property
    def winning_bid(self) -> Bid | None:
        """The highest bid so far, which names trump once the auction is over."""
        return None if self.highest is None else self.calls[self.highest]


def auction(calls: Sequence[Bid | str | None], min_bid: int = 1) -> Auction:
    """The state of an auction after these calls, refusing the first illegal one."""
    _check_min_bid(min_bid)
    state = _state((), min_bid)
    for call in calls:
        call = parse_call(call)
        error = _call_error(state, call, min_bid)
        if error:
            raise BidError(error)
        state = _state(state.calls + (call,), min_bid)
    return state


def legal_call_error(calls: Sequence[Bid | str | None], call: Bid | str | None,
                     min_bid: int = 1) -> str | None:
    """Why this call may not come next, or None if it may."""
    return _call_error(auction(calls, min_bid), parse_call(call), min_bid)


def is_legal_call(calls: Sequence[Bid | str | None], call: Bid | str | None, min_bid: int = 1) -> bool:
    """Whether this call may come next."""
    return legal_call_error(calls, call, min_bid) is None


def dealer_seat(first_dealer: int, round_number: int, redeals_before: int = 0,
                redeal_moves_deal: bool = False) -> int:
    """The dealer's seat (0–3, clockwise) for a round numbered from 1."""
    if first_dealer not in range(4):
        raise ValueError(f"Seats are numbered 0 to 3, not {first_dealer}")
    if round_number < 1:
        raise ValueError(f"Rounds are numbered from 1, not {round_number}")
    if redeals_before < 0:
        raise ValueError(f"The number of redeals cannot be negative ({redeals_before})")
    # The rule book keeps the dealer on a redeal; the house rule passes the deal on instead.
    moves = round_number - 1 + (redeals_before if redeal_moves_deal else 0)
    return (first_dealer + moves) % 4


def first_bidder_seat(dealer: int) -> int:
    """The seat that bids first: the dealer's left."""
    return (dealer + 1) % 4


def _state(calls: tuple[Bid | None, ...], min_bid: int) -> Auction:
    highest = highest_bid(calls)
    passes_after = len(calls) - 1 - highest if highest is not None else len(calls)
    redeal = highest is None and len(calls) >= 4
    over = redeal or (highest is not None and passes_after >= 3)
    if over:
        return Auction(calls, highest, True, redeal, None, None)
    lowest = Bid(min_bid, SUITS[0]) if highest is None else _next_stronger(calls[highest])
    return Auction(calls, highest, False, False, len(calls) % 4, lowest)


def _call_error(state: Auction, call: Bid | None, min_bid: int) -> str | None:
    if state.redeal:
        return "Everybody passed, so the cards are thrown in and redealt: no more calls"
    if state.over:
        return f"The auction is over: {state.winning_bid} won it after three passes, so no more calls"
    if call is None:
        return None
    if call.number < min_bid:
        return f"{call} is below the house minimum: bids start at {min_bid}"
    if state.highest is not None and call <= state.winning_bid:
        return f"{call} does not beat {state.winning_bid}"
    return None


def _next_stronger(bid: Bid) -> Bid | None:
    """The weakest bid that beats this one; None above Thirteen Spades."""
    suit_index = SUITS.index(bid.suit)
    if suit_index + 1 < len(SUITS):
        return Bid(bid.number, SUITS[suit_index + 1])
    return Bid(bid.number + 1, SUITS[0]) if bid.number < MAX_BID else None


def _check_min_bid(min_bid: int) -> None:
    if not 1 <= min_bid <= MAX_BID:
        raise BidError(f"The lowest allowed bid must be from 1 to {MAX_BID}, not {min_bid}")
