"""The template filters every page may use, registered on the app (`init_app`): points, dates and
times as the table reads them, rates, places, cards and ranks in words, and a logged change of a
round or a night in words. A filter one feature alone uses stays with its blueprint."""
import datetime

from scoring import RANKS, format_points, parse_cards, rank_name
from scoring.cards import a_rank
from scoring.rounding import tenths, whole_percent

from .club_night_changes import night_change_words
from .round_changes import change_words


def local(stamp):
    """A stored UTC time in the server's time zone (the same one the night rule uses)."""
    return datetime.datetime.fromisoformat(stamp).astimezone()


def night_date(day):
    """A local date (2026-03-12) or a stored time as its local date, as "Thu 12 Mar 2026"."""
    if isinstance(day, str):
        day = local(day).date() if "T" in day else datetime.date.fromisoformat(day)
    return f"{day:%a} {day.day} {day:%b %Y}"


def short_date(stamp):
    """A stored time as its local date, short: "12 Mar 26"."""
    when = local(stamp)
    return f"{when.day} {when:%b %y}"


def clock(stamp):
    """A stored time as the local time of day, "19:30"."""
    return f"{local(stamp):%H:%M}"


def day_clock(stamp):
    """A stored time as a local day and time, "12 Mar 19:30" (the phone shows its own, see
    static/local-time.js)."""
    moment = local(stamp)
    return f"{moment.day} {moment:%b %H:%M}"


def percent(rate):
    return "—" if rate is None else f"{whole_percent(rate)}%"  # half up: 62.5% shows as 63%, 14.5% as 15%


def average(value):
    """An average to one decimal, without a needless ".0", with a real minus sign: 45, 24.5, −7.3."""
    return "—" if value is None else tenths(value, whole_without_point=True)


def place(n):
    """A place in words: 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd, 101st; "—" for none."""
    if not n:
        return "—"
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def of_rank(n, rank):
    """Cards of one rank in words: "a Queen", "two 6s" (the cards a quick entry left out)."""
    return a_rank(rank) if n == 1 else f"{('two', 'three', 'four')[n - 2]} {rank_name(rank, plural=True)}"


FILTERS = {
    "points": format_points,
    "change": change_words,  # a round's logged change, worded from its facts
    "night_change": night_change_words,  # a club night's, likewise
    # Won cards as a player sorts them: 2 … 10, J, Q, K, A (and suits in bidding order).
    "in_rank_order": lambda codes: [card.code for card in sorted(parse_cards(codes))],
    "counts_in_rank_order": lambda counts: [(rank, counts[rank]) for rank in RANKS if counts.get(rank)],
    "of_rank": of_rank,
    "rank_word": rank_name,
    "rank_single": a_rank,
    "night_date": night_date, "short_date": short_date, "clock": clock, "day_clock": day_clock,
    "percent": percent, "average": average, "place": place,
}


def init_app(app):
    for name, function in FILTERS.items():
        app.add_template_filter(function, name)
