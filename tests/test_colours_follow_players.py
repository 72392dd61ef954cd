"""A player keeps one colour everywhere in a crew (issue 43, item 9): Ann is the same colour, with
the same shape, on the scoreboard, the round's tabs, the game's record and its chart, whichever
seat she takes; two players at one game never share one."""
import re

from hypothesis import given
from hypothesis import strategies as st

from support.html_text import select
from web.colours import PALETTE, seat_colours


def colour_of(html, css, name):
    """The colour class of the element matching `css` that names `name`."""
    for element in select(html, css):
        if name in element.text_content():
            return re.search(r"colour-(\d)", element.get("class", "")).group(1)
    raise AssertionError(f"{name} not found in {css}")


def test_ann_keeps_her_colour_from_seat_to_seat(client, table):
    table.start_game(names=["Ann", "Ben", "Cleo", "Dan"])
    first = client.get(table.game_url).get_data(as_text=True)
    ann = colour_of(first, ".total-card", "Ann")
    table.start_game(names=["Eve", "Dan", "Ann", "Ben"])  # Ann in seat 3 now, with a newcomer
    second = client.get(table.game_url).get_data(as_text=True)
    assert colour_of(second, ".total-card", "Ann") == ann
    assert colour_of(second, ".total-card", "Ben") == colour_of(first, ".total-card", "Ben")
    round_url = table.start_round()
    assert colour_of(client.get(round_url).get_data(as_text=True), ".tabs .tab", "Ann") == ann
    colours = [colour_of(second, ".total-card", name) for name in ["Eve", "Dan", "Ann", "Ben"]]
    assert len(set(colours)) == 4


@given(st.lists(st.integers(0, 40), min_size=4, max_size=4, unique=True))
def test_the_four_at_a_game_never_share_a_colour_and_the_first_eight_keep_theirs(places):
    colours = seat_colours(places)
    assert len(set(colours)) == 4 and all(0 <= c < PALETTE for c in colours)
    if all(place < PALETTE for place in places):
        assert colours == places


def test_the_result_card_draws_the_colours_the_pages_show():
    """The card (drawn by Pillow, no CSS) keeps its own copy of the light colours: the same, one a
    colour of web/colours.py's palette."""
    from pathlib import Path

    from web.result_card import PLAYER_COLOURS
    css = (Path(__file__).resolve().parents[1] / "static" / "app.css").read_text()
    light = css.split("@media (prefers-color-scheme: dark)")[0]
    assert [re.search(rf"--player-{n}: (#[0-9a-f]{{6}})", light).group(1) for n in range(PALETTE)] == list(PLAYER_COLOURS)
