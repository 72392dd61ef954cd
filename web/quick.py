"""Quick pages: the answers a table asks for all game long, which `orchard serve` runs at once on a
worker's event loop instead of handing them to one of its threads (cli/body_first.py).

Each is a poll, a tap, a bid, a round's start or save, or a page of one game or one round: about a
millisecond for a game of any real length (a save also waits for the disk to have it, a few
milliseconds at most on an SSD). Handing a request to a thread and waking the loop when it is done,
and the threads of one process taking turns at Python's lock, cost about a tenth of the server's CPU
at 300 tables (bench/load.py, docs/performance.md). All of a table's answers are quick: with some of
them left on a thread, a tap on the loop waited for a save on a thread at every turn of the lock.
Anything that may take longer (an upload, an export, the history's pages and charts, a club night's
draw) is not declared quick and keeps its thread, so it never holds up the loop and the tables
behind it.
"""
from functools import lru_cache

from werkzeug.exceptions import HTTPException

# No quick page's address is this long (the longest, a tap on a rank's count, is about 100
# characters); a longer one is answered on a thread without being looked up.
LONGEST_PATH = 256
# Addresses whose answer is remembered, per worker process: the polls and taps of 1,000 tables.
PATHS_KEPT = 4096
# Every poll's address ends so (a game's, a round's, a club night's): the poll answered before
# Flask (web/nothing_new.py) and the poll that waits for taps (cli/turns.py) are told by it.
POLL_ENDING = "/live"


def quick(view):
    """Declare the route below quick (under its `@allow(...)`): its answer is run on the loop."""
    view.quick = True
    return view


def quick_pages(app):
    """`(path, method) -> bool`: whether the page at `path` is quick. Asked on the loop before
    each request, so looked up once per address."""
    urls = app.url_map.bind("localhost")

    @lru_cache(maxsize=PATHS_KEPT)
    def looked_up(path, method):
        try:
            endpoint, _ = urls.match(path, method)
        except HTTPException:  # not found, another method, a redirect: the app answers on a thread
            return False
        return getattr(app.view_functions.get(endpoint), "quick", False)

    def is_quick(path, method):
        return len(path) <= LONGEST_PATH and looked_up(path, method)

    return is_quick
