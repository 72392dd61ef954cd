"""Who goes next on a worker's event loop: a player's tap before a phone's poll.

A quick page (web/quick.py) runs on the loop from start to end, one at a time, so when requests
come faster than the loop answers them, they wait. Left to the loop, they run in the order it
wakes them, and a tap waits behind every poll that came in before it. A player is looking at the
tap's answer; a poll is a phone asking, every few seconds, whether anything changed, and nobody
notices it come back a few hundred milliseconds later. So each quick page is a job that waits for
its turn by a deadline: the moment it came in, plus the patience of its kind (`patience`):

- a tap, a bid, a save, a round's start or a page a player opened: none, first come first served;
- a poll: POLL_PATIENCE.

The earliest deadline runs next. A poll is never held back for longer than POLL_PATIENCE by the
taps that come after it: once it has waited that long, it goes before any tap that came in since.

One job runs a turn of the loop: between two, the loop takes in what has come meanwhile (new
requests, bodies, finished syncs), so a tap that comes while polls wait runs next. The job runs, and
sends its answer, in the turn that chooses it; its request's task only learns it is done. (A first
try woke the chosen request's task to run its own page, a second turn of the loop for each: a poll
cost a seventh more CPU. Running the jobs waiting for up to 5 ms a turn was no cheaper than one a
turn, and let taps wait longer: docs/performance.md.)
"""
import asyncio
import contextvars
import heapq
import itertools

from web.quick import POLL_ENDING

# How much longer than a tap a poll may wait for its turn, in seconds. A phone polls every 3 s
# (the app's POLL_SECONDS): waiting this long on top, it learns of a change at most this much later.
POLL_PATIENCE = 0.5


def patience(method, path):
    """How long a request may wait for its turn behind requests that came after it (seconds)."""
    if method == "GET" and path.endswith(POLL_ENDING):
        return POLL_PATIENCE
    return 0.0


class Turns:
    """The loop's turns among quick pages. `await turns.run(job, seconds)` runs `job()` on the loop
    when its turn comes (earliest deadline first, `seconds` of patience) and returns what it
    returned, or raises what it raised. A request whose task is cancelled while it waits is passed
    over."""

    def __init__(self):
        self.waiting = []  # (deadline, arrival, job, future): a heap, the earliest deadline first
        self.arrivals = itertools.count()
        self.armed = False  # a turn of the loop is due to run the next job

    def run(self, job, patience_seconds):
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        heapq.heappush(self.waiting, (loop.time() + patience_seconds, next(self.arrivals), job, done))
        if not self.armed:
            # On the loop's next turn, once every request woken with this one has come in too:
            # a tap that arrived with a dozen polls goes first.
            self.armed = True
            loop.call_soon(self._run_waiting)
        return done

    def _run_waiting(self):
        """The earliest deadline's job, on this turn of the loop; the next on the next turn."""
        while self.waiting:
            _, _, job, done = heapq.heappop(self.waiting)
            if done.done():  # its task was cancelled while it waited
                continue
            try:
                done.set_result(contextvars.copy_context().run(job))
            except Exception as error:  # the request's own task raises it, as if it had run there
                done.set_exception(error)
            break
        if self.waiting:
            asyncio.get_running_loop().call_soon(self._run_waiting)
        else:
            self.armed = False
