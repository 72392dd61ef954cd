"""Who wins a trick (rule book, 1.5): the highest trump, or else the highest card of the suit led."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from .cards import SUIT_SYMBOLS, Card, CardError, parse_cards, parse_suit


class TrickError(ValueError):
    """Cards or a trump suit that cannot make a trick."""


@dataclass(frozen=True)
class TrickResult:
    """The winning card, its index in play order, and why it wins."""

    winner: int
    card: Card
    reason: str


def trick_winner(cards: Sequence[Card | str], trump: str) -> TrickResult:
    """The winner of a trick given its cards in play order, the first card being the one led."""
    try:
        trump = parse_suit(trump)
        cards = parse_cards(cards)
    except CardError as error:
        raise TrickError(str(error)) from None
    if not 1 <= len(cards) <= 4:
        raise TrickError(f"A trick has 1 to 4 cards, not {len(cards)}")
    repeated = [card for card, n in Counter(cards).items() if n > 1]
    if repeated:
        raise TrickError(f"{repeated[0]} is played twice in one trick")
    trumps = [card for card in cards if card.suit == trump]
    if trumps:
        best = max(trumps, key=lambda card: card.rank_index)
        reason = "the only trump" if len(trumps) == 1 else "the highest trump"
    else:
        led = cards[0].suit
        # Off-suit cards cannot win, however high, so only the suit led is compared.
        best = max((card for card in cards if card.suit == led), key=lambda card: card.rank_index)
        reason = f"highest of the suit led ({SUIT_SYMBOLS[led]}); no trump was played"
    return TrickResult(cards.index(best), best, reason)
