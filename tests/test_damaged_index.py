"""Damage the quick check cannot see (issue 46, item 2): one byte of an index, every page still
reading whole. The crew's own link then found nothing and answered 404 (the crew looked gone) while
/healthz said 200. A link its index does not find is looked for row by row: found there, the file
is damaged, and every page and the probe answer 503; a start holds every index against its table
and, when only an index is wrong, says how to rebuild it."""
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app import cannot_start, create_app
from services import health
from store import close_thread_connections
from store.integrity import DamagedDatabase, check_file, clear_damage_mark
from support.table import Table

CONFIG = {"SECRET_KEY": "index", "WTF_CSRF_ENABLED": False}


def _one_byte_of_the_index(path, index, column, table):
    """Change one character of the key `index` holds for the first row of `table`, in the file."""
    close_thread_connections()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", [index]).fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        key = conn.execute(f"SELECT {column} FROM {table} ORDER BY rowid LIMIT 1").fetchone()[0].encode()
    data = bytearray(Path(path).read_bytes())
    at = data.index(key, (root - 1) * size, root * size)
    data[at] = ord("0") if data[at] != ord("0") else ord("1")
    Path(path).write_bytes(data)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]  # the pages all read


@pytest.fixture
def damaged(tmp_path):
    path = str(tmp_path / "orchard.db")
    app = create_app({**CONFIG, "DATABASE": path})
    crew = Table(app.test_client()).start_crew("Indexed")
    _one_byte_of_the_index(path, "idx_crews_token_hash", "token_hash", "crews")
    yield path, crew
    health._damage.pop(path, None)
    health._looked.pop(path, None)
    clear_damage_mark(path)
    close_thread_connections()


def test_a_crew_its_index_lost_is_the_damage_page_and_the_probe_says_so(damaged):
    path, crew = damaged
    client = create_app({**CONFIG, "DATABASE": path}).test_client()
    answer = client.get(crew)
    assert answer.status_code == 503, "the crew's own link: not a 404 as if the crew were gone"
    assert "damaged" in answer.get_data(as_text=True)
    probe = client.get("/healthz")
    assert (probe.status_code, probe.get_data(as_text=True)) == (503, "the database is damaged\n")
    assert client.get("/").status_code == 503  # every page of every process, from then on


def test_a_wrong_link_is_still_a_plain_404(tmp_path):
    client = create_app({**CONFIG, "DATABASE": str(tmp_path / "orchard.db")}).test_client()
    Table(client).start_crew("Whole")
    assert client.get("/c/" + "x" * 43 + "/").status_code == 404
    assert client.get("/healthz").status_code == 200


def test_a_start_holds_every_index_against_its_table_and_says_how_to_mend_it(damaged):
    path, _ = damaged
    with pytest.raises(DamagedDatabase) as refused:
        check_file(path)
    sentence = cannot_start(refused.value, Path(path))
    assert "an index of the database" in sentence and "REINDEX" in sentence
    command = sentence.split("run ", 1)[1].split(" and start again")[0]
    assert command.startswith("python3 -c ")
    code = command.removeprefix("python3 -c ").strip('"')
    subprocess.run([sys.executable, "-c", code], check=True)  # the sentence's own command, as written
    check_file(path)  # mended
