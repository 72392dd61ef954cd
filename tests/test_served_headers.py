"""What a browser, a cache and a search engine are told by the real server (`orchard serve`): crew
pages and every answer under them are never stored, the files every site is asked for are there,
and asking for them is not guessing."""
import re

import pytest

from support.loopback import Phone, ServerProcess

# A real `orchard serve`: in `make test`, not `make check`.
pytestmark = pytest.mark.slow

GUESS_LIMIT = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("served") / "orchard.db",
                           env={"ORCHARD_GUESS_LIMIT": str(GUESS_LIMIT)}).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def round_url(server):
    """A round being entered: its bid made, so its hands take taps."""
    phone = Phone(server.base)
    game = phone.start_game(phone.start_crew())
    url, number = phone.open_round(game)
    assert phone.post(url + "/bid", {"bidder": "0", "number": "2", "suit": "H"}).status == 200
    return phone, url


def test_the_round_page_and_every_answer_under_it_are_never_stored(round_url):
    phone, url = round_url
    page = phone.get(url)
    poll = re.search(r'/live\?v=\d+[^"\']*', page.body).group(0).replace("&amp;", "&")
    answers = {
        "round page": page,
        "hand tab": phone.get(url + "/hands/1", headers={"HX-Request": "true"}),
        "tap": phone.post(url + "/hands/0/counts/K", {"count": "2"}, headers={"HX-Request": "true"}),
        "round poll": phone.get(url + poll, headers={"HX-Request": "true"}),
    }
    assert {kind: answer.status for kind, answer in answers.items()} == {
        "round page": 200, "hand tab": 200, "tap": 200, "round poll": 200}
    assert {kind: answer.headers.get("Cache-Control") for kind, answer in answers.items()} == {
        kind: "no-store" for kind in answers}
    unchanged = phone.get(url + re.search(r'/live\?v=\d+[^"\']*', answers["round poll"].body)
                          .group(0).replace("&amp;", "&"), headers={"HX-Request": "true"})
    assert (unchanged.status, unchanged.headers.get("Cache-Control")) == (204, "no-store")


def test_crew_pages_ask_search_engines_not_to_list_them(server, round_url):
    phone, url = round_url
    crew = url.split("/games/")[0] + "/"
    for path in (crew, url, crew + "history"):
        assert "noindex" in phone.get(path).headers.get("X-Robots-Tag", ""), path
    assert "X-Robots-Tag" not in Phone(server.base).get("/").headers


def test_robots_txt_keeps_crew_pages_out_of_search_engines(server):
    answer = Phone(server.base).get("/robots.txt")
    assert answer.status == 200
    assert answer.headers["Content-Type"].startswith("text/plain")
    lines = answer.body.splitlines()
    assert "User-agent: *" in lines and "Disallow: /c/" in lines


def test_the_favicon_is_the_apps_icon(server):
    answer = Phone(server.base).client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "image/png"
    assert answer.content.startswith(b"\x89PNG")


def test_healthz_says_ok_while_the_database_answers(server):
    answer = Phone(server.base).get("/healthz")
    assert (answer.status, answer.body.strip()) == (200, "ok")
    assert answer.headers.get("Cache-Control") == "no-store"


def test_what_every_site_is_asked_for_is_not_counted_as_guessing(server, round_url):
    phone, url = round_url
    probe = Phone(server.base)
    statuses = [probe.get(path).status for path in ("/favicon.ico", "/robots.txt", "/healthz")
                for _ in range(2 * GUESS_LIMIT)]
    assert statuses == [200] * len(statuses)
    # The address has not used up its allowance: a mistyped link is still a plain 404.
    assert probe.get("/c/a-typo/").status == 404
    assert phone.get(url).status == 200


# In process: what a real server cannot be made to do on cue -----------------------------------

def test_healthz_says_503_when_the_database_does_not_answer(app, monkeypatch):
    import sqlite3

    import store

    def unreadable():
        raise sqlite3.DatabaseError("file is not a database")

    monkeypatch.setattr(store, "get_db", unreadable)
    answer = app.test_client().get("/healthz")
    assert (answer.status_code, answer.get_data(as_text=True)) == (503, "the database does not answer\n")


def test_healthz_answers_an_address_that_used_up_its_guesses(app):
    app.config["GUESS_LIMIT"] = "3 per minute"
    client = app.test_client()
    assert [client.get(f"/c/guess-{n}/").status_code for n in range(4)][-1] == 429
    assert client.get("/healthz").status_code == 200
    assert client.get("/robots.txt").status_code == 200
