"""Saves and polls on one worker's event loop, in random order, while a slow disk finishes each save's
sync when it likes (cli/body_first.py with the store's deferred syncs). After every step: no save is
answered before the disk has it, and a poll is answered at once, whatever the disk is doing. At the
end, with every sync done, every save is answered, once, with its own answer."""
import asyncio

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from cli.body_first import BodyFirst
from support.loops import Loop
from support.profiles import examples
from support.rsgi import Protocol, Scope, SlowDisk, saving_app

STEP_SECONDS = 0.005  # the loop's run after each step: a turn or two
PROMPT_SECONDS = 2  # a poll answered later than this was held up


async def gathered(tasks):
    return await asyncio.gather(*tasks)


class DeferredSyncs(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.loop = Loop()
        self.disk = SlowDisk()
        self.server = BodyFirst(saving_app, 1, lambda path, method, length: True, grace=5,
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
        self.disk.finish(f"/srv/{n}.db")
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
                self.disk.finish(f"/srv/{n}.db")
            tasks = [task for _, task in self.saves.values()]
            if tasks:
                self.loop.run_until_complete(asyncio.wait_for(gathered(tasks), 10))
            for n, (protocol, _) in self.saves.items():
                assert (protocol.status, protocol.body) == (200, f"/save/{n}".encode())
        finally:
            self.disk.finish_all()
            self.server.threads.shutdown(wait=True)
            self.server.syncing.shutdown(wait=True)
            self.loop.close()


def test_saves_and_polls_on_one_loop_with_a_slow_disk():
    run_state_machine_as_test(DeferredSyncs, settings=settings(
        max_examples=examples(30), stateful_step_count=20, deadline=None,
        suppress_health_check=[HealthCheck.too_slow]))
