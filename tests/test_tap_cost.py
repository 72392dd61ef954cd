"""What a tap and a "nothing changed" poll cost in SQL: a few statements, counted on every
connection the app opens (the database's and the guess counters'), BEGIN and COMMIT included."""
import datetime
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

import store
import store.limits
import store
from app import create_app
from services import club_nights as night_service
from services import links as link_service
from support.html_text import poll_url
from support.table import Table

TAP_MOST = 10
# A game's poll: the guess counter's read, then the link's read, which also answers the poll's
# question (the game's version, this phone's seat seen), web/access.py's @live_poll (issue 37).
POLL_STATEMENTS = 2
# A night's poll (the organiser's page and the big screen): the guess counter's read, then the
# link's, which also brings the night's live mark, web/access.py's @live_poll(night=True).
NIGHT_POLL_STATEMENTS = 2
# The crew, the game, the round and its hands, whether a finished night holds the game, the writes,
# the results, and whether the game's stage clock has run out (one read of its table).
SAVE_MOST = 31


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


def test_a_poll_that_finds_nothing_new_costs_two_statements(traced):
    """The round's poll and the scoreboard's: the guess counter's read and the link's, which
    brings the game's version with it (no read of its own)."""
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    game_url = url.rsplit("/rounds/", 1)[0]
    for page_url in (url, game_url):
        page = client.get(page_url).get_data(as_text=True)
        response, sql = statements(seen, lambda: client.get(poll_url(page)))
        assert response.status_code == 204
        assert len(sql) == POLL_STATEMENTS, "\n".join(sql)
        assert "GUESS_LIMIT" in sql[0] and "FROM crews" in sql[1], "\n".join(sql)


def _claim_seen(tmp_path, when=None):
    """The seat claims' "seen" (set to `when` first, when given)."""
    with closing(sqlite3.connect(tmp_path / "orchard.db")) as db, db:
        if when is not None:
            db.execute("UPDATE seat_claims SET seen = ?", [when.isoformat(timespec="seconds")])
        return [row[0] for row in db.execute("SELECT seen FROM seat_claims")]


def test_a_poll_notes_a_seated_phone_seen_only_when_it_was_long_ago(traced, tmp_path):
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    game_url = url.rsplit("/rounds/", 1)[0]
    assert client.post(game_url + "/seats/0").status_code == 200
    now = datetime.datetime.now(datetime.timezone.utc)
    for page_url in (url, game_url):
        page = client.get(page_url).get_data(as_text=True)
        _claim_seen(tmp_path, now - datetime.timedelta(seconds=5))
        response, sql = statements(seen, lambda: client.get(poll_url(page)))
        assert response.status_code == 204
        assert len(sql) == POLL_STATEMENTS, "\n".join(sql)  # seen a moment ago: nothing written
        long_ago = now - datetime.timedelta(minutes=10)
        _claim_seen(tmp_path, long_ago)
        response, sql = statements(seen, lambda: client.get(poll_url(page)))
        assert response.status_code == 204
        assert any(line.startswith("UPDATE seat_claims SET seen") for line in sql), "\n".join(sql)
        assert datetime.datetime.fromisoformat(_claim_seen(tmp_path)[0]) > long_ago


def test_a_poll_for_a_game_the_link_does_not_hold_is_a_plain_not_found(traced):
    """Another crew's game by the crew link, another game by a table link: a 404, as a guess."""
    app, _ = traced
    client = app.test_client()
    url = open_round(client)
    game_url = url.rsplit("/rounds/", 1)[0]
    other = Table(client)  # another crew
    other.start_game()
    other_round = other.start_round()
    token = re.search(r"/c/([^/]+)/", url).group(1)
    for wrong in (other_round, other.game_url):  # the other crew's game, by this crew's link
        wrong = re.sub(r"/c/[^/]+/", f"/c/{token}/", wrong)
        assert client.get(wrong + "/live?v=1").status_code == 404
    with app.app_context():
        crew_id = link_service.resolve(token).crew["id"]
        table_token = link_service.token_for("k", crew_id, link_service.TABLE, game_id=1)
    second = Table(client)
    second.crew_url = re.sub(r"games/.*", "", game_url)
    second_url = second.start_game()
    for right in (game_url, url):  # its own game: answered (a version it does not show: 200)
        assert client.get(right.replace(token, table_token) + "/live?v=none").status_code == 200
    for wrong in (second_url, second_url + "/rounds/1"):  # the crew's other game, by game 1's table link
        assert client.get(wrong.replace(token, table_token) + "/live?v=1").status_code == 404


def test_a_save_waits_for_the_disk_after_letting_the_write_lock_go_and_a_tap_does_not(traced, monkeypatch):
    """A saved round is on the disk before the answer: the database's log is synced (fsync) once
    the write lock is free again, so no other writer waits for the disk behind it. A tap on the
    round being entered is a draft: committed (atomic) without a sync, and the save syncs it with
    the rest. No transaction switches `synchronous` (every commit is NORMAL)."""
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    database = app.config["DATABASE"]
    synced = []
    real_fsync = store.os.fsync

    def fsync(fd):
        queue = store.writer_queue(database)
        synced.append((store.os.readlink(f"/proc/self/fd/{fd}"), queue.lock.locked()))
        real_fsync(fd)

    monkeypatch.setattr(store.os, "fsync", fsync)
    _, tap_sql = statements(seen, lambda: client.post(url + "/hands/0/counts/7", data={"count": 2}))
    assert synced == []
    fields = Table(client).save_form(url)
    response, save_sql = statements(seen, lambda: client.post(url + "/save", data=fields))
    assert response.status_code == 303
    assert synced == [(str(Path(database).resolve()) + "-wal", False)]  # the log, the lock let go
    assert not [sql for sql in tap_sql + save_sql if sql.startswith("PRAGMA synchronous")]
    with closing(sqlite3.connect(database)) as check:
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_save_reads_the_game_s_saved_rounds_once(traced):
    """The save works out the verdict and `seat_results` from one read of the game's saved
    rounds and their hands (it read them twice), and sends no more statements than that needs."""
    app, seen = traced
    client = app.test_client()
    url = open_round(client)
    fields = Table(client).save_form(url)
    response, save_sql = statements(seen, lambda: client.post(url + "/save", data=fields))
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


def _night(client):
    """A club night of 40 players whose first stage is being played at ten tables: its address."""
    crew = Table(client).start_crew()
    names = "\n".join(f"Player {n}" for n in range(40))
    night = client.post(crew + "club-nights", data={"name": "Club", "names": names, "format": "hands",
                                                    "stage_hands": "2", "ranking": "total"}).headers["Location"]
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    return night


def test_a_club_night_leaderboard_poll_that_finds_nothing_new_costs_two_statements(traced):
    """The night's leaderboard, on every phone and the big screen, follows ten tables at once: a
    204 while no table saved anything is the guess counter's read and the link's, which brings the
    night's live mark with it (no read of its own)."""
    app, seen = traced
    client = app.test_client()
    night = _night(client)
    for page in (client.get(night), client.get(night + "/board")):
        response, sql = statements(seen, lambda: client.get(poll_url(page.get_data(as_text=True))))
        assert response.status_code == 204
        assert len(sql) == NIGHT_POLL_STATEMENTS, "\n".join(sql)
        assert "GUESS_LIMIT" in sql[0] and "FROM crews" in sql[1] and "club_nights" in sql[1], "\n".join(sql)
    wrong = re.sub(r"/c/[^/]+/", "/c/not-this-crew/", night)
    assert client.get(wrong + "/live?v=1").status_code == 404


def test_a_club_night_poll_mark_is_the_night_s_own(traced):
    """The mark the link's read brings is the one the page draws (so an unchanged night is a 204
    and a changed one its new page); another crew's night, by this crew's link, is a 404."""
    app, _ = traced
    client = app.test_client()
    night = _night(client)
    with app.app_context():
        token = re.search(r"/c/([^/]+)/", night).group(1)
        night_id = int(night.rsplit("/", 1)[1])
        link = link_service.resolve(token, night=night_id)
        assert link.night_polled.mark == night_service.live_mark(link.crew["id"], night_id)
        assert link.night_polled.mark in client.get(night).get_data(as_text=True)
        assert link_service.resolve(token, night=night_id + 1).night_polled.mark is None
    other = _night(app.test_client())  # another crew's night
    assert client.get(re.sub(r"/c/[^/]+/", f"/c/{token}/", other) + "/live?v=1").status_code == 404
    assert client.get(re.sub(r"/c/[^/]+/", f"/c/{token}/", other) + "/board/live?v=1").status_code == 404
