"""Club night: more players than one table, seated in tables of four stage after stage, and ranked
as one field (rule book, section "Club night").

Players are any hashable keys (the store uses player ids). A stage's seating lists each table's
four players in seat order, clockwise: seat 0 deals the table's first hand, and the player in seat
s + 1 sits on seat s's left, so bids after them.
"""

from .clock import MAX_CLOCK_MINUTES, MAX_ZONE_OFFSET_MINUTES, ClockError, clock_end, hands_at_time_up, minutes_left, time_is_up
from .draw import _splits, draw_anew, draw_by_standing, draw_seating, same_seating
from .ranking import Line, TableScore, per_hand_text, placement_points, rank_night
from .rules import (DRAW_AGAIN_TRIES, EXHAUSTIVE_LIMIT, FORMATS, LOOKAHEAD_LIMIT, LOOKAHEAD_OPTIONS, MAX_DOOR_ARRIVALS,
                    MAX_LOG_LINES, MAX_PLAYERS,
                    MAX_STAGE_HANDS, MAX_STAGES, MIN_PLAYERS, RANKING_NAMES, RANKINGS, RESTARTS, SEATING_NAMES, SEATINGS,
                    NightError, Record, Seating, check_format, check_present, check_seating, repeat_left_neighbours, repeat_meetings,
                    sit_out_count, swap)

__all__ = [
    "MAX_CLOCK_MINUTES", "MAX_ZONE_OFFSET_MINUTES", "ClockError", "clock_end", "hands_at_time_up", "minutes_left", "time_is_up",
    "draw_anew", "draw_by_standing", "draw_seating", "same_seating", "_splits", "Line", "TableScore", "per_hand_text",
    "placement_points", "rank_night",
    "DRAW_AGAIN_TRIES", "EXHAUSTIVE_LIMIT", "FORMATS", "LOOKAHEAD_LIMIT", "LOOKAHEAD_OPTIONS", "MAX_DOOR_ARRIVALS",
    "MAX_LOG_LINES", "MAX_PLAYERS",
    "MAX_STAGE_HANDS", "MAX_STAGES", "MIN_PLAYERS", "RANKING_NAMES", "RANKINGS", "RESTARTS", "SEATING_NAMES",
    "SEATINGS", "NightError", "Record", "Seating", "check_format", "check_present", "check_seating", "repeat_left_neighbours", "repeat_meetings",
    "sit_out_count", "swap",
]
