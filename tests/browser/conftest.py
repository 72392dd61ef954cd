"""Real-browser fixtures: the app served by waitress on loopback, Debian's chromium driven by Playwright."""
import os
import shutil
import threading
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from waitress import create_server

from app import create_app

CHROMIUM = os.environ.get("ORCHARD_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    # This hook sees the whole session's items: mark only the ones in this folder.
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    # Missing chromium must fail loudly: `make test` installs it, and CI must never skip these.
    assert shutil.which(CHROMIUM) or Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run `make test`"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def server(tmp_path):
    """The app on a free loopback port, with its own database; yields the base URL."""
    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "browser-tests"})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    thread.join(timeout=5)


@pytest.fixture
def phone(browser):
    """A fresh phone-sized browser context (its own cookies), light colour scheme."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(phone):
    page = phone.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


def shoot(page, name, dark=False):
    """Keep a full-page screenshot as a test artifact (git ignores the folder)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.emulate_media(color_scheme="dark" if dark else "light")
    page.screenshot(path=str(ARTIFACTS / f"{name}{'-dark' if dark else ''}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def assert_fits_phone(page):
    """No sideways scrolling on a phone."""
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


def small_tap_targets(page):
    """Visible buttons, links and choices smaller than 44 px in either direction."""
    return page.evaluate(
        """() => [...document.querySelectorAll('button, a, .choice span, select, input:not([type=hidden]):not([type=radio])')]
            .filter(el => el.offsetParent !== null)
            .map(el => [el, el.getBoundingClientRect()])
            .filter(([el, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
            .map(([el, r]) => `${el.tagName} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
