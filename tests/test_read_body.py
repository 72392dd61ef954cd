"""How a request's body is read on the worker's event loop (cli/body_first.py's read_body): a tap's
form, already in hand, costs one turn of the loop, not one for each task and wait around it; a body
that stops arriving is cut off; one still arriving after SETTLE_SECONDS takes its address's share,
or ends with BusyAddress when there is none left."""
import asyncio
import threading

import pytest

from cli import body_first
from cli.body_first import BusyAddress, LocalBodies, Share, SlowBody, read_body
from support import loops


class Body:
    """Granian's request body as an async iterator: each chunk is handed over by a callback on the
    loop, as Granian's Rust side does (`call_soon_threadsafe`): at once, or from another thread
    `delay` seconds after it is asked for."""

    def __init__(self, chunks, delay=None):
        self.chunks, self.delay = list(chunks), delay

    def __aiter__(self):
        return self

    def __anext__(self):
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        chunk = self.chunks.pop(0) if self.chunks else None

        def hand_over():
            if chunk is None:
                return  # nothing more is ever sent: the client went quiet
            try:
                loop.call_soon_threadsafe(lambda: future.done() or future.set_result(chunk))
            except RuntimeError:  # the loop is closed: the request was answered without it
                pass

        if self.delay is None:
            hand_over()
        else:
            threading.Timer(self.delay, hand_over).start()
        return future


async def turns_while(awaitable):
    """What `awaitable` gives, and how many turns the event loop took meanwhile (each turn runs
    every callback ready at its start: at 300 tables, every other request in hand)."""
    loop = asyncio.get_running_loop()
    turns, done = 0, False

    def tick():
        nonlocal turns
        turns += 1
        if not done:
            loop.call_soon(tick)

    loop.call_soon(tick)
    try:
        return await awaitable, turns
    finally:
        done = True


def test_a_taps_form_already_in_hand_is_read_in_one_turn_of_the_loop():
    form = b"count=2&csrf_token=abc"

    async def tap():
        return await turns_while(read_body(Body([form]), len(form), grace=5))

    body, turns = loops.run(tap())
    assert body == form
    assert turns == 2  # the chunk's hand-over, and the turn the request goes on in (5 before)


def test_a_body_in_several_chunks_is_joined_in_order():
    chunks = [b"a" * 10, b"b" * 10, b"c" * 5]
    assert loops.run(read_body(Body(chunks), 25, grace=5)) == b"".join(chunks)


def test_a_body_that_stops_arriving_is_cut_off_once_it_falls_behind():
    async def silent():
        started = asyncio.get_running_loop().time()
        with pytest.raises(SlowBody):
            await read_body(Body([b"x" * 10]), 10_000, grace=0.2)
        return asyncio.get_running_loop().time() - started

    assert 0.2 <= loops.run(silent()) < 1.5


def test_a_body_still_arriving_after_the_settle_time_takes_a_share_or_is_refused(monkeypatch):
    monkeypatch.setattr(body_first, "SETTLE_SECONDS", 0.1)
    bodies = LocalBodies()

    async def slow(cap):
        share = Share(bodies, "203.0.113.9", cap)
        try:
            body = await read_body(Body([b"a" * 4, b"b" * 4], delay=0.15), 8, grace=5, share=share)
            return body, share.taken, asyncio.current_task().cancelling()
        except BusyAddress:
            return "busy", share.taken, asyncio.current_task().cancelling()
        finally:
            share.give_back()

    assert loops.run(slow(cap=1)) == (b"aaaabbbb", True, 0)  # read on, counted once it was slow
    assert bodies.counts == {}
    assert loops.run(slow(cap=0)) == ("busy", False, 0)  # no share left: refused, the task not left cancelled
