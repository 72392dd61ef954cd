"""The history list: game nights, search, notes; one game read-only; abandon and resume; charts;
and nothing of another crew."""
import re
import time

import pytest

from store import connect
from support.apps import make_app
from support.html_text import attribute, element_text, linked_text, links, parse, select, text, text_of, texts
from support.known_history import player_ids

# Start times (UTC) for the seven known games. The night rule: a game joins the night before it
# when it starts on the same local date, or less than 6 hours after the game before it started.
STARTS = [
    "2026-03-12T19:00:00+00:00",  # night 1 opens
    "2026-03-12T21:30:00+00:00",  # same date
    "2026-03-13T01:00:00+00:00",  # next date, but 3½ hours after game 2
    "2026-03-14T18:00:00+00:00",  # 41 hours later: night 2 opens
    "2026-03-14T23:50:00+00:00",  # same date
    "2026-03-15T05:40:00+00:00",  # next date, 5 h 50 after game 5: still night 2
    "2026-03-15T11:40:00+00:00",  # 6 hours after game 6, but on its date: night 2 goes on
]


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    """Local dates in UTC, so the expected nights do not depend on the machine's time zone."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def set_starts(app, starts):
    db = connect(app.config["DATABASE"])
    for game_id, start in enumerate(starts, start=1):
        db.execute("UPDATE games SET created = ? WHERE id = ?", [start, game_id])
    db.conn.commit()


def nights_on(body):
    """[(night heading, [game ids in the night])] in page order."""
    found = []
    for section in select(body, "section.panel.night"):
        games = [re.fullmatch(r".*/history/games/(\d+)", href) for href in links(section)]
        found.append((element_text(section, "h2"), [int(game.group(1)) for game in games if game]))
    return found


def listed_game(body, game_id):
    """The link that stands for one game in the history list."""
    return next(link for link in select(body, "a[href]") if link.get("href").endswith(f"/history/games/{game_id}"))


def test_games_are_grouped_into_nights_newest_first(known):
    app, client, crew_url = known
    set_starts(app, STARTS)
    body = text(client.get(crew_url + "history"))
    assert nights_on(body) == [
        ("Sat 14 Mar 2026 4 games", [4, 5, 6, 7]),
        ("Thu 12 Mar 2026 3 games", [1, 2, 3]),
    ]


def test_a_long_gap_on_a_new_date_opens_a_new_night(known):
    app, client, crew_url = known
    starts = list(STARTS)
    starts[5] = "2026-03-15T06:00:00+00:00"  # 6 h 10 after game 5, on a new date
    starts[6] = "2026-03-20T19:00:00+00:00"
    set_starts(app, starts)
    assert nights_on(text(client.get(crew_url + "history"))) == [
        ("Fri 20 Mar 2026 1 game", [7]),
        ("Sun 15 Mar 2026 1 game", [6]),
        ("Sat 14 Mar 2026 2 games", [4, 5]),
        ("Thu 12 Mar 2026 3 games", [1, 2, 3]),
    ]


def test_each_listed_game_shows_players_totals_winner_rounds_and_goal(known):
    app, client, crew_url = known
    set_starts(app, STARTS)
    body = text(client.get(crew_url + "history"))
    game = listed_game(body, 1)
    assert "19:00 · to 100 · 3 rounds" in text_of(game)  # the time is a <time> element
    assert [(row.get("class"), element_text(row, ".who"), element_text(row, ".pts")) for row in select(game, "li")] == [
        ("won", "★ Ann", "135"), (None, "Ben", "95"), (None, "Dan", "65"), (None, "Cleo", "25")]
    assert "Ann won." in text_of(game)
    abandoned = text_of(listed_game(body, 6))
    assert "abandoned" in abandoned and "won." not in abandoned
    playing = text_of(listed_game(body, 7))
    assert "not finished" in playing and "1 round" in playing


def test_the_list_pages_through_nights(known):
    app, client, crew_url = known
    set_starts(app, [f"2026-0{1 + n // 4}-{10 + n:02d}T19:00:00+00:00" for n in range(7)])
    from store import history

    with app.app_context():
        first = history.nights(1, page=1, per_page=3)
        last = history.nights(1, page=3, per_page=3)
        found = history.nights(1, history.Search(player=player_ids(app)["Eve"]), page=1, per_page=1)
    assert [night.id for night in first.nights] == [7, 6, 5] and first.more
    assert [night.id for night in last.nights] == [1] and not last.more
    assert [night.id for night in found.nights] == [7] and found.more
    assert (found.night_count, found.game_count) == (2, 2)
    body = text(client.get(crew_url + "history"))
    assert "Older nights" not in body and "Newer nights" not in body
    response = client.get(crew_url + "history?page=2")  # ten nights a page: past the last one
    assert response.status_code == 200 and nights_on(text(response)) == []
    assert client.get(crew_url + "history?page=0").status_code == 404


# --- Search --------------------------------------------------------------------------------------

def found_games(client, url):
    response = client.get(url)
    assert response.status_code == 200, text(response)
    return sorted(g for _, games in nights_on(text(response)) for g in games)


def test_find_games_by_player(known):
    app, client, crew_url = known
    ids = player_ids(app)
    assert found_games(client, f"{crew_url}history?player={ids['Eve']}") == [2, 7]
    assert found_games(client, f"{crew_url}history?player={ids['Dan']}") == [1, 2, 3, 4, 5, 6]


def test_find_games_where_one_beat_another(known):
    app, client, crew_url = known
    ids = player_ids(app)
    assert found_games(client, f"{crew_url}history?ahead={ids['Ann']}&behind={ids['Ben']}") == [1, 3, 5]
    assert found_games(client, f"{crew_url}history?ahead={ids['Ben']}&behind={ids['Ann']}") == [4]
    # Level in game 5 (0 each): neither finished ahead of the other.
    assert found_games(client, f"{crew_url}history?ahead={ids['Dan']}&behind={ids['Cleo']}") == [1]


def test_find_games_by_date_range(known):
    app, client, crew_url = known
    set_starts(app, STARTS)
    assert found_games(client, f"{crew_url}history?since=2026-03-13&until=2026-03-14") == [3, 4, 5]
    assert found_games(client, f"{crew_url}history?since=2026-03-15") == [6, 7]
    assert found_games(client, f"{crew_url}history?until=2026-03-12") == [1, 2]


def test_searches_combine(known):
    app, client, crew_url = known
    set_starts(app, STARTS)
    ids = player_ids(app)
    url = f"{crew_url}history?player={ids['Eve']}&since=2026-03-13&ahead={ids['Ann']}&behind={ids['Dan']}"
    assert found_games(client, url) == []
    # Ann finished ahead of Dan in games 1, 3 and 5; game 5 started on the 14th.
    url = f"{crew_url}history?player={ids['Ann']}&until=2026-03-13&ahead={ids['Ann']}&behind={ids['Dan']}"
    assert found_games(client, url) == [1, 3]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("since=2026-03-14&until=2026-03-12", "The end date is before the start date."),
        ("since=yesterday", "Not a valid date value."),
        ("ahead=1", "Pick both players to compare."),
        ("ahead=1&behind=1", "Pick two different players."),
        ("player=999", "Not a valid choice."),
    ],
)
def test_a_bad_search_says_what_is_wrong_next_to_the_field(known, query, message):
    app, client, crew_url = known
    response = client.get(f"{crew_url}history?{query}")
    assert response.status_code == 422
    assert message in text(response)


def test_search_answers_htmx_with_the_results_block(known):
    app, client, crew_url = known
    ids = player_ids(app)
    response = client.get(f"{crew_url}history?player={ids['Eve']}", headers={"HX-Request": "true"})
    body = text(response)
    assert parse(body).get("id") == "history-results"  # the block alone, not a page
    assert "<html" not in body
    assert "2 games found, on 1 night." in body  # all seven games started just now


# --- Notes -----------------------------------------------------------------------------------------

def test_a_note_on_a_game_and_a_night_shows_in_the_list(known):
    app, client, crew_url = known
    set_starts(app, STARTS)
    response = client.post(f"{crew_url}history/nights/4/note", data={"text": "  at Dana’s,   3 bottles of cider "})
    assert response.status_code == 303
    response = client.post(f"{crew_url}history/games/5/note", data={"text": "Ann's comeback"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert parse(response).get("id") == "note-game-5"  # the note's box alone
    night = element_text(client.get(crew_url + "history"), 'section.panel.night[aria-labelledby="night-4"]')
    assert "at Dana’s, 3 bottles of cider" in night
    assert "Ann's comeback" in night
    assert "Ann's comeback" in text_of(client.get(crew_url + "history/games/5"))


def test_an_empty_note_removes_it(known):
    app, client, crew_url = known
    client.post(f"{crew_url}history/games/2/note", data={"text": "rainy"})
    client.post(f"{crew_url}history/games/2/note", data={"text": "   "})
    assert "rainy" not in text(client.get(crew_url + "history"))


@pytest.mark.parametrize(
    ("note", "message"),
    [("x" * 201, "A note is at most 200 characters."), ("a\x00b", "A note cannot contain control characters.")],
)
def test_a_bad_note_is_refused_next_to_the_field(known, note, message):
    app, client, crew_url = known
    response = client.post(f"{crew_url}history/games/2/note", data={"text": note}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert message in text_of(response) and attribute(response, "[aria-invalid]", "aria-invalid") == "true"


def test_a_night_note_only_hangs_on_a_night(known):
    app, client, crew_url = known
    set_starts(app, STARTS)
    assert client.post(f"{crew_url}history/nights/2/note", data={"text": "x"}).status_code == 404


def test_notes_need_a_csrf_token(tmp_path, known_template):
    import shutil

    template, crew_url = known_template
    shutil.copy(template, tmp_path / "orchard.db")
    app = make_app(tmp_path / "orchard.db", WTF_CSRF_ENABLED=True)
    response = app.test_client().post(f"{crew_url}history/games/2/note", data={"text": "forged"})
    assert response.status_code == 400


# --- One game, read-only -----------------------------------------------------------------------------

def test_a_finished_game_opens_read_only_round_by_round(known):
    app, client, crew_url = known
    body = text(client.get(crew_url + "history/games/1"))
    assert "Final standings" in body
    assert "Resume" not in body and "Abandon" not in body
    posting = [element for element in select(body, "[hx-post]") if not element.xpath("ancestor::div[@class='note-box']")]
    assert posting == []  # nothing changes the game but its note
    rounds = [element.get("id") for element in select(body, "details.panel.round-record")]
    assert rounds == ["round-1", "round-2", "round-3"]
    first = element_text(body, "#round-1")
    assert "Ann won the bid with 2 Spades: trump" in first
    assert "Four 4s with your target: 80 (whatever the rank's value)" in first
    assert "Three 3s with your target: 40" in first
    assert "Pair of 2s: −15" in first
    assert len(select(body, "#round-1 .tag.bonus")) == 2


def test_the_game_page_has_a_chart_with_a_goal_line_and_a_table(known):
    app, client, crew_url = known
    body = text(client.get(crew_url + "history/games/1"))
    svg = select(body, "svg.chart")[0]
    assert svg.get("role") == "img"
    assert element_text(svg, "title") == "Running totals by round"
    assert element_text(svg, "desc") == \
        "Running totals over 3 rounds, goal 100. After the last round: Ann 135, Ben 95, Dan 65, Cleo 25."
    assert texts(svg, "g.reference text") == ["Goal 100"]
    assert len(select(svg, "polyline")) == 4
    assert select(svg, "[style]") == [] and select(svg, "style") == []
    assert texts(body, "table.numbers td") == [
        "80", "15", "40", "−15", "95", "15", "40", "65", "135", "95", "25", "65"]


def test_an_unfinished_game_can_be_abandoned_and_resumed(known):
    app, client, crew_url = known
    body = text(client.get(crew_url + "history/games/7"))
    assert "Resume: open the scoreboard" in body and 'hx-confirm="Abandon this game?' in body
    response = client.post(crew_url + "history/games/7/abandon")
    assert response.status_code == 303
    body = text(client.get(crew_url + "history/games/7"))
    assert "This game was abandoned" in body
    response = client.post(crew_url + "history/games/7/resume")
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/games/7")
    db = connect(app.config["DATABASE"])
    assert next(db.query("SELECT status FROM games WHERE id = 7"))["status"] == "playing"


def test_a_finished_game_cannot_be_abandoned(known):
    app, client, crew_url = known
    client.post(crew_url + "history/games/1/abandon")
    db = connect(app.config["DATABASE"])
    assert next(db.query("SELECT status FROM games WHERE id = 1"))["status"] == "finished"


def test_history_links_from_the_crew_and_the_scoreboard(known):
    app, client, crew_url = known
    assert crew_url.split("http://localhost")[-1] + "history" in links(client.get(crew_url))
    assert ("History: this game’s chart, rounds and export", crew_url + "history/games/1") in \
        linked_text(client.get(crew_url + "games/1"))


# --- Another crew's things ---------------------------------------------------------------------------

def test_another_crews_games_and_players_are_not_found(known):
    app, client, crew_url = known
    other = client.post("/crews", data={"name": "Other crew"}).headers["Location"]
    for path in ["history/games/1", "games/1/export.csv", "games/1/export.json", "players/1",
                 "players/1/vs/2"]:
        assert client.get(other + path).status_code == 404, path
    for path in ["history/games/1/note", "history/nights/1/note", "history/games/7/abandon",
                 "players/1/rename", "players/1/merge"]:
        assert client.post(other + path, data={"text": "x", "name": "x", "other": "2"}).status_code == 404, path
    assert client.get(crew_url + "players/999").status_code == 404
