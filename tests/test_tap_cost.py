"""What a tap and a "nothing changed" poll cost in SQL: a few statements, counted on every
connection the app opens (the database's and the guess counters'), BEGIN and COMMIT included."""
import re

import pytest

import store
import store.limits
import store
from app import create_app
from support.html_text import poll_url
from support.table import Table

TAP_MOST = 10
POLL_MOST = 3
SAVE_MOST = 29  # the crew, the game, the round and its hands, the writes, the results


@pytest.fixture
def traced(tmp_path, monkeypatch):
    seen = []
    connect, counters = store.connect, store.limits._connect

    def traced_connect(path):
        db = connect(path)
        db.conn.set_trace_callback(seen.append)
        return db

    def traced_counters(path):
        conn = counters(path)
        conn.set_trace_callback(seen.append)
        return conn

    monkeypatch.setattr(store, "connect", traced_connect)
    monkeypatch.setattr(store.limits, "_connect", traced_counters)
    store.close_thread_connections()  # kept connections from earlier tests are not traced
    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False})
    yield app, seen
    store.close_thread_connections()


def statements(seen, call):
    seen.clear()
    response = call()
    return response, list(seen)


def open_round(client):
    table = Table(client)
    table.start_game()
    url = table.start_round()
    client.post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "D"})
    for seat, target in enumerate(("4S", "2S", "3S", "5S")):
        client.post(url + f"/hands/{seat}/target", data={"target": target})
    return url


def test_a_tap_costs_at_most_ten_statements(traced):
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    response, sql = statements(seen, lambda: client.post(url + "/hands/0/counts/7", data={"count": 2}))
    assert response.status_code == 200
    assert "BEGIN IMMEDIATE" in sql and "COMMIT" in sql
    assert len(sql) <= TAP_MOST, "\n".join(sql)


def test_a_tap_answer_carries_the_version_after_the_tap(traced):
    """The version the answer hands the poll is the game's after this tap, so the phone's next
    poll answers 204 rather than fetching its own change again."""
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    body = client.post(url + "/hands/0/counts/7", data={"count": 2}).get_data(as_text=True)
    assert client.get(poll_url(body)).status_code == 204


def test_a_poll_that_finds_nothing_new_costs_at_most_three_statements(traced):
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    page = client.get(url).get_data(as_text=True)
    response, sql = statements(seen, lambda: client.get(poll_url(page)))
    assert response.status_code == 204
    assert len(sql) <= POLL_MOST, "\n".join(sql)
    game_url = url.rsplit("/rounds/", 1)[0]
    board = client.get(game_url).get_data(as_text=True)
    response, sql = statements(seen, lambda: client.get(poll_url(board)))
    assert response.status_code == 204
    assert len(sql) <= POLL_MOST, "\n".join(sql)


def test_a_poll_on_a_wrong_link_is_a_plain_not_found(traced):
    app, _ = traced
    client = app.test_client()
    url = open_round(client)
    wrong = re.sub(r"/c/[^/]+/", "/c/not-this-crew/", url)
    assert client.get(wrong + "/live?v=1").status_code == 404
    assert client.get(url.replace("/games/1/", "/games/99/") + "/live?v=1").status_code == 404


def test_a_save_waits_for_the_disk_and_a_tap_does_not(traced):
    """A saved round is on the disk before the answer (SQLite syncs the WAL at a commit begun
    under `synchronous = FULL`); a tap on the round being entered is a draft, committed under the
    connection's NORMAL (atomic, no sync), and the save syncs it with the rest."""
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    _, tap_sql = statements(seen, lambda: client.post(url + "/hands/0/counts/7", data={"count": 2}))
    assert not [sql for sql in tap_sql if sql.startswith("PRAGMA synchronous")], "\n".join(tap_sql)
    version = Table(client).version(url)
    response, save_sql = statements(seen, lambda: client.post(url + "/save", data={"version": version}))
    assert response.status_code == 303
    begin = save_sql.index("BEGIN IMMEDIATE")
    assert save_sql[begin - 1] == "PRAGMA synchronous = FULL", "\n".join(save_sql)
    assert save_sql[save_sql.index("COMMIT", begin) + 1] == "PRAGMA synchronous = NORMAL"


def test_a_save_reads_the_game_s_saved_rounds_once(traced):
    """The save works out the verdict and `seat_results` from one read of the game's saved
    rounds and their hands (it read them twice), and sends no more statements than that needs."""
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    version = Table(client).version(url)
    response, save_sql = statements(seen, lambda: client.post(url + "/save", data={"version": version}))
    assert response.status_code == 303
    reads = [sql for sql in save_sql if re.search(r"SELECT .*\bhands\b.*JOIN rounds|FROM rounds JOIN hands", sql)]
    assert len(reads) == 1, "\n".join(reads)
    assert len(save_sql) <= SAVE_MOST, "\n".join(save_sql)


def test_a_tap_writes_three_pages_to_the_wal(tmp_path):
    """A tap changes its hand, its round's version and its game's version, nothing else: three
    pages appended to the WAL. (A round's status set in the same UPDATE as its version made SQLite
    rewrite the indexes on saved and open rounds too, at every tap.)"""
    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    url = open_round(client)
    wal = tmp_path / "orchard.db-wal"
    page = 4096 + 24  # a WAL frame: the page and its header
    for count in (1, 2, 1):
        before = wal.stat().st_size
        assert client.post(url + "/hands/0/counts/7", data={"count": count}).status_code == 200
        assert (wal.stat().st_size - before) // page == 3


def test_a_club_night_leaderboard_poll_that_finds_nothing_new_costs_what_a_scoreboard_poll_does(traced):
    """The night's leaderboard, on every phone and the big screen, follows ten tables at once in
    one statement: a 204 while no table saved anything."""
    app, seen = traced
    client = app.test_client()
    crew = Table(client).start_crew()
    names = "\n".join(f"Player {n}" for n in range(40))
    night = client.post(crew + "club-nights", data={"name": "Club", "names": names, "format": "hands",
                                                    "stage_hands": "2", "ranking": "total"}).headers["Location"]
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    for page in (client.get(night), client.get(night + "/board")):
        response, sql = statements(seen, lambda: client.get(poll_url(page.get_data(as_text=True))))
        assert response.status_code == 204
        assert len(sql) <= POLL_MOST, "\n".join(sql)
    wrong = re.sub(r"/c/[^/]+/", "/c/not-this-crew/", night)
    assert client.get(wrong + "/live?v=1").status_code == 404
