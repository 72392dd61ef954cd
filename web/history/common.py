"""What the history pages share: ids from the address, dates and times as the table reads
them, and rates."""
import datetime

from flask import abort

from scoring import SUIT_NAMES, SUIT_SYMBOLS

from . import bp

SQLITE_MAX_INT = 2**63 - 1


def real_id(value):
    """An id from the address, or a plain 404 when no row could ever have it."""
    if not 0 < value <= SQLITE_MAX_INT:
        abort(404)
    return value


def local(stamp):
    """A stored UTC time in the server's time zone (the same one the night rule uses)."""
    return datetime.datetime.fromisoformat(stamp).astimezone()


@bp.app_template_filter("night_date")
def night_date(day):
    """A local date (2026-03-12) or a stored time as its local date, as "Thu 12 Mar 2026"."""
    if isinstance(day, str):
        day = local(day).date() if "T" in day else datetime.date.fromisoformat(day)
    date = day
    return f"{date:%a} {date.day} {date:%b %Y}"


@bp.app_template_filter("short_date")
def short_date(stamp):
    """A stored time as its local date, short: "12 Mar 26"."""
    when = local(stamp)
    return f"{when.day} {when:%b %y}"


@bp.app_template_filter("clock")
def clock(stamp):
    """A stored time as the local time of day, "19:30"."""
    return f"{local(stamp):%H:%M}"


@bp.app_template_filter("day_clock")
def day_clock(stamp):
    """A stored time as a local day and time, "12 Mar 19:30" (the phone shows its own, see
    static/local-time.js)."""
    moment = local(stamp)
    return f"{moment.day} {moment:%b %H:%M}"


@bp.app_template_filter("percent")
def percent(rate):
    return "—" if rate is None else f"{int(rate * 100 + 0.5)}%"  # half up: 62.5% shows as 63%


@bp.app_template_filter("average")
def average(value):
    """An average to one decimal, without a needless ".0", with a real minus sign: 45, 24.5, −7.3."""
    if value is None:
        return "—"
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text.replace("-", "−")


@bp.app_template_filter("place")
def place(n):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th") if n else "—"


@bp.context_processor
def suits():
    return {"suit_names": SUIT_NAMES, "suit_symbols": SUIT_SYMBOLS}
