"""Fixtures: a fresh app on a temporary SQLite file for every test, and helpers for common steps."""
import shutil

import pytest

from store.backup import backup
from support.apps import make_app, share_compiled_templates
from support.hostile import World
from support.known_history import build_known_history
from support.profiles import CHECK  # noqa: F401 (loads hypothesis's profile: short in make check)
from support.table import Table

share_compiled_templates()

# The longest tests (10 to 40 s each on 2 cores, longest first, as a fresh clone's --durations
# listed them) start first. pytest-xdist's worksteal hands each process a run of consecutive tests,
# so they all go to the first process and run one after another while the others run the rest; an
# idle process takes tests from the end of the longest queue, the short ones. (Dealing them out so
# every process starts on long tests was tried on 2026-12-06, docs/architecture.md: no quicker.)
LONGEST_FIRST = (
    "browser/test_accessibility.py::test_axe_finds_nothing",
    "browser/test_club_night.py::test_nine_players_three_stages",
    "test_round_machine.py::test_a_round_machine_long_run",
    "test_club_night_machine.py::test_a_club_night_machine_long_run",
    "test_stage_clock_machine.py::test_the_stage_clock_machine_long_run",
    "browser/test_csp.py::",
    "browser/test_table_follows.py::",
    "test_restore_property.py::test_mutated_exports_long_run",
    "browser/test_seat_privacy.py::",
    "browser/test_night_follow_browser.py::test_four_phones",
    "browser/test_four_phones.py::",
    "test_bench_smoke.py::test_a_bench_still_runs[load_night.py]",
    "browser/test_table_trust.py::",
    "test_season_machine.py::test_a_season_machine_long_run",
    "test_club_night_log.py::test_a_restored_night_whose_log_is_full",
    "browser/test_layout_sweep.py::",
    "browser/test_two_phones.py::",
    "browser/test_full_game_quick.py::",
    "browser/test_corrections.py::",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    def rank(item):
        return next((n for n, name in enumerate(LONGEST_FIRST) if name in item.nodeid), len(LONGEST_FIRST))
    items.sort(key=rank)  # a stable sort: every other test keeps its place


@pytest.fixture
def app(tmp_path):
    """A fresh app on its own database file (a copy of one migrated once per run)."""
    return make_app(tmp_path / "orchard.db")


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def table(client):
    return Table(client)


@pytest.fixture
def crew(table):
    """A new crew's link, "/c/<token>/"."""
    return table.start_crew()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Two crews in one database: a victim's, and an attacker's who knows every id."""
    return World(tmp_path_factory.mktemp("hostile") / "orchard.db")


@pytest.fixture(scope="session")
def known_template(tmp_path_factory):
    """The known history, built once: a database file to copy, and the crew's URL."""
    folder = tmp_path_factory.mktemp("known")
    app = make_app(folder / "live.db")
    crew_url = build_known_history(app.test_client())
    backup(folder / "live.db", folder / "known.db")
    return folder / "known.db", crew_url


@pytest.fixture
def known(tmp_path, known_template):
    """A fresh app on a copy of the known history: (app, client, crew URL)."""
    template, crew_url = known_template
    shutil.copy(template, tmp_path / "orchard.db")
    app = make_app(tmp_path / "orchard.db")
    return app, app.test_client(), crew_url
