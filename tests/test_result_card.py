"""The result card: a PNG of a finished game's result, made on the server, without the crew link."""
import io
from pathlib import Path

from PIL import Image, ImageDraw

from web import result_card
from support.html_text import element_text, links, select


def test_a_finished_game_has_a_png_card_of_the_right_size(known):
    app, client, crew_url = known
    response = client.get(crew_url + "games/1/card.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG" and image.size == (result_card.WIDTH, result_card.HEIGHT) == (1200, 630)


def test_the_card_carries_no_crew_link(known):
    app, client, crew_url = known
    token = crew_url.strip("/").rsplit("/", 1)[1]
    png = client.get(crew_url + "games/5/card.png").data
    assert token.encode() not in png and b"/c/" not in png
    # Nor does any text chunk of the PNG: Pillow lists them all in .info.
    assert not any(token in str(value) for value in Image.open(io.BytesIO(png)).info.values())


def test_the_card_shows_the_standings_drawn_from_the_game():
    """Same game, different winner: different pictures (the text is drawn, so compare pixels)."""
    game = result_card.CardGame("Known crew", "Thu 12 Mar 2026", 100, ("Ann", "Ben", "Cleo", "Dan"),
                                (135, 95, 25, 65), (0, 1, 3, 2), (0,),
                                ((80, 15, 40, -15), (95, 15, 40, 65), (135, 95, 25, 65)))
    other = result_card.CardGame(**{**game.__dict__, "winners": (1,), "order": (1, 0, 3, 2),
                                    "totals": (95, 135, 25, 65)})
    assert result_card.draw(game) != result_card.draw(other)


def test_a_game_not_finished_has_no_card_yet(known):
    app, client, crew_url = known
    for game_id in (6, 7):  # abandoned, still played
        response = client.get(crew_url + f"games/{game_id}/card.png")
        assert response.status_code == 409
        assert "not finished" in response.get_data(as_text=True)
    assert client.get(crew_url + "games/99/card.png").status_code == 404
    assert client.get("/c/not-a-crew/games/1/card.png").status_code == 404


def test_share_result_is_offered_on_the_record_and_the_winner_screen(known):
    app, client, crew_url = known
    record = client.get(crew_url + "history/games/1").get_data(as_text=True)
    assert f"{crew_url}games/1/card.png" in links(select(record, ".result-share")[0])
    assert "Share result" in element_text(record, ".result-share")
    assert "result-card.js" in record
    winner = client.get(crew_url + "games/1").get_data(as_text=True)
    assert "Share result" in winner and "result-card.js" in winner
    # No card where there is no result yet.
    assert "Share result" not in client.get(crew_url + "history/games/7").get_data(as_text=True)


ROOT = Path(__file__).resolve().parents[1]
NO_GLYPH = "\U000EFFFF"  # a code point no font draws: what a missing glyph looks like (the empty box)


def _drawn(font, text):
    image = Image.new("L", (120, 120), 0)
    ImageDraw.Draw(image).text((20, 20), text, font=font, fill=255)
    return image.tobytes()


def test_the_card_draws_its_star_and_minus_with_the_font_the_project_ships():
    """The winner's ★, a negative total's −, a long name's … and the footer's · are drawn as those
    signs, not as the empty box of a missing glyph, whatever fonts the system has."""
    for bold in (False, True):
        font = result_card._font(30, bold=bold)
        assert Path(font.path).parent == ROOT / "static" / "fonts"
        assert (ROOT / "static" / "fonts" / "LICENSE").is_file()
        box = _drawn(font, NO_GLYPH)
        for sign in "★−…·":
            picture = _drawn(font, sign)
            inked, boxed = any(picture), picture == box
            assert inked and not boxed, f"{sign!r} is drawn as {'the missing-glyph box' if boxed else 'nothing'}"
