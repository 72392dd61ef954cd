"""Orchard's rule engine for Apples: cards, pile scores, round checks, bidding, tricks and game end."""

from .bidding import (
    MAX_AUCTION_CALLS,
    MAX_BID,
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
    CARD_CODES,
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
from .highlights import COMEBACK_MIN, Highlight, highlight
from .game import MAX_GOAL, GameError, GameResult, HouseRules, game_result, running_totals
from .piles import MAX_PILE_CARDS, Group, PileError, PileScore, format_points, score_counts, score_pile
from .limits import NAME_MAX, NOTE_MAX, ROUNDS_MAX, SCOREBOARD_ROUNDS, YEARS
from .rounds import (MODES, PLAYERS, Hand, Problem, QuickHand, check_entry, check_quick_round, check_round,
                     entered_hand, left_out, parse_hand, quick_counts, quick_from_exact, score_hand,
                     score_round)
from .standing import Standing, rematch_first_dealer, round_dealer, standing
from .tricks import TrickError, TrickResult, trick_winner

__all__ = [
    "MAX_AUCTION_CALLS", "Auction", "Bid", "BidError", "auction", "dealer_seat", "first_bidder_seat", "highest_bid",
    "is_legal_call", "legal_call_error", "parse_call",
    "CARD_CODES", "DECK", "RANK_NAMES", "RANKS", "SUIT_NAMES", "SUIT_SYMBOLS", "SUITS", "Card", "CardError",
    "parse_card", "parse_cards", "parse_rank", "parse_suit", "rank_name", "rank_value",
    "COMEBACK_MIN", "Highlight", "highlight",
    "MAX_GOAL", "GameError", "GameResult", "HouseRules", "game_result", "running_totals",
    "MAX_PILE_CARDS", "Group", "PileError", "PileScore", "format_points", "score_counts", "score_pile",
    "MODES", "PLAYERS", "Hand", "Problem", "QuickHand", "check_entry", "check_quick_round", "check_round",
    "parse_hand", "quick_from_exact", "left_out", "quick_counts", "score_round", "entered_hand", "score_hand", "NAME_MAX", "NOTE_MAX", "ROUNDS_MAX", "SCOREBOARD_ROUNDS", "YEARS",
    "Standing", "rematch_first_dealer", "round_dealer", "standing", "MAX_BID",
    "TrickError", "TrickResult", "trick_winner",
]
