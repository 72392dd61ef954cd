"""What the history pages share: ids from the address, and the suits' names and symbols. (Dates,
times, rates and places in words are every page's: web/filters.py.)"""
from flask import abort

from scoring import SUIT_NAMES, SUIT_SYMBOLS

from . import bp

SQLITE_MAX_INT = 2**63 - 1


def real_id(value):
    """An id from the address, or a plain 404 when no row could ever have it."""
    if not 0 < value <= SQLITE_MAX_INT:
        abort(404)
    return value


@bp.context_processor
def suits():
    return {"suit_names": SUIT_NAMES, "suit_symbols": SUIT_SYMBOLS}
