"""The words every page uses for places, dates and rates (web/filters.py)."""
from web.filters import average, percent, place


def test_a_place_is_said_as_players_say_it_past_the_first_twenty():
    """A season of 200 players has a 21st and a 102nd (the filter said "21th" and "102th")."""
    assert [place(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 102, 111, 112, 0, None)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "102nd", "111th",
        "112th", "—", "—"]


def test_an_average_is_rounded_as_a_table_works_it_half_away_from_zero():
    """A player's average round of 97 points over 4 rounds is 24.25: the page said 24.2 (a float's
    rounding takes a half to the even tenth), a table working it by hand says 24.3."""
    assert [average(v) for v in (97 / 4, 24.5, 45.0, -29 / 4, -0.04, 0.05, 2 / 3, None)] == [
        "24.3", "24.5", "45", "−7.3", "0", "0.1", "0.7", "—"]


def test_a_win_rate_is_rounded_half_up_on_its_exact_value():
    """29 wins of 200 games are 14.5 %: the page said 14 % (0.145 × 100 is 14.4999… as a float)."""
    assert [percent(r) for r in (29 / 200, 57 / 200, 1 / 8, 0.0, 1.0, None)] == ["15%", "29%", "13%", "0%", "100%", "—"]
