"""Quick pages (web/quick.py): a table's polls, taps and pages are run on the worker's event loop,
so they are answered even while every app thread is busy with something slow; everything else still
goes to a thread, and nothing that may be slow is declared quick."""
import asyncio
import threading

import store
from cli.body_first import BodyFirst
from support import loops
from support.rsgi import Protocol, Scope, SlowDisk, saving_app
from web.quick import LONGEST_PATH, quick_pages


def test_the_tables_poll_is_answered_while_the_only_thread_is_busy_with_a_slow_page():
    release = threading.Event()

    def app(environ, start_response):
        if environ["PATH_INFO"] == "/slow":
            release.wait(10)
        start_response("200 OK", [("content-type", "text/plain")])
        return [environ["PATH_INFO"].encode()]

    server = BodyFirst(app, 1, lambda path, method, length: True, grace=5,
                       quick=lambda path, method: path == "/poll")

    async def table():
        slow, poll, other = Protocol(), Protocol(), Protocol()
        slow_request = asyncio.ensure_future(server.__rsgi__(Scope("/slow"), slow))
        await asyncio.sleep(0.05)  # the slow page has the one thread
        await asyncio.wait_for(server.__rsgi__(Scope("/poll"), poll), 2)
        assert (poll.status, poll.body) == (200, b"/poll")  # answered at once, on the loop
        other_request = asyncio.ensure_future(server.__rsgi__(Scope("/other"), other))
        await asyncio.sleep(0.2)
        assert not other.answered.is_set()  # not quick: it waits for the thread
        release.set()
        await asyncio.wait_for(asyncio.gather(slow_request, other_request), 5)
        assert (slow.status, slow.body, other.status, other.body) == (200, b"/slow", 200, b"/other")

    try:
        loops.run(table())
    finally:
        release.set()
        server.threads.shutdown(wait=True)


def test_a_tables_polls_taps_saves_and_pages_are_quick_and_uploads_exports_draws_and_history_are_not(app, table):
    game_url = table.start_game()
    round_url = table.start_round()
    crew = game_url.split("/games/")[0]
    night = crew + "/club-nights/1"
    is_quick = quick_pages(app)
    for path, method in [
        (game_url, "GET"), (game_url + "/live", "GET"), (round_url, "GET"), (round_url + "/live", "GET"),
        (round_url + "/hands/2", "GET"), (round_url + "/hands/0/cards/QH", "POST"),
        (round_url + "/hands/0/counts/7", "POST"), (round_url + "/hands/3/target", "POST"),
        (night + "/live", "GET"), (night + "/board/live", "GET"),
        (round_url + "/bid", "POST"), (round_url + "/save", "POST"), (game_url + "/rounds", "POST"),
    ]:
        assert is_quick(path, method), (path, method)
    for path, method in [
        ("/restore", "POST"), (game_url + "/export.csv", "GET"), (crew + "/history", "GET"),
        (night + "/stages", "POST"), (crew + "/history/games/1", "GET"),
        (crew + "/", "GET"),
    ]:
        app.url_map.bind("localhost").match(path, method)  # a page there (raises if not)
        assert not is_quick(path, method), (path, method)
    assert not is_quick(game_url + "/live", "POST") and not is_quick("/no/such/page", "GET")
    assert not is_quick(round_url + "/live" + "/" * LONGEST_PATH, "GET")


def test_a_saves_answer_leaves_once_the_disk_has_it_and_the_loop_answers_polls_meanwhile():
    disk = SlowDisk()
    server = BodyFirst(saving_app, 1, lambda path, method, length: True, grace=5,
                       quick=lambda path, method: True, disk=disk)

    async def table():
        save, poll = Protocol(), Protocol()
        saving = asyncio.ensure_future(server.__rsgi__(Scope("/save/1", "POST"), save))
        await asyncio.sleep(0.1)
        assert not save.answered.is_set()  # the disk does not have it yet
        await asyncio.wait_for(server.__rsgi__(Scope("/poll"), poll), 2)
        assert (poll.status, poll.body) == (200, b"/poll")  # the loop was not held by the disk
        assert disk.synced == set()
        disk.finish("/srv/1.db")
        await asyncio.wait_for(saving, 5)
        assert (save.status, save.body, disk.synced) == (200, b"/save/1", {"/srv/1.db"})

    try:
        loops.run(table())
    finally:
        disk.finish_all()
        server.threads.shutdown(wait=True)
        server.syncing.shutdown(wait=True)


def test_a_save_the_disk_refuses_is_not_said_to_be_saved():
    disk = SlowDisk(fails=True)
    server = BodyFirst(saving_app, 1, lambda path, method, length: True, grace=5,
                       quick=lambda path, method: True, disk=disk)
    save = Protocol()
    try:
        loops.run(server.__rsgi__(Scope("/save/1", "POST"), save))
    finally:
        server.threads.shutdown(wait=True)
        server.syncing.shutdown(wait=True)
    assert save.status == 503
    assert save.body.decode().startswith("The server could not make sure the disk has this change")


def test_outside_a_served_quick_page_a_write_waits_for_the_disk_itself(tmp_path, monkeypatch):
    synced = []
    monkeypatch.setattr(store.os, "fsync", lambda fd: synced.append(fd))
    (tmp_path / "orchard.db-wal").write_bytes(b"")
    store.sync_log(str(tmp_path / "orchard.db"))
    assert len(synced) == 1
    with store.syncs_deferred() as pending:
        store.sync_log(str(tmp_path / "orchard.db"))
        store.sync_log(str(tmp_path / "orchard.db"))
    assert len(synced) == 1 and pending == [str(tmp_path / "orchard.db")]
