"""What a phone with the link can make a round's history grow by, on the real server (`python
app.py`): a correction opened and dropped again and again, and everyone passing again and again,
each stay one line; and a round page lists at most HISTORY_LINES changes."""
import sqlite3
from contextlib import closing

import pytest

from scoring.limits import HISTORY_LINES
from support.html_text import texts
from support.loopback import Phone, ServerProcess

# A real `orchard serve` each: in `make test`, not `make check`.
pytestmark = pytest.mark.slow


@pytest.fixture
def served(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db").start()
    yield server
    server.stop()


def _rows(server):
    with closing(sqlite3.connect(server.database)) as db:
        return {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("rounds", "hands", "round_changes")}


def _history(page):
    return texts(page, "details.history li")


def test_a_correction_opened_and_dropped_a_hundred_times_leaves_one_line(served):
    phone = Phone(served.base)
    game = phone.start_game(phone.start_crew())
    number, saved = phone.enter_round(game)
    assert saved.status == 303
    url = f"{game}/rounds/{number}"
    phone.post(url + "/correct")
    phone.post(url + "/discard")
    once, page_once = _rows(served), phone.get(url).body
    for _ in range(99):
        assert phone.post(url + "/correct").status == 303
        assert phone.post(url + "/discard").status == 303
    page = phone.get(url).body
    assert _rows(served) == once
    assert len(page) < len(page_once) + 100
    assert _history(page)[-1].endswith("correction discarded · 100 times · by the table's shared phone")
    # A correction opened after all that is the saved round's next revision, as the first was.
    assert phone.post(url + "/correct").status == 303
    with closing(sqlite3.connect(served.database)) as db:
        assert db.execute("SELECT revision, status FROM rounds ORDER BY revision").fetchall() == [
            (1, "scored"), (2, "entering")]


def test_a_hundred_redeals_are_one_line(served):
    phone = Phone(served.base)
    game = phone.start_game(phone.start_crew())
    url, number = phone.open_round(game)
    before = _rows(served)["round_changes"]
    for _ in range(100):
        assert phone.post(url + "/redeal").status == 200
    assert _rows(served)["round_changes"] == before + 1
    assert phone.post(url + "/bid", {"bidder": "0", "number": "2", "suit": "H"}).status == 200
    for seat, target in enumerate(("4S", "2S", "3S", "5S")):
        assert phone.post(url + f"/hands/{seat}/target", {"target": target}).status == 200
    assert phone.post(url + "/save", phone.save_fields(url)).status == 303
    lines = _history(phone.get(url).body)
    assert [line for line in lines if "redeal" in line] == [
        next(line for line in lines if "redeal" in line)]
    assert "everyone passed · 100 times" in next(line for line in lines if "redeal" in line)


def test_a_round_page_lists_at_most_its_share_of_changes(served):
    phone = Phone(served.base)
    game = phone.start_game(phone.start_crew())
    number, saved = phone.enter_round(game)
    url = f"{game}/rounds/{number}"
    for _ in range(HISTORY_LINES):  # each undo and bring-back is a line of its own
        assert phone.post(url + "/delete").status == 303
        assert phone.post(url + "/bring-back").status == 303
    lines = _history(phone.get(url).body)
    assert len(lines) == HISTORY_LINES + 1
    total = 2 + 2 * HISTORY_LINES  # started, saved, then the undos and bring-backs
    assert lines[0].endswith(f" · {total - HISTORY_LINES} earlier changes")
    assert lines[-1].split(" · ")[1:] == ["brought back", "by the table's shared phone"]
