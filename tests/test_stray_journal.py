"""A backup named like the live file's rollback journal (issue 46, item 5): `orchard backup` refuses
that name as it refuses the other live files; a database copied there by hand stops the next start
with the real cause, not a word about permissions; and a start refused for a damaged file leaves
nothing beside it that was not there before."""
import os
import subprocess
import sys

import pytest

from store.backup import LiveFileError, backup
from support.apps import fresh_database
from support.loopback import REPO, free_port

pytestmark = pytest.mark.served  # each starts `orchard serve` or `orchard backup` as its own process


def _start(database):
    """`orchard serve` on `database`, which must refuse to start: its exit code and what it said."""
    env = {**os.environ, "ORCHARD_DATABASE": str(database), "PORT": str(free_port()), "HOST": "127.0.0.1"}
    started = subprocess.run([sys.executable, "-m", "cli", "serve"], cwd=REPO, env=env, capture_output=True,
                             text=True, timeout=60)
    return started.returncode, (started.stdout + started.stderr).strip()


def test_orchard_backup_refuses_the_live_databases_journal_name(tmp_path):
    live = fresh_database(tmp_path / "orchard.db")
    with pytest.raises(LiveFileError, match="the name of the live database's rollback journal"):
        backup(live, f"{live}-journal")
    assert not os.path.exists(f"{live}-journal")
    answer = subprocess.run([sys.executable, "-m", "cli", "backup", f"{live}-journal"], cwd=REPO, capture_output=True,
                            text=True, env={**os.environ, "ORCHARD_DATABASE": str(live)}, timeout=60)
    assert answer.returncode != 0 and "rollback journal" in answer.stderr + answer.stdout
    assert not os.path.exists(f"{live}-journal")


def test_a_database_copied_to_the_journals_name_stops_the_start_with_the_real_cause(tmp_path):
    live = fresh_database(tmp_path / "orchard.db")
    backup(live, tmp_path / "copy.db")
    os.replace(tmp_path / "copy.db", f"{live}-journal")  # put there by hand
    before = sorted(os.listdir(tmp_path))
    code, said = _start(live)
    assert code == 1
    assert said.startswith(f"Orchard cannot start: {live}-journal is a whole database file"), said
    assert "move it to another name or folder and start again" in said
    assert "may not be written by this user" not in said
    assert sorted(os.listdir(tmp_path)) == before


def test_a_start_refused_for_damage_leaves_no_new_file_beside_the_database(tmp_path):
    live = fresh_database(tmp_path / "orchard.db")
    with open(live, "r+b") as file:  # the schema's page and the next one, garbage
        file.seek(100)
        file.write(b"\xa5" * 6000)
    before = sorted(os.listdir(tmp_path))
    code, said = _start(live)
    assert code == 1 and "is damaged or unreadable" in said, said
    assert sorted(os.listdir(tmp_path)) == before
