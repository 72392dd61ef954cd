"""Every average, result and rate Orchard shows is rounded by one rule (scoring/rounding.py): half
away from zero, on the exact value, as a table works it by hand."""
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.rounding import tenths, whole_percent


def by_hand(value):
    """The decimal a person writes for `value`: to a tenth, half away from zero (Decimal's HALF_UP)."""
    with localcontext() as context:
        context.prec = 60
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        shown = exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    text = f"{abs(shown):.1f}"
    return ("−" if shown < 0 else "") + text


@given(st.integers(-10**6, 10**6), st.integers(1, 10**4))
def test_a_fraction_is_shown_as_a_person_rounds_it(top, bottom):
    assert tenths(Fraction(top, bottom)) == by_hand(Fraction(top, bottom))


@given(st.integers(-10**6, 10**6), st.integers(1, 10**4))
def test_a_float_average_of_whole_points_is_shown_as_its_exact_fraction(total, count):
    """SQL's avg() hands back a float: 97 / 4 is 24.25 exactly, 0.15 is not, and both must round up."""
    assert tenths(total / count) == tenths(Fraction(total, count))


def test_whole_numbers_can_leave_their_point_out():
    assert [tenths(v, whole_without_point=True) for v in (45, Fraction(1999, 20), Fraction(-1, 21), 24.5)] == [
        "45", "100", "0", "24.5"]


@given(st.integers(0, 10**4), st.integers(1, 10**4))
def test_a_rate_is_a_whole_percent_rounded_half_up_on_its_exact_value(wins, games):
    """29 wins of 200 are 14.5 %: shown as 15 % (0.145 × 100 is 14.4999… as a float: it showed 14 %)."""
    exact = Fraction(wins, games) * 100
    assert whole_percent(wins / games) == int(exact + Fraction(1, 2))


def test_the_rates_a_history_page_shows():
    assert [whole_percent(r) for r in (29 / 200, 57 / 200, 1 / 8, 5 / 8, 0, 1)] == [15, 29, 13, 63, 0, 100]
