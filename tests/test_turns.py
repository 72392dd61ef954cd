"""A tap before a poll on a worker's event loop (cli/turns.py, cli/body_first.py): the quick pages
take turns by deadline, a poll's patience is bounded, and a request whose task is cancelled never
stalls the turns."""
import asyncio
import time

from hypothesis import given, settings, strategies as st

from cli.body_first import BodyFirst
from cli.turns import POLL_PATIENCE, Turns, patience
from support import loops
from support.rsgi import Protocol, Scope


def test_a_poll_may_wait_for_taps_and_pages_may_not():
    assert patience("GET", "/c/tok/games/3/live") == POLL_PATIENCE
    assert patience("GET", "/c/tok/games/3/rounds/2/live") == POLL_PATIENCE
    for method, path in [("POST", "/c/tok/games/3/rounds/2/hands/0/counts/7"), ("POST", "/c/tok/games/3/rounds"),
                         ("GET", "/c/tok/games/3"), ("GET", "/c/tok/games/3/rounds/2"),
                         ("POST", "/c/tok/games/3/live")]:
        assert patience(method, path) == 0.0, (method, path)


def _served(arrivals):
    """Requests of (name, patience) arriving together: the order they ran in."""
    turns, ran = Turns(), []

    async def request(name, seconds):
        await turns.run(lambda: ran.append(name), seconds)

    async def all_of_them():
        await asyncio.gather(*(request(name, seconds) for name, seconds in arrivals))

    loops.run(all_of_them())
    return ran


def test_a_tap_that_arrives_behind_polls_runs_before_them():
    assert _served([("poll 1", POLL_PATIENCE), ("poll 2", POLL_PATIENCE), ("tap", 0.0),
                    ("poll 3", POLL_PATIENCE), ("save", 0.0)]) == ["tap", "save", "poll 1", "poll 2", "poll 3"]


def test_requests_of_one_kind_run_in_the_order_they_came():
    assert _served([(f"tap {n}", 0.0) for n in range(6)]) == [f"tap {n}" for n in range(6)]


def test_a_poll_that_has_waited_its_patience_goes_before_a_tap_that_came_after():
    turns, ran = Turns(), []

    def job(name, hold):
        ran.append(name)
        time.sleep(hold)  # a long page holds the loop: the poll's patience runs out

    async def request(name, seconds, hold=0.0):
        await turns.run(lambda: job(name, hold), seconds)

    async def scene():
        long_page = asyncio.ensure_future(request("long page", 0.0, hold=0.15))
        poll = asyncio.ensure_future(request("poll", 0.1))
        while not ran:  # both wait; the long page is chosen first and holds the loop 0.15 s
            await asyncio.sleep(0)
        assert ran == ["long page"]
        tap = asyncio.ensure_future(request("tap", 0.0))  # came 0.15 s after the poll
        await asyncio.gather(long_page, poll, tap)

    loops.run(scene())
    assert ran == ["long page", "poll", "tap"]


def test_a_request_whose_task_is_cancelled_is_passed_over_and_a_page_that_fails_fails_alone():
    turns, ran = Turns(), []

    def fails():
        raise RuntimeError("the page failed")

    async def request(name, seconds, job=None):
        await turns.run(job or (lambda: ran.append(name)), seconds)

    async def scene():
        first = asyncio.ensure_future(request("first", 0.0))
        gone = asyncio.ensure_future(request("gone", 0.0))
        failing = asyncio.ensure_future(request("failing", 0.0, fails))
        last = asyncio.ensure_future(request("last", 0.0))
        await asyncio.sleep(0)  # all four wait for the next turn of the loop
        gone.cancel()
        results = await asyncio.wait_for(asyncio.gather(first, gone, failing, last, return_exceptions=True), 2)
        assert [type(result).__name__ for result in results] == ["NoneType", "CancelledError", "RuntimeError",
                                                                 "NoneType"]

    loops.run(scene())
    assert ran == ["first", "last"]
    assert not turns.waiting and not turns.armed  # the turns are free again


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["tap", "poll", "gone", "fails"]), min_size=1, max_size=6),
                min_size=1, max_size=6))
def test_every_request_runs_once_and_no_poll_runs_before_a_tap_that_came_with_it(batches):
    """Batches of requests arrive one turn of the loop apart; some are cancelled while they wait,
    some pages fail."""
    turns, ran = Turns(), []

    def job(name):
        ran.append(name)
        if name.startswith("fails"):
            raise ValueError(name)

    async def scene():
        tasks = {}
        for batch_number, batch in enumerate(batches):
            for n, kind in enumerate(batch):
                name = f"{kind} {batch_number}.{n}"
                tasks[name] = asyncio.ensure_future(
                    turns.run(lambda name=name: job(name), 10.0 if kind == "poll" else 0.0))
            await asyncio.sleep(0)
            for name, task in tasks.items():
                if name.startswith("gone") and not task.done():
                    task.cancel()
        await asyncio.wait_for(asyncio.gather(*tasks.values(), return_exceptions=True), 5)
        return tasks

    tasks = loops.run(scene())
    stayed = [name for name, task in tasks.items() if not task.cancelled()]
    assert sorted(ran) == sorted(stayed)  # each request that stayed ran, once
    for name in stayed:  # and got what its page gave: its answer, or its failure
        failure = tasks[name].exception()
        assert (repr(failure) == repr(ValueError(name))) if name.startswith("fails") else failure is None
    assert not turns.waiting and not turns.armed  # the turns are free again
    # A poll (patient for 10 s) never ran while a tap that came before it or with it still waited.
    for position, name in enumerate(ran):
        if name.startswith("poll"):
            assert not [tap for tap in ran[position:] if tap.startswith("tap")
                        and _batch(tap) <= _batch(name)], ran


def _batch(name):
    return int(name.split()[1].split(".")[0])


def test_the_server_answers_a_tap_before_the_polls_that_came_in_with_it():
    seen = []

    def app(environ, start_response):
        seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
        start_response("200 OK", [("content-type", "text/plain")])
        return [b"ok"]

    server = BodyFirst(app, 1, lambda path, method, length: True, grace=5, quick=lambda path, method: True)

    async def table():
        requests = [Scope("/c/t/games/1/live"), Scope("/c/t/games/1/rounds/2/live"),
                    Scope("/c/t/games/1/rounds/2/hands/0/counts/7", method="POST"), Scope("/c/t/games/1/live")]
        answers = [Protocol() for _ in requests]
        await asyncio.wait_for(asyncio.gather(*(server.__rsgi__(scope, protocol)
                                                for scope, protocol in zip(requests, answers))), 5)
        assert [protocol.status for protocol in answers] == [200] * 4

    try:
        loops.run(table())
    finally:
        server.threads.shutdown(wait=True)
    assert seen == [("POST", "/c/t/games/1/rounds/2/hands/0/counts/7"), ("GET", "/c/t/games/1/live"),
                    ("GET", "/c/t/games/1/rounds/2/live"), ("GET", "/c/t/games/1/live")]
