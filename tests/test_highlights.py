"""A finished game's highlight (issue 43, item 10): the winner's comeback when they were at least
COMEBACK_MIN behind, else the best single round; said on the game's record and drawn on its card."""
import io

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from scoring import COMEBACK_MIN, Highlight, highlight, running_totals
from support.html_text import element_text
from web import result_card

ROUNDS = st.lists(st.tuples(*[st.integers(-60, 120)] * 4), min_size=1, max_size=14)


@given(ROUNDS, st.sets(st.integers(0, 3), min_size=1, max_size=2))
def test_the_highlight_is_the_biggest_comeback_else_the_best_round(rounds, winners):
    running = running_totals(rounds)
    found = highlight(running, sorted(winners))
    deficits = [(max(totals) - totals[seat], number, seat) for number, totals in enumerate(running, start=1)
                for seat in winners]
    worst = max(behind for behind, _, _ in deficits)
    if worst >= COMEBACK_MIN:
        assert found.kind == "comeback" and found.points == worst and found.seat in winners
        assert max(running[found.round - 1]) - running[found.round - 1][found.seat] == worst
    else:
        best = max(score for scores in rounds for score in scores)
        if best <= 0:
            assert found is None
        else:
            assert found == Highlight("best round", found.seat, best, found.round)
            assert rounds[found.round - 1][found.seat] == best
            assert all(best not in scores for scores in rounds[:found.round - 1])  # the earliest


def test_the_words_name_the_player_and_the_round():
    names = ("Ann", "Ben", "Cleo", "Dan")
    assert result_card.highlight_words(Highlight("comeback", 1, 65, 4), names) == "Comeback by Ben: 65 behind after round 4"
    assert result_card.highlight_words(Highlight("best round", 2, 85, 3), names) == "Best round by Cleo: 85 points in round 3"
    assert result_card.highlight_words(None, names) == ""


def test_a_finished_games_record_and_card_show_its_highlight(known):
    app, client, crew_url = known
    page = client.get(crew_url + "history/games/1")
    said = element_text(page, "#highlight")
    assert said.startswith(("Comeback by ", "Best round by "))
    game = result_card.CardGame("Known crew", "Thu 12 Mar 2026", 100, ("Ann", "Ben", "Cleo", "Dan"),
                                (135, 95, 25, 65), (0, 1, 3, 2), (0,),
                                ((80, 15, 40, -15), (95, 15, 40, 65), (135, 95, 25, 65)))
    plain = Image.open(io.BytesIO(result_card.draw(game)))
    marked = Image.open(io.BytesIO(result_card.draw(result_card.CardGame(**{**game.__dict__, "highlight": said}))))
    # Drawn in the left column, under the four standings, and nowhere else.
    box = (result_card.MARGIN, 270 + 4 * 62, 580, 270 + 4 * 62 + 56)
    assert plain.crop(box).tobytes() != marked.crop(box).tobytes()
    assert plain.crop((600, 0, 1200, 630)).tobytes() == marked.crop((600, 0, 1200, 630)).tobytes()
    # A game still played has no highlight yet.
    assert 'id="highlight"' not in client.get(crew_url + "history/games/7").get_data(as_text=True)


def test_the_longest_highlight_fits_the_left_column():
    """16 characters of name (the card shortens longer ones), the widest figures: it ends before the chart."""
    from PIL import ImageDraw
    pen = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    longest = result_card.highlight_words(Highlight("comeback", 0, 9999, 99), ("W" * 40,))
    label, said = longest.split(": ", 1)
    assert result_card.MARGIN + pen.textlength(said, font=result_card._font(20)) < result_card.CHART[0]
    assert result_card.MARGIN + pen.textlength(label, font=result_card._font(20, bold=True)) < result_card.CHART[0]
