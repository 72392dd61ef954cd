"""The phones of bench/load.py: what each sends, as a browser does, and how each answer is timed.

A watcher polls a page's `/live?v=N`; the scorekeeper starts a round, opens its page, polls it on
a second connection, taps once a second, saves and opens the scoreboard; a probe fetches a floor.
"""
import asyncio
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

from keepalive import TIMEOUT, Broken, Connection
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import TARGETS, plan_taps

LIVE_VERSION = re.compile(r"/live\?v=(\d+)")
NIGHT_MARK = re.compile(r"/live\?v=([^\"&\s]+)")  # a club night's leaderboard: "version-tables playing.games' boards"
ROUND_ID = re.compile(r"&amp;r=(\d+)")
VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')
SINGLES_FIELD = re.compile(r'name="singles" value="(\d+)"')  # the box saying the cards left out are singles


class Record:
    def __init__(self):
        self.seconds = defaultdict(list)
        self.errors = []
        self.counting = False
        self.work = None  # bench/load.py's work floor, when it is timed

    def add(self, kind, seconds):
        if self.counting:
            self.seconds[kind].append(seconds)

    def error(self, text):
        self.errors.append(text)


class Stopped(Exception):
    """The run is over: the phone puts itself down at its next pause, not after its round."""


async def pause(stop, seconds):
    """Sleep `seconds`, or less if the run stops meanwhile (then Stopped)."""
    if seconds > 0:
        try:
            await asyncio.wait_for(stop.wait(), seconds)
        except asyncio.TimeoutError:
            return
    if stop.is_set():
        raise Stopped()


async def timed(record, kind, connection, method, path, form=None, expect=(200,)):
    try:
        status, headers, data, seconds = await connection.request(method, path, form)
    except asyncio.TimeoutError:
        connection.close()
        record.error(f"{kind}: no answer within {TIMEOUT:g} s")
        raise Broken("unanswered")
    except (OSError, Broken, ValueError, asyncio.IncompleteReadError) as error:
        connection.close()
        record.error(f"{kind}: {error!r}")
        raise Broken(str(error))
    if kind.endswith("live"):  # a poll: "live 204", "night live 200", ...
        kind = f"{kind} {status}"
    record.add(kind, seconds)
    if status not in expect:
        record.error(f"{kind} answered {status}")
        raise Broken(f"{kind} {status}")
    return status, headers, data


async def poller(record, stop, port, cookie, path, version, every, offset, kind="live"):
    """A phone following a page: `path?v=N…` every `every` seconds; a 200 moves its version on."""
    connection = Connection(port, cookie)
    try:
        await pause(stop, offset)
        next_poll = time.monotonic()
        while True:
            try:
                status, headers, data = await timed(record, kind, connection, "GET", path.format(v=version),
                                                    expect=(200, 204))
            except Broken:
                return
            if status == 200:
                found = (NIGHT_MARK if kind != "live" else LIVE_VERSION).search(_text(headers, data))
                version = found.group(1) if found else version
            next_poll += every
            await pause(stop, next_poll - time.monotonic())
    except Stopped:
        return
    finally:
        connection.close()


def _text(headers, data):
    if headers.get("content-encoding") == "gzip":
        import gzip

        data = gzip.decompress(data)
    return data.decode("utf-8", "replace")


async def enterer(record, stop, port, cookie, csrf, game_url, every, offset, poll_every):
    """The phone entering rounds, as its browser does: "Start round" and the round page it opens,
    the page's own poll every `poll_every` seconds (on a connection of its own, as a browser's
    second one), one tap a second (bid, targets, counts), the save and the scoreboard the save
    opens. It starts `offset` seconds in, so the tables tap out of step, as at a real club night."""
    connection = Connection(port, cookie, csrf)
    shown = {}  # what the round page shows: the poll's version and the save form's, as each answer moves them

    async def tap(kind, path, form=None, expect=(200,)):
        await pause(stop, every)
        answer = await timed(record, kind, connection, "POST", path, form, expect)
        learn(_text(answer[1], answer[2]))
        return answer

    def learn(text):
        for key, pattern in (("v", LIVE_VERSION), ("version", VERSION_FIELD), ("singles", SINGLES_FIELD)):
            found = pattern.search(text)
            if found:
                shown[key] = found.group(1)

    async def own_poll(path):
        """The round page's poll, on the browser's second connection, with the version the page shows."""
        second = Connection(port, cookie)
        try:
            while True:
                await pause(stop, poll_every)
                status, headers, data = await timed(record, "live", second, "GET", path.format(v=shown["v"]),
                                                    expect=(200, 204))
                if status == 200:
                    learn(_text(headers, data))
        except (Broken, Stopped, asyncio.CancelledError):
            pass
        finally:
            second.close()

    try:
        await pause(stop, offset)
        while True:
            _, headers, _ = await timed(record, "start", connection, "POST", game_url + "/rounds",
                                        expect=(200, 303))  # htmx is sent on with HX-Redirect
            url = re.sub(r"^https?://[^/]+", "", headers.get("hx-redirect") or headers["location"])
            number = int(url.rsplit("/", 1)[1])
            _, headers, data = await timed(record, "round page", connection, "GET", url)
            page = _text(headers, data)
            learn(page)
            polling = asyncio.create_task(own_poll(f"{url}/live?v={{v}}&r={ROUND_ID.search(page).group(1)}&seat=0"))
            await tap("tap", url + "/bid", {"bidder": number % 4, "number": 2, "suit": "H"})
            for seat, target in enumerate(TARGETS):
                await tap("tap", url + f"/hands/{seat}/target", {"target": target})
            for seat, rank, n in plan_taps(number):
                await tap("tap", url + f"/hands/{seat}/counts/{rank}", {"count": n})
            await tap("save", url + "/save", {"version": shown["version"], "singles": shown.get("singles", "")},
                      expect=(200, 303))  # htmx: HX-Redirect
            polling.cancel()
            await timed(record, "scoreboard", connection, "GET", game_url)  # where the save leads
    except (Broken, Stopped):
        return
    finally:
        connection.close()


async def probe(record, stop, port, kind, path, every=0.25):
    connection = Connection(port, htmx=False)
    try:
        while True:
            try:
                await timed(record, kind, connection, "GET", path)
            except Broken:
                return
            await pause(stop, every)
    except Stopped:
        return
    finally:
        connection.close()


def round_seconds(tap_every):
    """How long the enterer takes over a round: the bid, four targets, the counts and the save."""
    return (1 + len(TARGETS) + len(plan_taps(1)) + 1) * tap_every
