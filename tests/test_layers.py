"""The layers are a contract `lint-imports` checks (pyproject.toml, [tool.importlinter]): scoring
imports nothing of ours, the store only scoring, services the store, web never the store, and no
import circles. These tests run it on the tree, and on a copy with one arrow broken on purpose."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "orchard"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
LONGEST = 400  # lines: a module longer than this is split by what it does


def lint_imports(tree):
    """`lint-imports` on the package in `tree` (its own pyproject.toml): exit status and output."""
    result = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tree, capture_output=True, text=True,
                            env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, timeout=120)
    return result.returncode, result.stdout + result.stderr


@pytest.fixture
def copy(tmp_path):
    """The package's Python files and pyproject.toml, copied to tmp_path."""
    shutil.copytree(PACKAGE, tmp_path / "orchard", ignore=shutil.ignore_patterns("templates", "static", "__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_the_tree_keeps_every_layer_contract(copy):
    status, said = lint_imports(copy)
    assert status == 0, said
    assert "Contracts: 4 kept, 0 broken." in said


@pytest.mark.parametrize("module, arrow, contract, named", [
    ("web/crews.py", "from orchard.store import games", "The web layer never reaches the store", "orchard.web.crews"),
    ("store/games.py", "from orchard.services import phones", "Layers: cli, serving, app, web, services, store",
     "orchard.store.games"),
    ("scoring/cards.py", "from orchard import settings", "The rule engine imports nothing of ours", "orchard.scoring.cards"),
    ("web/lookup.py", "from orchard.web.rounds import page", "No import circles", ".rounds -> .lookup"),
])
def test_a_forbidden_arrow_breaks_the_check(copy, module, arrow, contract, named):
    """One line that breaks the architecture makes `lint-imports` (and so make check) fail, naming
    the contract and the line."""
    path = copy / "orchard" / module
    path.write_text(path.read_text() + f"\n{arrow}  # noqa\n")
    status, said = lint_imports(copy)
    assert status == 1
    assert f"{contract}" in said and "BROKEN" in said
    assert named in said


def test_no_module_is_longer_than_400_lines():
    long = {str(path.relative_to(ROOT)): n for path in PACKAGE.rglob("*.py")
            if (n := len(path.read_text().splitlines())) > LONGEST}
    assert long == {}
