"""The `orchard` command as `make run` installs it (the console script in the virtualenv)."""
import subprocess
import sys
from pathlib import Path

import pytest

from app import __version__

# The installed `orchard` command, run as a child process: in `make test`, not `make check`.
pytestmark = pytest.mark.slow

ORCHARD = Path(sys.executable).parent / "orchard"


def orchard(*args, **kwargs):
    return subprocess.run([str(ORCHARD), *args], capture_output=True, text=True, timeout=60, **kwargs)


def test_orchard_version_says_the_changelog_version():
    said = orchard("--version")
    assert (said.returncode, said.stdout) == (0, f"orchard {__version__}\n")


def test_orchard_help_lists_its_commands():
    said = orchard("--help")
    assert said.returncode == 0
    assert [line.split()[0] for line in said.stdout.split("Commands:")[1].strip().splitlines()] == [
        "backup", "score", "serve"]


def test_orchard_score_answers_with_the_rule_engine():
    said = orchard("score", "pile", "--target", "4", "4", "4", "10", "10")
    assert said.returncode == 0, said.stderr
    assert said.stdout.splitlines()[-1] == "Total: 50"


def test_orchard_score_with_nothing_to_score_is_one_line_and_status_2():
    said = orchard("score")
    assert (said.returncode, said.stdout, said.stderr) == (2, "", "error: choose a command: pile, round, trick or bid\n")


def test_orchard_backup_of_a_database_that_is_not_there_says_so(tmp_path):
    said = orchard("backup", str(tmp_path / "copy.db"), env={"ORCHARD_DATABASE": str(tmp_path / "none.db"),
                                                               "PATH": "/usr/bin:/bin"})
    assert (said.returncode, said.stderr) == (1, f"Error: Nothing was copied: there is no database at "
                                                 f"{tmp_path / 'none.db'} (set ORCHARD_DATABASE to the one the server uses).\n")
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "copy.db").exists()
