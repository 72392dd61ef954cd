"""The top level is the design card's (app.py, settings.py, scoring/, store/, services/, web/,
cli/, templates/, static/, tests/), no code is left in an `orchard/` folder, and no other installed
distribution provides one of our top-level names (a `web` or `store` from PyPI would shadow ours)."""
import importlib
import subprocess
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("app", "settings", "cli", "scoring", "store", "services", "web")


def test_the_top_level_is_the_design_cards():
    for name in ("app.py", "settings.py", "scoring", "store", "services", "web", "cli", "templates", "static",
                 "tests", "bench", "docs", "requirements.txt", "README.md", "Makefile", ".ci/run"):
        assert (ROOT / name).exists(), name
    assert not (ROOT / "orchard").exists()


@pytest.mark.parametrize("name", OURS)
def test_no_other_installed_distribution_provides_our_name(name):
    others = set(packages_distributions().get(name, [])) - {"orchard"}
    assert others == set(), f"{name} is also provided by {sorted(others)}"
    assert Path(importlib.import_module(name).__file__).resolve().is_relative_to(ROOT)


def test_the_other_check_sees_a_name_another_distribution_provides():
    # pytest is installed and provides `_pytest`: the same lookup names it.
    assert "pytest" in packages_distributions()["_pytest"]


@pytest.mark.slow
def test_python_m_scoring_answers_as_orchard_score_does():
    argv = ["pile", "--target", "4", "4", "4", "10", "10"]
    engine = subprocess.run([sys.executable, "-m", "scoring", *argv], capture_output=True, text=True, timeout=60)
    command = subprocess.run([str(Path(sys.executable).parent / "orchard"), "score", *argv], capture_output=True,
                             text=True, timeout=60)
    assert engine.returncode == command.returncode == 0
    assert engine.stdout == command.stdout and "4" in engine.stdout
