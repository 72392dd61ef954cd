"""Numbers as Orchard shows them, rounded the way a table works them by hand: half away from zero
(25/4 to a tenth is 6.3, −5/2 is −2.5, 29 wins of 200 are 15 %), on the exact value. One rule for
every average, result and rate shown: a float's own rounding takes a half to the even tenth
(31.25 → 31.2), and 0.145 × 100 is 14.4999…, so neither is what a player gets on paper."""
from __future__ import annotations

from fractions import Fraction

from .piles import MINUS

# A float (SQL's avg, wins / games) is read back as the fraction it stands for: a count over a count
# of at most this many has exactly one fraction within a float's error of it.
_DENOMINATOR_MAX = 1_000_000


def _exact(value: Fraction | int | float) -> Fraction:
    exact = Fraction(value)
    return exact.limit_denominator(_DENOMINATOR_MAX) if isinstance(value, float) else exact


def _half_away(value: Fraction) -> int:
    """|value| rounded to a whole number, half up: the floor of |value| + ½."""
    return int(abs(value) + Fraction(1, 2))


def tenths(value: Fraction | int | float, whole_without_point: bool = False) -> str:
    """`value` to a tenth, half away from zero, with a real minus sign ("−6.3"), and no sign on a
    value that rounds to 0. `whole_without_point` leaves a whole number's ".0" out ("45", "24.5")."""
    exact = _exact(value)
    count = _half_away(exact * 10)
    sign = MINUS if exact < 0 and count else ""
    if whole_without_point and count % 10 == 0:
        return f"{sign}{count // 10}"
    return f"{sign}{count // 10}.{count % 10}"


def whole_percent(rate: Fraction | int | float) -> int:
    """A rate from 0 to 1 as a whole percent, half up: 29 of 200 is 15, 1 of 8 is 13."""
    return _half_away(_exact(rate) * 100)
