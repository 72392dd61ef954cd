"""Every route of the app against every kind of link (web/access.py): the crew link does everything,
a table link only its own game's play while the game is played, a watch link only reads its game's
scoreboard or its night's leaderboard and big screen, a door link only checks a player in at its night. The test walks `app.url_map`: a route that
declares no kind fails it, an allowed request is answered (never a 404 or a 5xx), and a refused one
is a plain 404 that changes nothing in the database."""
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import got_request_exception

from app import create_app
from services import links as link_service
from store import close_thread_connections
from support.apps import fresh_database
from support.club_nights import NINE, new_night
from support.db_watch import Watched
from support.hostile import VALID_FORMS
from support.html_text import select
from support.rounds import save_quick_round
from support.table import Table
from web.access import CREW, DOOR, PUBLIC, TABLE, WATCH

SECRET = "link-kinds"
CONFIG = {"SECRET_KEY": SECRET, "WTF_CSRF_ENABLED": False, "TESTING": True,
          "GUESS_LIMIT": "1000000 per minute", "CREW_LIMIT": "1000000 per minute"}
FLASK_OWN = {"static"}  # Flask's static files: public, and not a view of ours to declare


def _build(path):
    """A crew with a game being played (round 1 saved, round 2 open), an abandoned game, and a
    club night whose first stage plays at two tables; its table and watch links made as the pages
    hand them out. Returns what a request needs to name each of them."""
    app = create_app({**CONFIG, "DATABASE": str(path)})
    client = app.test_client()
    table = Table(client)
    crew_url = table.start_crew("Link crew")
    token = crew_url.split("/")[2]
    playing = table.start_game()
    save_quick_round(app, playing, ["AS", "KS", "9S", "2S"], [{"A": 2}, {"K": 1}, {"9": 1}, {}])
    client.post(playing + "/rounds")
    over = table.start_game(names=("Eve", "Fay", "Gus", "Hal"))
    assert client.post(crew_url + f"history/games/{over.rsplit('/', 1)[1]}/abandon").status_code in (200, 303)
    finished = table.start_game(goal="other", goal_other="1")
    save_quick_round(app, finished, ["AS", "KS", "9S", "2S"], [{"A": 2}, {"K": 1}, {"9": 1}, {}])
    season = client.post(crew_url + "seasons", data={"name": "Season", "first_day": "2000-01-01", "minimum": "1"})
    assert season.status_code == 303, season.get_data(as_text=True)
    night = new_night(client, crew_url, names=NINE).headers["Location"]
    assert client.post(night + "/stages").status_code in (200, 303)
    assert client.post(night + "/stages/1/start").status_code in (200, 303)
    game_id, over_id = int(playing.rsplit("/", 1)[1]), int(over.rsplit("/", 1)[1])
    season_id = int(season.headers["Location"].rsplit("/", 1)[1])
    night_id = int(night.rsplit("/", 1)[1])
    codes = [urlsplit(q.get("data-link")).path for q in select(client.get(night), ".night-table .qr[data-link]")]
    assert len(codes) == 2, "two tables, two codes"
    elsewhere = int(codes[1].rsplit("/", 1)[1])
    with app.app_context():
        crew_id = link_service.resolve(token).crew["id"]
        tokens = {
            CREW: token,
            TABLE: link_service.token_for(SECRET, crew_id, TABLE, game_id=game_id),
            "table over": link_service.token_for(SECRET, crew_id, TABLE, game_id=over_id),
            "watch game": link_service.token_for(SECRET, crew_id, WATCH, game_id=game_id),
            "watch night": link_service.token_for(SECRET, crew_id, WATCH, night_id=night_id),
            "watch over": link_service.token_for(SECRET, crew_id, WATCH, game_id=over_id),
            "door": link_service.token_for(SECRET, crew_id, DOOR, night_id=night_id),
            "watch season": link_service.token_for(SECRET, crew_id, WATCH, season_id=season_id),
            "wrong": "x" * 43,
        }
        link_id = link_service.of_crew(SECRET, crew_id)[0]["id"]
    close_thread_connections()
    return {"tokens": tokens, "game": game_id, "over": over_id, "night": night_id, "elsewhere": elsewhere,
            "link_id": link_id, "codes": codes, "season": season_id,
            "finished": int(finished.rsplit("/", 1)[1])}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    path = tmp_path_factory.mktemp("links") / "orchard.db"
    fresh_database(path)
    world = _build(path)
    return path, world


@pytest.fixture
def world(built, tmp_path):
    """A copy of the built database for each test, so an allowed change never leaks into the next."""
    source, facts = built
    path = tmp_path / "orchard.db"
    shutil.copy(source, path)
    app = create_app({**CONFIG, "DATABASE": str(path)})
    errors = []
    got_request_exception.connect(lambda sender, exception, **extra: errors.append(repr(exception)), app, weak=False)
    yield app, facts, path, errors
    close_thread_connections()


def dump(path):
    with closing(sqlite3.connect(path)) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                                 " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {table: conn.execute(f"SELECT * FROM [{table}] ORDER BY rowid").fetchall() for table in tables}


def _rules():
    # A file of this process's own: every test worker reads the URL map at import, at once.
    app = create_app({**CONFIG, "DATABASE": str(Path(tempfile.mkdtemp(prefix="orchard-link-kinds-")) / "rules.db")})
    return app, sorted(app.url_map.iter_rules(), key=lambda rule: rule.endpoint)


APP, RULES = _rules()
TOKEN_RULES = [rule for rule in RULES if "token" in rule.arguments]
# Routes about a saved round (round 1); the others enter the open one (round 2).
SAVED_ROUND = {"rounds.round_agree", "rounds.correction_create", "rounds.correction_discard", "rounds.round_delete",
               "rounds.round_bring_back", "tools.what_if_show"}
KINDS = ("crew", "table", "table over", "table elsewhere", "watch game", "watch night", "watch season", "door", "wrong")


def test_every_route_declares_who_may_use_it():
    undeclared = [rule.endpoint for rule in RULES if rule.endpoint not in FLASK_OWN
                  and getattr(APP.view_functions[rule.endpoint], "link_kinds", None) is None]
    assert undeclared == []


def test_routes_without_a_link_are_public_and_routes_with_one_are_not():
    for rule in RULES:
        kinds = getattr(APP.view_functions[rule.endpoint], "link_kinds", {PUBLIC})
        assert (PUBLIC in kinds) == ("token" not in rule.arguments), rule.endpoint


def _url(rule, facts, kind):
    token = facts["tokens"]["crew"] if kind == "crew" else facts["tokens"][
        {"table elsewhere": TABLE, "table": TABLE}.get(kind, kind)]
    game = {"table over": facts["over"], "table elsewhere": facts["elsewhere"]}.get(kind, facts["game"])
    values = {"token": token, "game_id": game, "first_game_id": game, "night_id": facts["night"],
              "player_id": 1, "other_id": 2,
              "number": 2, "seat": 0, "code": "AS", "rank": "A", "link_id": facts["link_id"],
              "season_id": facts["season"], "kind": "game", "event_id": facts["finished"]}
    if rule.endpoint in SAVED_ROUND or rule.endpoint.startswith(("club_nights.", "stage_clock.")):
        values["number"] = 1  # a saved round; the night's first stage
    with APP.test_request_context():
        return rule.build({name: values[name] for name in rule.arguments}, append_unknown=False)[1]


def _allowed(kinds, kind):
    wanted = {"crew": CREW, "table": TABLE, "table elsewhere": TABLE, "watch game": WATCH,
              "watch night": WATCH, "watch season": WATCH, "door": DOOR}.get(kind)
    return wanted in kinds


def _request(client, rule, url):
    if "GET" in rule.methods:
        return client.get(url)
    return client.post(url, data=VALID_FORMS.get(rule.endpoint, {}))


@pytest.mark.parametrize("rule", TOKEN_RULES, ids=lambda rule: rule.endpoint)
def test_each_kind_of_link_gets_what_it_may_and_a_plain_404_otherwise(world, rule, request):
    app, facts, path, errors = world
    kinds = app.view_functions[rule.endpoint].link_kinds
    scoped_to_night = "night_id" in rule.arguments
    scoped_to_game = "game_id" in rule.arguments
    scoped_to_season = "season_id" in rule.arguments
    snapshot = Watched(path, lambda: dump(path))
    request.addfinalizer(snapshot.close)
    for kind in KINDS:
        client = app.test_client()
        url = _url(rule, facts, kind)
        before = snapshot()
        answer = _request(client, rule, url)
        assert answer.status_code < 500, (kind, url, errors)
        allowed = _allowed(kinds, kind)
        if kind == "watch game" and scoped_to_night or kind in ("watch night", "door") and not scoped_to_night:
            allowed = False  # a watch link reads only its own game or its own night; a door link, its night's door
        if kind == "table" and scoped_to_night:
            allowed = False
        if kind in ("watch game", "watch night") and scoped_to_season or kind == "watch season" and not scoped_to_season:
            allowed = False  # a season's watch link reads its own season and nothing else
        if kind == "table over" and scoped_to_game and (TABLE in kinds or "GET" in rule.methods and WATCH in kinds):
            # A table link whose game is over is sent to how it ended, through the game's watch
            # link, whatever its phone asked of its game (never a 404 counted as a guess).
            assert answer.status_code == 303, (kind, url)
            watch = answer.headers["Location"]
            assert f"/games/{facts['over']}" in watch and facts["tokens"]["table over"] not in watch
            assert client.get(watch).status_code not in (404, 500), watch
            assert snapshot() == before
            continue
        if kind in ("table over", "wrong") or kind == "table elsewhere" and scoped_to_game:
            allowed = False
        if allowed:
            assert answer.status_code != 404, (kind, url, answer.status_code)
        else:
            assert answer.status_code == 404, (kind, url, answer.status_code)
            assert snapshot() == before, (kind, url, "a refused request changed the database")
    assert errors == []


def test_a_night_table_code_is_a_table_link_that_opens_its_game_and_nothing_else(world):
    app, facts, path, errors = world
    client = app.test_client()
    code = facts["codes"][0]
    token = code.split("/")[2]
    assert token != facts["tokens"]["crew"]
    assert client.get(code).status_code == 200
    assert client.post(f"/c/{token}/rotate").status_code == 404
    assert client.get(f"/c/{token}/").status_code == 404
    assert client.get(f"/c/{token}/history/export.json").status_code == 404
    assert client.get(f"/c/{token}/club-nights/{facts['night']}").status_code == 404
    assert client.get(f"/c/{token}/games/{facts['game']}").status_code == 404, "another game of the crew"
    # The crew link still works after all that: nothing was rotated.
    assert client.get(f"/c/{facts['tokens']['crew']}/").status_code == 200


def test_the_table_phone_sees_no_crew_wide_link(world):
    app, facts, path, errors = world
    client = app.test_client()
    page = client.get(f"/c/{facts['tokens'][TABLE]}/games/{facts['game']}")
    hrefs = [a.get("href") for a in select(page, "a[href]")]
    assert not any(href.rstrip("/").endswith(facts["tokens"][TABLE]) for href in hrefs), "no crew page link"
    assert not any("/history" in href for href in hrefs)
    for href in hrefs:
        if href.startswith("/c/"):
            assert client.get(href).status_code in (200, 303), href


def test_replacing_a_link_stops_the_old_one_at_once(world):
    app, facts, path, errors = world
    client = app.test_client()
    crew = facts["tokens"]["crew"]
    old = f"/c/{facts['tokens']['watch night']}/club-nights/{facts['night']}/board"
    assert client.get(old).status_code == 200
    links = select(client.get(f"/c/{crew}/"), "#links li")
    night_row = next(item for item in links if "Watch link of" in item.text_content() and "game" not in
                     item.cssselect(".link-what")[0].text_content())
    replace = night_row.cssselect("form")[0].get("action")
    assert client.post(replace).status_code == 303
    # The old link is stopped, and said to be replaced (410): it is no guess, the app gave it out.
    answer = client.get(old)
    assert answer.status_code == 410 and "This link was replaced" in answer.get_data(as_text=True)
    assert client.get(old + "/live?v=1", headers={"HX-Request": "true"}).status_code == 410
    new = next(item for item in select(client.get(f"/c/{crew}/"), "#links li code")
               if "/board" in item.text_content()).text_content()
    assert client.get(urlsplit(new).path).status_code == 200
    assert client.get(f"/c/{crew}/").status_code == 200, "the crew link is untouched"
