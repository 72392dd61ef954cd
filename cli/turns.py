"""Who goes next on a worker's event loop: a player's tap before a phone's poll.

A quick page (web/quick.py) runs on the loop from start to end, one at a time, so when requests
come faster than the loop answers them, they wait. By default they wait in the order the loop
happens to wake them, and a tap waits behind every poll that came in before it. A player is looking
at the tap's answer; a poll is a phone asking, every few seconds, whether anything changed, and
nobody notices it come back a few hundred milliseconds later. So each request waits for its turn
by a deadline: the moment it was ready to run, plus the patience of its kind (`patience`):

- a tap, a bid, a save, a round's start or a page a player opened: none, first come first served;
- a poll: POLL_PATIENCE.

The earliest deadline runs next. A poll is never held back for longer than POLL_PATIENCE by the
taps that come after it: once it has waited that long, it goes before any tap that came in since.
At 300 tables on 2 cores (bench/load.py, docs/performance.md) this took the tap p95 from
107-335 ms to 18-27 ms, and the polls absorbed the wait.
"""
import asyncio
import heapq
import itertools

# How much longer than a tap a poll may wait for its turn, in seconds. A phone polls every 3 s
# (the app's POLL_SECONDS); a poll answered within this of its turn keeps the phone that far
# behind at most.
POLL_PATIENCE = 0.5


def patience(method, path):
    """How long a request may wait for its turn behind requests that came after it (seconds)."""
    if method == "GET" and path.endswith("/live"):
        return POLL_PATIENCE
    return 0.0


class Turns:
    """The loop's turns among quick pages. `await turns.wait(seconds)` returns when it is this
    request's turn (earliest deadline first); the request then runs and calls `done()` once it is
    answered, which lets the next one go. One request has the turn at a time."""

    def __init__(self):
        self.waiting = []  # (deadline, arrival, future): a heap, the earliest deadline first
        self.arrivals = itertools.count()
        self.busy = False  # a request has the turn, or the next is about to be chosen

    async def wait(self, patience_seconds):
        loop = asyncio.get_running_loop()
        turn = loop.create_future()
        heapq.heappush(self.waiting, (loop.time() + patience_seconds, next(self.arrivals), turn))
        if not self.busy:
            # The choice is made on the loop's next round, once every request woken with this
            # one has come in too: a tap that arrived with a dozen polls goes first.
            self.busy = True
            loop.call_soon(self._next)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # it had the turn: pass it on
                self.done()
            raise

    def done(self):
        """The request that had the turn is answered: choose the next on the loop's next round."""
        if self.waiting:
            asyncio.get_running_loop().call_soon(self._next)
        else:
            self.busy = False

    def _next(self):
        while self.waiting:
            _, _, turn = heapq.heappop(self.waiting)
            if not turn.done():  # a request whose client left while it waited is passed over
                turn.set_result(None)
                return
        self.busy = False
