"""What comes back from hostile input: escaped names, CSRF refusals, and the regressions the
fuzzer found (each was a 500 or needless cache revalidation until fixed)."""
import io
import re

import pytest

from app import create_app
from support.hostile import HUGE, VALID_FORMS, _crew_with_game, fill
from support.html_text import attribute, csrf_token


# --- What comes back ---------------------------------------------------------------------------

SCRIPT_NAME = "<script>alert(1)</script>"
IMG_NAME = '"><img src=x onerror=alert(1)>'


def test_script_names_are_escaped_on_every_page(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "o.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    token, game_id = _crew_with_game(client, SCRIPT_NAME, (SCRIPT_NAME, IMG_NAME, "<b>Cleo</b>", "Dan&amp;"))
    game = f"/c/{token}/games/{game_id}"
    pages = ["/", f"/c/{token}/", f"/c/{token}/games/new", game, game + "/live?v=0", game + "/rounds/1",
             game + "/rounds/2", game + "/rounds/2/hands/1", game + "/rounds/2/live?v=0",
             game + "/rounds/1/what-if?rank=K&from=0&to=1", f"/c/{token}/tools/", f"/c/{token}/tools/rules",
             f"/c/{token}/tools/pile", f"/c/{token}/tools/bid", f"/c/{token}/tools/trick"]
    for page in pages:
        for headers in ({}, {"HX-Request": "true"}):
            body = client.get(page, headers=headers).get_data(as_text=True)
            assert "<script>alert" not in body and "<img src=x" not in body and "<b>Cleo" not in body, page
    board = client.get(game).get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in board
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in board
    assert "Dan&amp;amp;" in board


# --- CSRF on -----------------------------------------------------------------------------------

@pytest.mark.slow
def test_with_csrf_on_a_forged_post_is_refused_and_changes_nothing(world):
    """The victim's own browser (its session cookie) tricked into posting to each endpoint by
    another site: no token, a made-up one, or the token of another session."""
    app = create_app({"DATABASE": world.path, "SECRET_KEY": "hostile-input", "GUESS_LIMIT": "1000000 per minute"})
    assert app.config.get("WTF_CSRF_ENABLED", True)
    browser, stranger = app.test_client(), app.test_client()
    real = csrf_token(browser.get(f"/c/{world.victim_token}/"))
    other = csrf_token(stranger.get("/"))
    before = world.victim_rows()
    victim_player = world.ids("player_id")[1][0]
    values = {"token": world.victim_token, "game_id": world.victim_game, "number": 3, "seat": 1,
              "player_id": victim_player, "other_id": victim_player + 1}
    posts = [rule for rule in world.rules if "POST" in rule.methods]
    assert len(posts) >= 20
    for rule in posts:
        path = fill(rule, values)
        form = VALID_FORMS.get(rule.endpoint, {})
        for headers, extra in (({}, {}), ({"X-CSRFToken": "forged"}, {}), ({"X-CSRFToken": other}, {}),
                               ({"HX-Request": "true"}, {"csrf_token": other})):
            response = browser.post(path, data={**form, **extra}, headers=headers)
            assert response.status_code == 400, (path, headers, response.status_code)
            assert "Reload to continue" in response.get_data(as_text=True)
    assert world.victim_rows() == before
    # The same browser with its real token gets through: the refusals above were the CSRF check.
    response = browser.post(f"/c/{world.victim_token}/games/{world.victim_game}/seats/2",
                            headers={"X-CSRFToken": real, "HX-Request": "true"})
    assert response.status_code == 200
    assert world.victim_rows() != before


# --- Regressions: each of these was a 500 or a leak until fixed --------------------------------

@pytest.mark.parametrize("suffix", [
    "/games/{huge}", "/games/{huge}/live", "/games/{game}/rounds/{huge}", "/games/{game}/rounds/{huge}/live",
    "/games/{game}/rounds/{huge}/what-if", "/games/{game}/rounds/{huge}/hands/0",
])
def test_an_id_beyond_64_bits_in_the_url_is_a_404_not_a_500(world, suffix):
    """Flask's int converter takes any length of digits; SQLite raises OverflowError beyond 2**63."""
    path = f"/c/{world.attacker_token}" + suffix.format(huge=HUGE, game=world.attacker_game)
    world.errors.clear()
    response = world.attacker.get(path)
    assert response.status_code == 404, "".join(world.errors)


@pytest.mark.parametrize(("path", "field"), [("/crews", "name"), ("{crew}games", "player_0")])
def test_a_file_posted_as_a_name_is_refused_not_a_500(world, path, field):
    """The name rule (`scoring.names.clean`) gets whatever the field holds: a FileStorage for a multipart file."""
    crew = f"/c/{world.attacker_token}/"
    form = {**VALID_FORMS["games.game_create"], "name": "x", field: (io.BytesIO(b"Ann"), "name.txt")}
    games_before = world.attacker_games
    world.errors.clear()
    response = world.attacker.post(path.format(crew=crew), data=form, content_type="multipart/form-data")
    assert response.status_code in (400, 422), "".join(world.errors)
    assert world.attacker_games == games_before


@pytest.mark.parametrize("body", ['"a name"', "[1, 2]", "5", '{"name": 5}', '{"name": {"first": "Ann"}}'])
def test_a_json_body_that_is_not_an_object_of_strings_is_refused_not_a_500(world, body):
    """Flask-WTF reads a JSON request body as the form: a bare string, a list, a number, or a
    non-string value reaches the form machinery as-is and raises (ValueError, TypeError,
    AttributeError). Any phone can send one with its own CSRF token in the header."""
    crews_before = world.query("SELECT count(*) FROM crews")
    world.errors.clear()
    response = world.attacker.post("/crews", data=body, content_type="application/json")
    assert response.status_code in (400, 415, 422), "".join(world.errors)
    assert world.query("SELECT count(*) FROM crews") == crews_before


# --- Found along the way (caching, not hostile input); bench/page_weight.py shows the effect ---

def _static_answer(world):
    """A phone that opened a crew (so its session is permanent) fetching the versioned CSS."""
    phone = world.app.test_client()
    css = attribute(phone.get(f"/c/{world.attacker_token}/"), 'link[rel="stylesheet"]', "href")
    assert re.fullmatch(r"/static/app\.css\?v=[0-9a-f]{12}", css)
    response = phone.get(css, headers={"Accept-Encoding": "gzip"})
    response.close()
    return response


def test_versioned_static_files_are_not_sent_with_no_cache(world):
    """send_file marks the answer `no-cache` and assets.py only adds max-age/immutable on top:
    `no-cache, public, max-age=31536000, immutable` makes the browser revalidate every file on
    every page view (304s in bench/page_weight.py's repeat visit)."""
    assert "no-cache" not in _static_answer(world).headers["Cache-Control"]


def test_static_files_do_not_set_the_session_cookie(world):
    """With a permanent session, every answer (static files too) re-sends `Set-Cookie: session=`
    (a new signature every second) with `Vary: Cookie`: chromium then revalidates a cached file
    whenever the cookie changed, and each answer carries ~360 bytes of headers it does not need."""
    response = _static_answer(world)
    assert "Set-Cookie" not in response.headers
    assert "Cookie" not in response.headers.get("Vary", "")


def test_the_crews_rules_page_opens_whatever_the_crews_lowest_bid(client, table, crew):
    """Found by the mutated-exports property test: a crew whose bids start at 3 or more got an error
    page on its rules page (its worked examples open with Two Spades, below its minimum)."""
    for lowest in (1, 3, 11, 13):
        answer = client.post(crew + "house-rules", data={"goal": "250", "tie_rule": "play-on", "min_bid": str(lowest),
                                                    "redeal_moves_deal": "no"})
        assert answer.status_code in (200, 303), answer.status_code
        page = client.get(crew + "tools/rules")
        assert page.status_code == 200, lowest
        text = page.get_data(as_text=True)
        assert f"Bids run from {lowest} to 13" in text
        assert ("this crew’s bids start at" in text) == (lowest > 2)
