"""The stage clock (rule book, "Club night", "The stage clock"): the organiser may give a stage an
end time ("play until 21:30"). When it passes, each table finishes the hand it is in and its game
ends with the hands played; a table that has not finished a hand yet plays one. The per-hand
ranking already handles tables that played different numbers of hands.

Times here are aware datetimes; which zone the organiser's "21:30" is in is the caller's to say
(the phone's own, as it tells it).
"""

from __future__ import annotations

import datetime as dt

# The latest a clock may end, from when it is set: a long evening's stage, never a typo's next day.
MAX_CLOCK_MINUTES = 6 * 60
# The furthest a phone's time zone is from UTC (UTC−12 to UTC+14, with room to spare).
MAX_ZONE_OFFSET_MINUTES = 16 * 60


class ClockError(ValueError):
    """A stage clock that cannot be set, in words a player understands."""


def clock_end(hour: int, minute: int, now: dt.datetime) -> dt.datetime:
    """When "play until hour:minute" ends, said at `now` (aware, in the zone the organiser means):
    the next such time of day after now, so 00:15 said at 23:00 is tomorrow's. Refused when it is
    further off than MAX_CLOCK_MINUTES (a time already past, read as tomorrow's, is too)."""
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise ClockError("Enter a time of day, such as 21:30.")
    if now.tzinfo is None:
        raise ValueError("now must say its time zone")
    end = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if end <= now:
        end += dt.timedelta(days=1)
    if end - now > dt.timedelta(minutes=MAX_CLOCK_MINUTES):
        raise ClockError(f"A stage clock ends within {MAX_CLOCK_MINUTES // 60} hours of now: "
                         f"{hour:02d}:{minute:02d} is {_later(end - now)} away.")
    return end


def _later(span: dt.timedelta) -> str:
    minutes = int(span.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def minutes_left(end: dt.datetime, now: dt.datetime) -> int:
    """Whole minutes left on the clock, rounded up (a stage with 20 seconds left has 1 minute
    left), 0 once it has passed."""
    seconds = (end - now).total_seconds()
    return 0 if seconds <= 0 else int(-(-seconds // 60))


def time_is_up(end: dt.datetime | None, now: dt.datetime) -> bool:
    return end is not None and now >= end


def hands_at_time_up(saved: int, round_open: bool) -> int | None:
    """Once the clock has passed: the number of hands a table's game ends with now, or None while
    the table still plays (it is in a hand, which it finishes, or it has not finished one yet)."""
    if round_open or saved < 1:
        return None
    return saved
