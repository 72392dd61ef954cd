"""The layers are a contract `lint-imports` checks (pyproject.toml, [tool.importlinter]): scoring
imports nothing of ours, the store only scoring, services the store, web never the store, and no
import circles. These tests run it on the tree, and on a copy with one arrow broken on purpose;
and they check that write transactions open in the services, never in the store."""
import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The code of ours at the top level (the design card's layout).
PACKAGES = ("cli", "web", "services", "store", "scoring")
MODULES = ("app.py", "settings.py")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
LONGEST = 400  # lines: a module longer than this is split by what it does


def lint_imports(tree):
    """`lint-imports` on the package in `tree` (its own pyproject.toml): exit status and output."""
    result = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tree, capture_output=True, text=True,
                            env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, timeout=120)
    return result.returncode, result.stdout + result.stderr


@pytest.fixture
def copy(tmp_path):
    """The top level's Python code and pyproject.toml, copied to tmp_path."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    for module in MODULES:
        shutil.copy(ROOT / module, tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_the_tree_keeps_every_layer_contract(copy):
    status, said = lint_imports(copy)
    assert status == 0, said
    assert "Contracts: 5 kept, 0 broken." in said


@pytest.mark.parametrize("module, arrow, contract, named", [
    ("web/crews.py", "from store import games", "The web layer never reaches the store", "web.crews"),
    ("store/games.py", "from services import phones", "Layers: cli, web, services, store, scoring",
     "store.games"),
    ("scoring/cards.py", "import settings", "The rule engine imports nothing of ours", "scoring.cards"),
    ("services/games.py", "import app", "Only the cli imports app.py", "services.games"),
    ("web/lookup.py", "from web.rounds import page", "No import circles", ".rounds -> .lookup"),
])
def test_a_forbidden_arrow_breaks_the_check(copy, module, arrow, contract, named):
    """One line that breaks the architecture makes `lint-imports` (and so make check) fail, naming
    the contract and the line."""
    path = copy / module
    path.write_text(path.read_text() + f"\n{arrow}  # noqa\n")
    status, said = lint_imports(copy)
    assert status == 1
    assert f"{contract}" in said and "BROKEN" in said
    assert named in said


def test_no_module_is_longer_than_400_lines():
    code = [ROOT / module for module in MODULES] + [path for package in ("tests", "bench", *PACKAGES)
                                                    for path in (ROOT / package).rglob("*.py")]
    long = {str(path.relative_to(ROOT)): n for path in code if (n := len(path.read_text().splitlines())) > LONGEST}
    assert long == {}


def transactions_opened(path):
    """Line numbers where the module opens a write transaction on the app's database: a call of
    `write(...)` (store/__init__.py's, imported or as `store.write`), an `execute("BEGIN
    IMMEDIATE")`, or a `with ....conn:` (sqlite3's own commit on leaving)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id == "write") or (
                    isinstance(func, ast.Attribute) and func.attr == "write"
                    and isinstance(func.value, ast.Name) and func.value.id == "store"):
                yield node.lineno
            if any(isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                   and arg.value.strip().upper().startswith("BEGIN IMMEDIATE") for arg in node.args):
                yield node.lineno
        if isinstance(node, ast.With | ast.AsyncWith):
            if any(isinstance(item.context_expr, ast.Attribute) and item.context_expr.attr == "conn"
                   for item in node.items):
                yield node.lineno


def test_write_transactions_open_in_the_services_not_the_store():
    """docs/architecture.md: the services open the transactions; the store's functions run inside
    the caller's. Only store/__init__.py, where `write` is, and the migrations (the schema's own
    transactions at start) open one."""
    opened = {f"{path.relative_to(ROOT)}:{line}" for path in sorted((ROOT / "store").rglob("*.py"))
              if path != ROOT / "store" / "__init__.py" and "migrations" not in path.parts
              for line in transactions_opened(path)}
    assert opened == set()
    # The scan finds what it looks for: the services open theirs.
    assert any(transactions_opened(ROOT / "services" / "ratings.py"))
    assert any(transactions_opened(ROOT / "services" / "transfer.py"))


def test_every_module_opens_with_its_docstring():
    """Issue 45, item 9: an import put above a module's docstring made it a stray string (two modules
    had lost theirs): each module of the app says what it is, first."""
    import ast
    code = [ROOT / module for module in MODULES] + [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    lost = [str(path.relative_to(ROOT)) for path in code
            if path.read_text().strip() and ast.get_docstring(ast.parse(path.read_text())) is None]
    assert lost == []
