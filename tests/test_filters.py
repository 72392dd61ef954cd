"""The words every page uses for places, dates and rates (web/filters.py)."""
from web.filters import place


def test_a_place_is_said_as_players_say_it_past_the_first_twenty():
    """A season of 200 players has a 21st and a 102nd (the filter said "21th" and "102th")."""
    assert [place(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 102, 111, 112, 0, None)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "102nd", "111th",
        "112th", "—", "—"]
