"""A backup restored either way docs/self-hosting.md gives (copied over the database, on this machine
or a new one, or pointed at with ORCHARD_DATABASE) honours every link the app gave out: the crew
link, a game's "Bring another phone" table link and watch link, a club night's table QR codes and
its big screen (issue 46, item 1). The server's key lives in the database (store/server_key.py)."""
import shutil
from urllib.parse import urlsplit

import pytest

from app import create_app
from store import close_thread_connections
from store.backup import backup
from support.club_nights import NINE, new_night
from support.html_text import select
from support.table import Table

CONFIG = {"WTF_CSRF_ENABLED": False, "TESTING": True,
          "GUESS_LIMIT": "1000000 per minute", "CREW_LIMIT": "1000000 per minute"}


def _make(client):
    """A crew with a game and a club night whose first stage plays at two tables: their URLs."""
    table = Table(client)
    crew = table.start_crew("Backed up")
    game = table.start_game()
    night = new_night(client, crew, names=NINE).headers["Location"]
    assert client.post(night + "/stages").status_code in (200, 303)
    assert client.post(night + "/stages/1/start").status_code in (200, 303)
    return crew, game, night


def _shown(app, pages):
    """Every link those pages hand out now (paths), by name."""
    crew, game, night = pages
    client = app.test_client()
    links = {"crew link": urlsplit(crew).path}
    [table_code] = [q.get("data-link") for q in select(client.get(game), ".table-link .qr[data-link]")]
    links["game's table link"] = urlsplit(table_code).path
    page = client.get(night)
    for number, code in enumerate(select(page, ".night-table .qr[data-link]"), 1):
        links[f"night's QR code {number}"] = urlsplit(code.get("data-link")).path
    [board] = [a.get("href") for a in select(page, "a.button") if "Big-screen view" in a.text_content()]
    links["night's big screen"] = urlsplit(board).path
    [door] = [q.get("data-link") for q in select(page, ".door-code .qr[data-link]")]
    links["night's door code"] = urlsplit(door).path
    assert len(links) == 6  # the crew link, the game's code, the night's two tables, its big screen and its door
    close_thread_connections()
    return links


def _restored(app, served_links, pages):
    """The links the restored app hands out are the ones handed out before, and each opens."""
    assert _shown(app, pages) == served_links
    return _answers(app, served_links)


def _answers(app, links):
    client = app.test_client()
    answers = {name: client.get(path).status_code for name, path in links.items()}
    close_thread_connections()
    return answers


@pytest.fixture
def served(tmp_path):
    """An instance folder as `make run` leaves it (no key given: the app keeps its own), with the
    links its pages gave out, and a backup taken by `orchard backup`'s function."""
    live = tmp_path / "instance" / "orchard.db"
    app = create_app({**CONFIG, "DATABASE": str(live)})
    pages = _make(app.test_client())
    links = _shown(app, pages)
    assert set(_answers(app, links).values()) == {200}
    copy = tmp_path / "copies" / "orchard-backup.db"
    copy.parent.mkdir()
    backup(live, copy)
    close_thread_connections()
    return live, copy, links, pages


def test_a_backup_copied_over_the_database_keeps_every_link(served):
    live, copy, links, pages = served
    shutil.copy(copy, live)
    assert _restored(create_app({**CONFIG, "DATABASE": str(live)}), links, pages) == dict.fromkeys(links, 200)


def test_a_backup_copied_to_a_new_machine_keeps_every_link(served, tmp_path):
    _, copy, links, pages = served
    fresh = tmp_path / "new-machine" / "orchard.db"
    fresh.parent.mkdir()
    shutil.copy(copy, fresh)
    assert _restored(create_app({**CONFIG, "DATABASE": str(fresh)}), links, pages) == dict.fromkeys(links, 200)


def test_orchard_database_pointed_at_a_backup_keeps_every_link(served, monkeypatch):
    _, copy, links, pages = served
    monkeypatch.setenv("ORCHARD_DATABASE", str(copy))
    app = create_app(CONFIG)
    assert app.config["DATABASE"] == str(copy)
    assert _restored(app, links, pages) == dict.fromkeys(links, 200)


def test_the_key_an_older_version_kept_beside_the_database_is_taken_in(tmp_path):
    """Before the key moved into the database it was a `secret_key` file beside it: the first start
    of this version stores that key, so the links given out before the upgrade keep working."""
    live = tmp_path / "instance" / "orchard.db"
    live.parent.mkdir()
    (live.parent / "secret_key").write_text("an older version's key\n")
    older = create_app({**CONFIG, "DATABASE": str(live), "SECRET_KEY": "an older version's key"})
    pages = _make(older.test_client())
    links = _shown(older, pages)
    upgraded = create_app({**CONFIG, "DATABASE": str(live)})
    assert upgraded.secret_key == "an older version's key"
    assert _restored(upgraded, links, pages) == dict.fromkeys(links, 200)
    (live.parent / "secret_key").unlink()  # kept in the database from now on: the file can go
    assert _restored(create_app({**CONFIG, "DATABASE": str(live)}), links, pages) == dict.fromkeys(links, 200)


def test_every_process_of_one_database_has_one_key(tmp_path):
    live = tmp_path / "orchard.db"
    keys = {create_app({**CONFIG, "DATABASE": str(live)}).secret_key for _ in range(3)}
    assert len(keys) == 1 and len(keys.pop()) == 64
