"""The browser suite runs in Debian's chromium-headless-shell and its `full_chromium` tests in
/usr/bin/chromium itself (tests/browser/conftest.py): the two are one Chromium build, and each test
gets the one it is meant to."""
import os

import pytest


def program_of(browser):
    """The program file of the running browser's main process, as the kernel sees it."""
    session = browser.new_browser_cdp_session()
    try:
        processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
    finally:
        session.detach()
    pid = next(process["id"] for process in processes if process["type"] == "browser")
    return os.path.basename(os.readlink(f"/proc/{pid}/exe"))


def test_the_headless_shell_is_the_same_chromium_build_as_the_browser(headless_shell, full_chromium):
    assert headless_shell.version == full_chromium.version
    assert program_of(headless_shell) == "chromium-headless-shell"
    assert program_of(full_chromium) == "chromium"


def test_a_browser_test_runs_in_the_headless_shell(browser):
    assert program_of(browser) == "chromium-headless-shell"


@pytest.mark.full_chromium
def test_a_test_marked_full_chromium_runs_in_the_browser_itself(browser):
    assert program_of(browser) == "chromium"
