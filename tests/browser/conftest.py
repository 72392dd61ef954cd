"""Real-browser fixtures: the app served by waitress on loopback, Debian's Chromium driven by Playwright
(its headless shell, or the browser itself for the tests marked `full_chromium`)."""
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from app import create_app
from support.apps import fresh_database
from support.loopback import in_a_thread
from support.browser import CHROMIUM, CHROMIUM_ARGS, HEADLESS_SHELL, POLL_SECONDS, MOVE_ON_SECONDS, Orchard, new_phone, watched_page, close_phone

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    # This hook sees the whole session's items: mark only the ones in this folder.
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def launched(playwright, executable):
    # A missing browser must fail loudly: `make test` installs it, and CI must never skip these.
    assert shutil.which(executable) or Path(executable).exists(), f"{executable} is missing: run `make test`"
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


def closed(browser):
    for context in browser.contexts:  # one a failed test left open goes first, on its own
        close_phone(context)
    browser.close()


@pytest.fixture(scope="session")
def playwright():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def headless_shell(playwright):
    """Debian's chromium-headless-shell: the browser of every test not marked `full_chromium`."""
    browser = launched(playwright, HEADLESS_SHELL)
    yield browser
    closed(browser)


@pytest.fixture(scope="session")
def full_chromium(playwright):
    """Debian's /usr/bin/chromium itself, started only in a process that runs a test marked
    `full_chromium`."""
    browser = launched(playwright, CHROMIUM)
    yield browser
    closed(browser)


@pytest.fixture
def browser(request):
    """The Chromium a test's phones are opened in: the headless shell, or the browser itself for a
    test marked `full_chromium` (a smoke set of what a phone's browser does beyond drawing pages:
    a whole game, four phones, the offline page and service worker, taps kept over a reload)."""
    return request.getfixturevalue("full_chromium" if request.node.get_closest_marker("full_chromium") else "headless_shell")


@pytest.fixture
def server(tmp_path):
    """The app on a free loopback port, with its own database (a copy of one migrated once);
    yields the base URL."""
    app = create_app({"DATABASE": str(fresh_database(tmp_path / "orchard.db")), "SECRET_KEY": "browser-tests", "POLL_SECONDS": POLL_SECONDS,
                      "MOVE_ON_SECONDS": MOVE_ON_SECONDS})
    with in_a_thread(app) as base:
        yield base


@pytest.fixture
def phone(browser, server):
    """A fresh phone-sized browser context (its own cookies), light colour scheme.

    It asks for `server` so that it closes first: a page still holding connections open would
    keep the server's thread alive for the whole 5 s join timeout."""
    context = new_phone(browser)
    yield context
    close_phone(context)


@pytest.fixture
def page(phone):
    page, errors = watched_page(phone)
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def other_phone(browser, server):
    """A second phone at the same table: its own browser context (own cookies), the same size."""
    context = new_phone(browser)
    page, errors = watched_page(context)
    yield Orchard(page, server)
    close_phone(context)
    assert not errors, f"JavaScript errors on the second phone: {errors}"


@pytest.fixture
def orchard(page, server):
    return Orchard(page, server)
