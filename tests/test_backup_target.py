"""`orchard backup PATH` never writes over the live database or the files beside it that SQLite and
the server keep (issue 38.2: a copy onto the live file replaced it while the server ran)."""
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli import main as orchard_command
from support.loopback import REPO, Phone, ServerProcess

# Real `orchard serve` processes and their timeouts: in `make test`, not in `make check`.
pytestmark = pytest.mark.served


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A real `orchard serve` on <folder>/data/orchard.db, with a crew in it: one for the module,
    since every test here leaves the live file as it was (that is what each one checks)."""
    server = ServerProcess(tmp_path_factory.mktemp("live") / "data" / "orchard.db").start()
    Phone(server.base).start_crew("Still here")
    try:
        yield server
    finally:
        server.stop()


def _target(name, database, tmp_path):
    """The live database (or a file beside it) named one way or another."""
    folder = database.parent
    if name == "same path":
        return str(database)
    if name == "relative":
        return os.path.relpath(database, tmp_path)
    if name == "dot-dot":
        return str(folder / ".." / "data" / "." / database.name)
    if name == "symlink":
        (tmp_path / "copy.db").symlink_to(database)
        return str(tmp_path / "copy.db")
    if name == "hard link":
        os.link(database, tmp_path / "other-name.db")
        return str(tmp_path / "other-name.db")
    if name == "folder symlink":
        (tmp_path / "alias").symlink_to(folder, target_is_directory=True)
        return str(tmp_path / "alias" / database.name)
    return str(folder / (database.name + name))  # -wal, -shm, -backup.lock, -writer.lock


FORMS = ["same path", "relative", "dot-dot", "symlink", "hard link", "folder symlink",
         "-wal", "-shm", "-backup.lock", "-writer.lock"]


@pytest.mark.parametrize("form", FORMS)
def test_a_backup_onto_the_live_database_is_refused_and_the_file_untouched(live, tmp_path, monkeypatch, form):
    database = live.database
    monkeypatch.chdir(tmp_path)
    target = _target(form, database, tmp_path)
    inode, size = os.stat(database).st_ino, os.stat(database).st_size
    said = CliRunner().invoke(orchard_command, ["backup", target], env={"ORCHARD_DATABASE": str(database)})
    assert said.exit_code == 2, said.output
    assert len(said.output.strip().splitlines()) == 1, said.output
    assert said.output.startswith(f"Error: Nothing was copied: {target} is the live database")
    assert said.output.endswith("; a copy must go to another file.\n")
    assert (os.stat(database).st_ino, os.stat(database).st_size) == (inode, size)
    with sqlite3.connect(database) as check:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    # The server still serves the crew it had, and takes a new one.
    assert Phone(live.base).start_crew("After the refusal").startswith("/c/")


def test_the_installed_command_refuses_the_live_database_with_status_2(live):
    """As the issue ran it: `ORCHARD_DATABASE=$DB orchard backup $DB` while the server runs."""
    database = live.database
    inode = os.stat(database).st_ino
    said = subprocess.run([sys.executable, "-m", "cli", "backup", str(database)], cwd=REPO, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "ORCHARD_DATABASE": str(database)})
    assert said.returncode == 2, said.stdout + said.stderr
    assert said.stderr == (f"Error: Nothing was copied: {database} is the live database ({database}); "
                           "a copy must go to another file.\n")
    assert os.stat(database).st_ino == inode
    assert Phone(live.base).start_crew("Untouched").startswith("/c/")


def test_a_backup_beside_the_live_database_still_works(live, monkeypatch):
    monkeypatch.chdir(live.database.parent.parent)
    said = CliRunner().invoke(orchard_command, ["backup", "data/orchard-copy.db"],
                              env={"ORCHARD_DATABASE": str(live.database)})
    assert said.exit_code == 0, said.output
    with sqlite3.connect(live.database.parent / "orchard-copy.db") as copy:
        assert ("Still here",) in copy.execute("SELECT name FROM crews").fetchall()
