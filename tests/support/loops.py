"""An event loop of a test's own, run in a thread of its own. A browser test earlier in the same
test process leaves Playwright's loop marked as running in the main thread (its sync API runs it
there for the whole session), and asyncio then refuses to start another there: `asyncio.run`
raises, and so does a loop's `run_until_complete`. Which tests a process ran first is the
scheduler's choice (tests/conftest.py), so every test that runs a loop runs it here."""
import asyncio
from concurrent.futures import ThreadPoolExecutor


def run(coroutine):
    """`asyncio.run(coroutine)`, in a thread of its own; returns what it returns."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


class Loop:
    """A new event loop that runs a step at a time, always in the same thread of its own."""

    def __init__(self):
        self.thread = ThreadPoolExecutor(1)
        self.loop = asyncio.new_event_loop()

    def create_task(self, coroutine):
        return self.thread.submit(self.loop.create_task, coroutine).result()

    def run_until_complete(self, awaitable):
        return self.thread.submit(self.loop.run_until_complete, awaitable).result()

    def close(self):
        self.thread.submit(self.loop.close).result()
        self.thread.shutdown(wait=True)
