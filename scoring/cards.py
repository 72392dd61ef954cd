"""Cards of the 52-card French deck: ranks, suits, values and parsing of what players type."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("D", "H", "C", "S")  # weakest to strongest, the bidding order
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"D": "Diamonds", "H": "Hearts", "C": "Clubs", "S": "Spades"}
RANK_NAMES = {
    **{rank: rank for rank in RANKS[:9]},
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
}

RANK_HINT = "use 2–10, J, Q, K, A"
SUIT_HINT = "use C, D, H, S or ♣ ♦ ♥ ♠"

_RANK_ALIASES = {"T": "10"}
# Outline symbols are accepted because some phone keyboards offer only those.
_SUIT_ALIASES = {
    **{suit: suit for suit in SUITS},
    **{symbol: suit for suit, symbol in SUIT_SYMBOLS.items()},
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
_SUIT_WORDS = {name.upper(): suit for suit, name in SUIT_NAMES.items()}
_VALUES = {"2": -15, "3": -15, "4": -15, "5": -15, "6": 5, "7": 5, "8": 5, "9": 5,
           "10": 10, "J": 10, "Q": 10, "K": 10, "A": 15}


class CardError(ValueError):
    """Text or values that do not name a card, rank or suit."""


@dataclass(frozen=True, order=True)
class Card:
    """One card, ordered by rank and then by suit in bidding order."""

    # Declared first so that order=True compares rank and suit by strength, not as text.
    _key: tuple[int, int] = field(init=False, repr=False)
    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise CardError(f"{self.rank!r} is not a rank ({RANK_HINT})")
        if self.suit not in SUITS:
            raise CardError(f"{self.suit!r} is not a suit ({SUIT_HINT})")
        object.__setattr__(self, "_key", (RANKS.index(self.rank), SUITS.index(self.suit)))

    @property
    def code(self) -> str:
        """The card as plain letters, such as "10S" or "JH"."""
        return self.rank + self.suit

    @property
    def rank_index(self) -> int:
        """Position of the rank from 0 (the 2) to 12 (the Ace)."""
        return self._key[0]

    @property
    def name(self) -> str:
        """The card in words, such as "Jack of Hearts"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.rank + SUIT_SYMBOLS[self.suit]


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)
CARD_CODES = frozenset(card.code for card in DECK)  # every card as stored: "10S", "JH", "2D"
_BY_CODE = {card.code: card for card in DECK}
_CANONICAL_RANKS = frozenset(RANKS)


def rank_name(rank: str, plural: bool = False) -> str:
    """The rank in words, such as "Jack", "Jacks", "10" or "10s"."""
    name = RANK_NAMES[parse_rank(rank)]
    return name + "s" if plural else name


def a_rank(rank: str) -> str:
    """The rank with its article, as in "an Ace", "an 8", "a King"."""
    name = rank_name(rank)
    return ("an " if name[0] in "A8" else "a ") + name


def rank_value(rank: str) -> int:
    """The rank's value from the rule book's table (a pair scores this much)."""
    return _VALUES[parse_rank(rank)]


def parse_rank(text: str) -> str:
    """The canonical rank for what a player typed, such as "10" for "t"."""
    if isinstance(text, str) and text in _CANONICAL_RANKS:
        return text  # the stored form, read back many times (a restore reads thousands of rounds)
    cleaned = str(text).strip().upper()
    if not cleaned:
        raise CardError(f"{text!r} is not a rank: it is empty")
    cleaned = _RANK_ALIASES.get(cleaned, cleaned)
    if cleaned not in RANKS:
        raise CardError(f"{str(text).strip()!r} is not a rank ({RANK_HINT})")
    return cleaned


def parse_suit(text: str) -> str:
    """The canonical suit letter for a letter, a symbol or a suit's name."""
    cleaned = str(text).strip().upper()
    suit = _SUIT_ALIASES.get(cleaned) or _SUIT_WORDS.get(cleaned) or _SUIT_WORDS.get(cleaned + "S")
    if suit is None:
        raise CardError(f"{str(text).strip()!r} is not a suit ({SUIT_HINT})")
    return suit


def parse_card(text: str | Card) -> Card:
    """The card for text such as "10S", "ts", "10♠" or " q♥ "."""
    if isinstance(text, Card):
        return text
    if isinstance(text, str) and text in _BY_CODE:
        return _BY_CODE[text]  # the stored form, as Card.code writes it
    cleaned = str(text).strip()
    if not cleaned:
        raise _not_a_card(text, "it is empty")
    rank_part, suit_part = cleaned[:-1], cleaned[-1]
    rank = _try(parse_rank, rank_part)
    suit = _try(parse_suit, suit_part)
    if rank and suit:
        return Card(rank, suit)
    if _try(parse_rank, cleaned):
        raise CardError(f"{cleaned!r} has no suit")
    if suit and not rank_part:
        raise _not_a_card(cleaned, "it has no rank")
    if suit:
        raise _not_a_card(cleaned, f"{rank_part!r} is not a rank ({RANK_HINT})")
    if rank:
        raise _not_a_card(cleaned, f"{suit_part!r} is not a suit ({SUIT_HINT})")
    raise _not_a_card(cleaned, f"write a rank and a suit, such as 10S or Q♥ ({RANK_HINT}; {SUIT_HINT})")


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """The cards in a text separated by spaces or commas, or in a list of texts and cards."""
    if isinstance(cards, str):
        cards = [part for part in re.split(r"[\s,]+", cards) if part]
    return tuple(parse_card(card) for card in cards)


def is_whole_number(value) -> bool:
    """Whether a value is an int, refusing True and False, which Python also counts as ints."""
    return isinstance(value, int) and not isinstance(value, bool)


def _try(parse, text: str):
    try:
        return parse(text)
    except CardError:
        return None


def _not_a_card(text: str, why: str) -> CardError:
    return CardError(f"{text!r} is not a card: {why}")
