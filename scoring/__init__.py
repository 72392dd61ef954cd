"""Orchard's rule engine for Apples: cards, pile scores, round checks, bidding, tricks and game end."""

from .bidding import (
    MAX_AUCTION_CALLS,
    Auction,
    Bid,
    BidError,
    auction,
    dealer_seat,
    first_bidder_seat,
    highest_bid,
    is_legal_call,
    legal_call_error,
    parse_call,
)
from .cards import (
    DECK,
    RANK_NAMES,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardError,
    parse_card,
    parse_cards,
    parse_rank,
    parse_suit,
    rank_name,
    rank_value,
)
from .game import MAX_GOAL, GameError, GameResult, HouseRules, game_result, running_totals
from .piles import MAX_PILE_CARDS, Group, PileError, PileScore, format_points, score_counts, score_pile
from .rounds import Hand, Problem, QuickHand, check_quick_round, check_round, parse_hand, score_round
from .tricks import TrickError, TrickResult, trick_winner

__all__ = [
    "MAX_AUCTION_CALLS", "Auction", "Bid", "BidError", "auction", "dealer_seat", "first_bidder_seat", "highest_bid",
    "is_legal_call", "legal_call_error", "parse_call",
    "DECK", "RANK_NAMES", "RANKS", "SUIT_NAMES", "SUIT_SYMBOLS", "SUITS", "Card", "CardError",
    "parse_card", "parse_cards", "parse_rank", "parse_suit", "rank_name", "rank_value",
    "MAX_GOAL", "GameError", "GameResult", "HouseRules", "game_result", "running_totals",
    "MAX_PILE_CARDS", "Group", "PileError", "PileScore", "format_points", "score_counts", "score_pile",
    "Hand", "Problem", "QuickHand", "check_quick_round", "check_round", "parse_hand", "score_round",
    "TrickError", "TrickResult", "trick_winner",
]
