"""Saves and polls on one worker's event loop, in random order, while a slow disk finishes each save's
sync when it likes (cli/body_first.py with the store's deferred syncs). After every step: no save is
answered before the disk has it, and a poll is answered at once, whatever the disk is doing. At the
end, with every sync done, every save is answered, once, with its own answer."""
import asyncio
import threading

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

import store
from cli.body_first import BodyFirst
from support.profiles import examples
from support.rsgi import Protocol, Scope

STEP_SECONDS = 0.02  # the loop's run after each step
PROMPT_SECONDS = 2  # a poll answered later than this was held up
WAIT_SECONDS = 5  # the longest a sync waits to be let finish


class Disk:
    """The store's deferred syncs with a disk that finishes each file's sync only when told."""

    syncs_deferred = staticmethod(store.syncs_deferred)

    def __init__(self):
        self.finish = {}  # file -> Event set when its sync may end
        self.synced = set()
        self.lock = threading.Lock()

    def event(self, path):
        with self.lock:
            return self.finish.setdefault(path, threading.Event())

    def sync_logs(self, paths):
        for path in paths:
            if not self.event(path).wait(WAIT_SECONDS):  # never told: the loop that would tell it was held
                raise OSError(f"the sync of {path} was never let finish")
            with self.lock:
                self.synced.add(path)


def app(environ, start_response):
    """/save/N writes into file N (its sync noted, as store.write does); /poll only reads."""
    path = environ["PATH_INFO"]
    if path.startswith("/save/"):
        store.sync_log(f"/srv/{path.rsplit('/', 1)[1]}.db")
    start_response("200 OK", [("content-type", "text/plain")])
    return [path.encode()]


class DeferredSyncs(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.disk = Disk()
        self.server = BodyFirst(app, 1, lambda path, method, length: True, grace=5,
                                quick=lambda path, method: True, disk=self.disk)
        self.saves = {}  # n -> (Protocol, task)
        self.released = set()

    def step(self):
        self.loop.run_until_complete(asyncio.sleep(STEP_SECONDS))

    @rule()
    def save(self):
        n = len(self.saves)
        protocol = Protocol()
        task = self.loop.create_task(self.server.__rsgi__(Scope(f"/save/{n}", "POST"), protocol))
        self.saves[n] = (protocol, task)
        self.step()

    @rule()
    def poll(self):
        protocol = Protocol()
        self.loop.run_until_complete(
            asyncio.wait_for(self.server.__rsgi__(Scope("/poll"), protocol), PROMPT_SECONDS))
        assert (protocol.status, protocol.body) == (200, b"/poll")

    @precondition(lambda self: set(self.saves) - self.released)
    @rule(data=st.data())
    def disk_finishes_a_sync(self, data):
        n = data.draw(st.sampled_from(sorted(set(self.saves) - self.released)))
        self.released.add(n)
        self.disk.event(f"/srv/{n}.db").set()
        self.step()

    @invariant()
    def no_save_is_answered_before_the_disk_has_it(self):
        for n, (protocol, _) in self.saves.items():
            if protocol.answered.is_set():
                assert f"/srv/{n}.db" in self.disk.synced, n
                assert (protocol.status, protocol.body) == (200, f"/save/{n}".encode())

    def teardown(self):
        try:
            for n in self.saves:
                self.disk.event(f"/srv/{n}.db").set()
            tasks = [task for _, task in self.saves.values()]
            if tasks:
                self.loop.run_until_complete(asyncio.wait_for(asyncio.gather(*tasks), 10))
            for n, (protocol, _) in self.saves.items():
                assert (protocol.status, protocol.body) == (200, f"/save/{n}".encode())
        finally:
            for event in self.disk.finish.values():
                event.set()
            self.server.threads.shutdown(wait=True)
            self.server.syncing.shutdown(wait=True)
            self.loop.close()


def test_saves_and_polls_on_one_loop_with_a_slow_disk():
    run_state_machine_as_test(DeferredSyncs, settings=settings(
        max_examples=examples(30), stateful_step_count=20, deadline=None,
        suppress_health_check=[HealthCheck.too_slow]))
