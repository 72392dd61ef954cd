"""Safe on the open internet: bounded requests, bounded work, proxies, secrets at rest."""
import io
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app import create_app
from support.html_text import element_text


# Large bodies go as raw bytes: the test client's own spooling of big forms leaves a file open.
FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data; boundary=b"


def _upload(content):
    return (b'--b\r\nContent-Disposition: form-data; name="file"; filename="crew.json"\r\n'
            b"Content-Type: application/json\r\n\r\n" + content + b"\r\n--b--\r\n")


@pytest.fixture
def guarded(tmp_path):
    """The app with CSRF on, as it runs for real."""
    return create_app({"DATABASE": str(tmp_path / "o.db"), "SECRET_KEY": "k"})


# --- Request bodies ----------------------------------------------------------------------------

def test_a_20_mb_form_is_refused_with_a_friendly_413_before_it_is_read(guarded):
    client = guarded.test_client()
    response = client.post("/crews", data=b"name=" + b"A" * 20_000_000, content_type=FORM)
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "too large" in page
    assert len(page) < 20_000
    with guarded.app_context():
        from store import get_db
        assert get_db().execute("SELECT count(*) FROM crews").fetchone()[0] == 0


def test_a_large_htmx_form_gets_the_413_page_in_place_of_the_main_area(guarded):
    response = guarded.test_client().post(
        "/crews", data=b"name=" + b"A" * 1_000_000, content_type=FORM, headers={"HX-Request": "true"})
    assert response.status_code == 413
    assert response.headers["HX-Retarget"] == "#main"
    assert "<html" not in response.get_data(as_text=True)


def test_a_restore_larger_than_a_form_is_still_accepted(client, known):
    app, known_client, crew_url = known
    export = known_client.get(crew_url + "history/export.json").get_data()
    padded = export.rstrip() + b" " * 600_000  # beyond any form's limit, within the upload's
    response = client.post("/restore", data=_upload(padded), content_type=MULTIPART)
    assert response.status_code == 303


def test_a_restore_beyond_the_upload_limit_is_refused_unread(client):
    from web.security import RESTORE_BODY_MAX
    body = _upload(b"[" + b" " * RESTORE_BODY_MAX + b"]")
    response = client.post("/restore", data=body, content_type=MULTIPART)
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)


def test_a_long_bad_name_is_echoed_only_as_a_short_excerpt(client):
    response = client.post("/crews", data={"name": "Z" * 100_000})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "A name is at most 40 characters." in page
    assert "Z" * 41 not in page


# --- The server's passphrase -------------------------------------------------------------------

@pytest.fixture
def private(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "p.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False,
                       "PASSPHRASE": "cider", "PASSPHRASE_LIMIT": "3 per 10 minutes"})


def test_wrong_passphrases_from_one_address_are_slowed(private):
    client = private.test_client()
    guesser = {"REMOTE_ADDR": "10.0.0.9"}
    for guess in ("beer", "wine", "mead"):
        response = client.post("/crews", data={"name": "Sneaky", "passphrase": guess}, environ_base=guesser)
        assert response.status_code == 403
    response = client.post("/crews", data={"name": "Sneaky", "passphrase": "cider"}, environ_base=guesser)
    assert response.status_code == 429
    assert "Too many wrong passphrases" in response.get_data(as_text=True)
    restore = client.post("/restore", data={"passphrase": "cider"}, environ_base=guesser,
                          content_type="multipart/form-data")
    assert restore.status_code == 429
    friend = {"REMOTE_ADDR": "10.0.0.7"}
    assert client.post("/crews", data={"name": "Friends", "passphrase": "cider"},
                       environ_base=friend).status_code == 303


def test_right_passphrases_do_not_use_up_the_allowance(private):
    client = private.test_client()
    for night in range(5):
        assert client.post("/crews", data={"name": f"Night {night}", "passphrase": "cider"}).status_code == 303


@pytest.mark.parametrize("path", ["/crews", "/restore"])
def test_a_passphrase_posted_as_a_file_is_refused_not_a_500(private, path):
    response = private.test_client().post(
        path, data={"name": "Sneaky", "passphrase": (io.BytesIO(b"cider"), "p.txt")},
        content_type="multipart/form-data")
    assert response.status_code == 403
    assert "That is not this server&#39;s passphrase." in response.get_data(as_text=True)


# --- Questions in the address ------------------------------------------------------------------

HUGE_PILE = "+".join(["2S"] * 60_000)


@pytest.mark.parametrize(
    ("question", "message"),
    [
        (f"tools/pile?cards={HUGE_PILE}", "A pile holds at most 52 cards."),
        ("tools/pile?mode=quick&counts=" + "+".join(["2:1"] * 5_000), "A pile holds at most 13 ranks."),
        (f"tools/pile?target={'K' * 50_000}", "That is too long to be a card."),
        (f"tools/trick?trump=S&cards={HUGE_PILE}", "Too many cards: a deck has 52."),
        (f"tools/trick?trump={'S' * 50_000}", "That is too long to be a suit."),
        ("tools/bid?calls=" + "+".join(["pass"] * 20_000), "An auction has at most 160 calls."),
        (f"tools/bid?next={'9' * 50_000}", "That is too long to be a call."),
    ],
)
def test_an_absurdly_long_question_is_refused_with_a_short_answer(client, crew, question, message):
    response = client.get(crew + question)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert message in page
    assert len(page) < 200_000


def test_a_full_deck_is_still_a_question_the_pile_tool_answers(client, crew):
    from scoring import DECK

    response = client.get(crew + "tools/pile", query_string={"cards": " ".join(c.code for c in DECK)})
    assert "at most 52" not in response.get_data(as_text=True)


def test_an_absurdly_long_what_if_is_refused_with_a_short_answer(client, table):
    from support.tools import QUICK_ROUND

    table.start_game()
    round_url = table.save_quick_round(*QUICK_ROUND)
    response = client.get(round_url + "/what-if", query_string={"change": "move", "card": "K" * 50_000})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "That is too long to be a card." in page and "K" * 100 not in page


# --- Growth ------------------------------------------------------------------------------------

def test_starting_crews_is_limited_per_address(tmp_path, known):
    app, known_client, crew_url = known
    export = known_client.get(crew_url + "history/export.json").get_data()
    limited = create_app({"DATABASE": str(tmp_path / "l.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False,
                          "CREW_LIMIT": "3 per hour"})
    client = limited.test_client()
    busy = {"REMOTE_ADDR": "10.0.0.9"}
    for night in range(3):
        assert client.post("/crews", data={"name": f"Night {night}"}, environ_base=busy).status_code == 303
    response = client.post("/crews", data={"name": "One more"}, environ_base=busy)
    assert response.status_code == 429
    assert "started many crews lately" in response.get_data(as_text=True)
    restore = client.post("/restore", data=_upload(export), content_type=MULTIPART, environ_base=busy)
    assert restore.status_code == 429
    other = {"REMOTE_ADDR": "10.0.0.7"}
    assert client.post("/crews", data={"name": "Elsewhere"}, environ_base=other).status_code == 303
    with limited.app_context():
        from store import get_db
        assert get_db().execute("SELECT count(*) FROM crews").fetchone()[0] == 4


# --- Secrets at rest ---------------------------------------------------------------------------

def test_the_database_keeps_only_a_hash_of_the_crew_link_and_the_page_still_shows_it(client, table, app):
    crew_url = table.start_crew()
    token = crew_url.split("/")[2]
    page = client.get(crew_url).get_data(as_text=True)
    assert f"http://localhost{crew_url}" in page
    database = Path(app.config["DATABASE"])
    for path in (p for p in (database, Path(f"{database}-wal")) if p.exists()):
        assert token.encode() not in path.read_bytes()


def test_files_holding_crews_are_readable_by_the_owner_only(tmp_path):
    from store.backup import rolling_backup

    app = create_app({"DATABASE": str(tmp_path / "data" / "orchard.db"), "WTF_CSRF_ENABLED": False})
    app.test_client().post("/crews", data={"name": "Private"})
    rolling_backup(app.config["DATABASE"])
    folder = tmp_path / "data"
    with closing(sqlite3.connect(folder / "orchard.db")) as reader:  # an open reader keeps the WAL
        reader.execute("SELECT count(*) FROM crews").fetchall()
        files = [folder / name for name in ("orchard.db", "orchard.db-wal", "orchard.db-shm")]
        files += list((folder / "backups").iterdir())
        assert len(files) == 4
        assert {str(f.relative_to(folder)): oct(f.stat().st_mode & 0o777) for f in files} == {
            str(f.relative_to(folder)): "0o600" for f in files}
    assert oct((folder / "backups").stat().st_mode & 0o777) == "0o700"


def test_an_unhandled_error_logs_the_path_without_the_crew_link(tmp_path, caplog, monkeypatch):
    app = create_app({"DATABASE": str(tmp_path / "o.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    crew_url = client.post("/crews", data={"name": "Logged"}).headers["Location"]
    token = crew_url.split("/")[2]
    import store.games

    import store
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(store.games, "games", broken)
    assert client.get(crew_url).status_code == 500
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "Exception on /c/" in logged
    assert token not in logged


# --- Smaller -----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("referer", "back"),
    [
        ("https://evil.example/phish", 'href="/"'),
        ("http://localhost//evil.example/phish", 'href="/evil.example/phish"'),
        ("javascript:alert(1)", 'href="/"'),
        ("http://localhost/c/abc/games/1?x=1", 'href="/c/abc/games/1?x=1"'),
    ],
)
def test_the_reload_link_on_a_stale_page_stays_on_this_site(guarded, referer, back):
    response = guarded.test_client().post("/crews", data={"name": "Late"}, headers={"Referer": referer})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Reload to continue" in page
    assert back in page and "evil.example/phish\"" not in page.replace(back, "")


def test_crew_pages_and_exports_are_not_stored_by_caches(client, table):
    table.start_game()
    for path in ("", "history", "history/export.csv", "history/export.json", "tools/pile", "games/1"):
        assert client.get(table.crew_url + path).headers.get("Cache-Control") == "no-store", path
    assert client.get("/").headers.get("Cache-Control") != "no-store"


# --- Restore -----------------------------------------------------------------------------------

def test_a_deeply_nested_restore_file_is_refused_not_a_500(client):
    response = client.post("/restore", data=_upload(b"[" * 200_000 + b"]" * 200_000), content_type=MULTIPART)
    assert response.status_code == 422
    assert element_text(response, "#error-file") == "This file is not JSON: pick the .json export of a crew."


def test_a_lone_surrogate_in_a_restore_file_is_refused_not_a_500(client, known):
    app, known_client, crew_url = known
    export = json.loads(known_client.get(crew_url + "history/export.json").get_data())
    export["games"][0]["note"] = "Bad \\ud800 note"
    body = json.dumps(export).replace("\\\\ud800", "\\ud800").encode()
    response = client.post("/restore", data=_upload(body), content_type=MULTIPART)
    assert response.status_code == 422
    assert "Nothing was restored" in response.get_data(as_text=True)


def test_a_restore_counts_against_the_crews_an_address_may_start_while_it_runs(tmp_path, known, monkeypatch):
    """Issue 45, item 2: restores still in flight counted nothing, so one address could start any
    number at once. A restore counts from the moment it starts; a refused file gives it back."""
    app, known_client, crew_url = known
    export = known_client.get(crew_url + "history/export.json").get_data()
    limited = create_app({"DATABASE": str(tmp_path / "l.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False,
                          "CREW_LIMIT": "1 per hour"})
    client = limited.test_client()
    busy = {"REMOTE_ADDR": "10.0.0.9"}
    # A refused file counts nothing: the address may still start its one crew after it.
    refused = client.post("/restore", data=_upload(b"not json"), content_type=MULTIPART, environ_base=busy)
    assert refused.status_code == 422
    import services.transfer as transfer_service
    real_restore, during = transfer_service.restore, []

    def restore_while_another_starts(content):
        # While this restore runs, the same address tries a second one and a new crew.
        during.append(client.post("/restore", data=_upload(export), content_type=MULTIPART, environ_base=busy).status_code)
        during.append(client.post("/crews", data={"name": "Meanwhile"}, environ_base=busy).status_code)
        return real_restore(content)

    monkeypatch.setattr(transfer_service, "restore", restore_while_another_starts)
    response = client.post("/restore", data=_upload(export), content_type=MULTIPART, environ_base=busy)
    assert response.status_code == 303
    assert during == [429, 429]
    with limited.app_context():
        from store import get_db
        assert get_db().execute("SELECT count(*) FROM crews").fetchone()[0] == 1
