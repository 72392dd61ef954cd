"""A number as Orchard shows it to a tenth: rounded the way a table works it by hand, half away from
zero (25/4 is 6.3, −5/2 is −2.5), on the exact value. One rule for every average and result shown:
a float's own rounding takes a half to the even tenth (31.25 → 31.2), which no player does."""
from __future__ import annotations

from fractions import Fraction

from .piles import MINUS

# A float average (SQL's avg) is read back as the fraction it stands for: a sum over a count of at
# most this many has exactly one fraction within a float's error of it.
_DENOMINATOR_MAX = 1_000_000


def tenths(value: Fraction | int | float, whole_without_point: bool = False) -> str:
    """`value` to a tenth, half away from zero, with a real minus sign ("−6.3"), and no sign on a
    value that rounds to 0. `whole_without_point` leaves a whole number's ".0" out ("45", "24.5")."""
    exact = Fraction(value)
    if isinstance(value, float):
        exact = exact.limit_denominator(_DENOMINATOR_MAX)
    count = int(abs(exact) * 10 + Fraction(1, 2))  # floor of |value| × 10 + ½
    sign = MINUS if exact < 0 and count else ""
    if whole_without_point and count % 10 == 0:
        return f"{sign}{count // 10}"
    return f"{sign}{count // 10}.{count % 10}"
