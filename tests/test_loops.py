"""A test that runs an event loop of its own passes whatever ran before it in its test process
(tests/support/loops.py)."""
import asyncio
import contextlib

import pytest
from playwright.sync_api import sync_playwright

from support import loops


def test_a_tests_own_loop_runs_in_a_process_that_has_driven_a_browser():
    """A browser test leaves Playwright's loop running in the main thread for the rest of its test
    process (its sync API), where `asyncio.run` refuses to start: the tests that run a loop of their
    own failed (16 of them, and a state machine) in a trial order of the suite that ran browser
    tests first in every process; now they run their loops in a thread of their own."""
    async def answer():
        await asyncio.sleep(0)
        return "answered"

    with contextlib.ExitStack() as stack:
        if not playwrights_loop_runs():  # no browser test has run in this process yet: start one's driver
            stack.enter_context(sync_playwright())
        assert playwrights_loop_runs()
        refused = answer()
        with pytest.raises(RuntimeError, match="running event loop"):
            asyncio.run(refused)
        refused.close()
        assert loops.run(answer()) == "answered"
        loop = loops.Loop()
        task = loop.create_task(answer())
        assert loop.run_until_complete(task) == "answered"
        loop.close()


def playwrights_loop_runs():
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
