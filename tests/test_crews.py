"""Starting a crew, its private link and QR code, and the crews a browser remembers."""
import re
import time

import itsdangerous.timed
import pytest

from support.html_text import csrf_token, parse, text_of


def test_home_offers_to_start_a_crew(client):
    page = client.get("/").get_data(as_text=True)
    assert "Start a crew" in page
    assert 'name="name"' in page


def test_starting_a_crew_goes_to_its_private_link(client):
    response = client.post("/crews", data={"name": "Thursday crew"})
    assert response.status_code == 303
    token = re.fullmatch(r"/c/([A-Za-z0-9_-]+)/", response.headers["Location"]).group(1)
    assert len(token) >= 22  # at least 128 bits of base64
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Thursday crew" in page
    assert "<svg" in page  # the join QR code
    assert f"/c/{token}/" in page


def test_htmx_start_redirects_the_whole_page(client):
    response = client.post("/crews", data={"name": "Crew"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.headers["HX-Redirect"].startswith("/c/")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Enter a name."),
        ("   ", "Enter a name."),
        ("x" * 41, "A name is at most 40 characters."),
        ("bad\x07name", "A name cannot contain control characters."),
    ],
)
def test_bad_crew_name_is_refused_next_to_the_field(client, name, message):
    response = client.post("/crews", data={"name": name})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert message in page
    assert 'aria-invalid="true"' in page


def test_a_wrong_token_is_a_plain_404(client, table):
    table.start_crew()
    assert client.get("/c/not-a-real-token/").status_code == 404
    assert client.get("/c/not-a-real-token/games/new").status_code == 404


def test_the_browser_remembers_crews_it_opened(client, app, table):
    url = table.start_crew("Dana's table")
    client.get(url)
    assert "Dana&#39;s table" in client.get("/").get_data(as_text=True)
    stranger = app.test_client()
    assert "Dana" not in stranger.get("/").get_data(as_text=True)


def test_crew_names_are_escaped(client, table):
    url = table.start_crew("<script>alert(1)</script>")
    page = client.get(url).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;" in page


def test_csrf_is_on_and_a_missing_token_gets_a_friendly_page(tmp_path):
    from app import create_app

    app = create_app({"DATABASE": str(tmp_path / "c.db"), "SECRET_KEY": "k", "TESTING": True})
    client = app.test_client()
    response = client.post("/crews", data={"name": "No token"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Reload to continue" in page
    assert "No token" not in page


def test_csrf_token_in_the_htmx_header_is_accepted(tmp_path):
    from app import create_app

    app = create_app({"DATABASE": str(tmp_path / "c.db"), "SECRET_KEY": "k", "TESTING": True})
    client = app.test_client()
    token = csrf_token(client.get("/"))
    response = client.post(
        "/crews", data={"name": "Header crew"}, headers={"HX-Request": "true", "X-CSRFToken": token}
    )
    assert response.status_code == 200
    assert response.headers["HX-Redirect"].startswith("/c/")


class _Later:
    """The clock the CSRF tokens are stamped and checked by (itsdangerous), `hours` ahead."""

    def __init__(self, hours):
        self.hours = hours

    def time(self):
        return time.time() + self.hours * 3600


@pytest.mark.parametrize(("hours", "status"), [(13, 200), (8 * 24, 400)], ids=["next-morning", "a-week-later"])
def test_a_page_left_open_all_night_can_still_save(tmp_path, monkeypatch, hours, status):
    """A phone left on the table from the evening to the next morning still saves with the token
    its page got; a page left for over a week gets the reload page instead."""
    from app import create_app

    app = create_app({"DATABASE": str(tmp_path / "c.db"), "SECRET_KEY": "k", "TESTING": True})
    client = app.test_client()
    token = csrf_token(client.get("/"))
    monkeypatch.setattr(itsdangerous.timed, "time", _Later(hours))
    response = client.post("/crews", data={"name": "Morning crew"},
                           headers={"HX-Request": "true", "X-CSRFToken": token})
    assert response.status_code == status
    if status == 400:
        assert "Reload to continue" in text_of(response)
        assert "It was open for a long time, so its security token has expired." in text_of(response)


def test_a_form_refused_for_its_token_says_why_and_never_blames_time_it_was_not_open(tmp_path):
    """A form sent without the browser's cookie, or with another session's token, is refused, and
    the page says so; "open for a long time" is said only of a token that did expire."""
    from app import create_app

    app = create_app({"DATABASE": str(tmp_path / "c.db"), "SECRET_KEY": "k", "TESTING": True})
    first, second = app.test_client(), app.test_client()
    token = csrf_token(first.get("/"))
    first.delete_cookie("session")
    no_cookie = text_of(first.post("/crews", data={"name": "Crew", "csrf_token": token}))
    assert "This browser did not send Orchard’s cookie with the form" in no_cookie
    second.get("/")  # a session of its own, with its own token
    other = second.post("/crews", data={"name": "Crew", "csrf_token": token})
    assert other.status_code == 400
    assert "Its security token no longer matches this browser’s" in text_of(other)
    for page in (no_cookie, text_of(other)):
        assert "open for a long time" not in page and "Reload to continue" in page


def test_rotating_the_link_retires_the_old_one_at_once(client, table):
    old = table.start_game()
    response = client.post(table.crew_url + "rotate")
    assert response.status_code == 303
    new_crew = response.headers["Location"]
    assert new_crew != table.crew_url
    page = client.get(new_crew).get_data(as_text=True)
    assert "The crew has a new link" in page
    assert new_crew in page and "<svg" in page
    assert "Ann · Ben · Cleo · Dan" in page
    assert client.get(table.crew_url).status_code == 404
    assert client.get(old).status_code == 404
    home = client.get("/").get_data(as_text=True)
    assert table.crew_url not in home and new_crew in home


def test_a_passphrase_guards_starting_crews(tmp_path):
    from app import create_app

    app = create_app({"DATABASE": str(tmp_path / "p.db"), "SECRET_KEY": "k",
                      "WTF_CSRF_ENABLED": False, "PASSPHRASE": "cider"})
    client = app.test_client()
    assert "Server passphrase" in client.get("/").get_data(as_text=True)
    response = client.post("/crews", data={"name": "Sneaky", "passphrase": "beer"})
    assert response.status_code == 403
    assert "That is not this server&#39;s passphrase." in response.get_data(as_text=True)
    assert client.post("/crews", data={"name": "Friends", "passphrase": "cider"}).status_code == 303


def test_no_passphrase_field_without_a_passphrase(client):
    assert "Server passphrase" not in client.get("/").get_data(as_text=True)


def test_htmx_form_errors_come_back_as_the_form_fragment(client, table):
    """Each htmx form answers bad input with its own block, messages included (was a 500)."""
    headers = {"HX-Request": "true"}
    response = client.post("/crews", data={"name": ""}, headers=headers)
    assert response.status_code == 422
    assert "Enter a name." in response.get_data(as_text=True)
    assert "<html" not in response.get_data(as_text=True)
    table.start_crew()
    response = client.post(table.crew_url + "games", data={"player_0": ""}, headers=headers)
    assert response.status_code == 422
    assert "Enter a name." in response.get_data(as_text=True)
    assert parse(response).get("id") == "game-form"
    response = client.post(table.crew_url + "house-rules", data={"min_bid": "0"}, headers=headers)
    assert response.status_code == 422
    assert "A bid is a number from 1 to 13." in response.get_data(as_text=True)
    assert parse(response).get("id") == "house-rules-form"


def test_the_crew_page_names_a_table_link_by_its_game_s_players(table, client):
    """A table link is listed by who plays at its table, in seat order (it said only "game 1")."""
    table.start_crew()
    table.start_game(names=["Émile Zola-Brûlé", "Ben", "Cleo", "Dan"])
    client.get(table.game_url)  # the scoreboard offers the table link: it is made on first use
    links = [" ".join(item.text_content().split()) for item in parse(client.get(table.crew_url)).cssselect(".link-what")]
    assert "Table link of game 1: Émile Zola-Brûlé · Ben · Cleo · Dan" in links
