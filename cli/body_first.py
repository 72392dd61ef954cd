"""The Flask app under Granian's RSGI interface: each request's body is read before a thread is taken.

Granian's WSGI interface calls the app as soon as a request's headers are in and hands it the body
as a stream that blocks the thread reading it, with no time limit (emmett-framework/granian#728,
closed as "wontfix"): a client that sends its headers and then one byte every few seconds held one
of the app's threads for as long as it liked, and two such clients held them all. Here the body is
read on the event loop, which holds no thread while it waits; only a whole request goes to one of
the app's threads, which runs the WSGI app and sends its answer. A body larger than its page takes
is never read: the app answers 413 from the Content-Length alone.

A body read holds its connection, so no one may hold many (issue 38.6: the time a body had grew
with the length it declared, and 44 uploads that declared 60 MB and sent nothing held the
connections for 980 s):
- it must keep arriving: once the grace is over (ORCHARD_CHANNEL_TIMEOUT, the time the headers may
  take), a body that has delivered less than BODY_MIN_RATE bytes for each second past the grace is
  cut off with 408 and the connection closed; one that sends nothing is cut off after the grace;
- one address may have at most ORCHARD_BODIES_PER_ADDRESS bodies being read at once, over all the
  worker processes (counted in the limits file, store/limits.py; behind ORCHARD_TRUSTED_PROXY, the
  address the proxy names); one more is answered 429 and
  its connection closed. A body is counted once it has taken SETTLE_SECONDS: a phone's form comes
  with its headers and is in at once, so phones behind one address (a club's Wi-Fi) tapping all at
  once are never counted, and one more slow body is refused a second after its headers.
"""
import asyncio
import io
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from cli.turns import Turns, patience

# A phone's form is a few hundred bytes and comes with its headers; a restore upload of tens of
# megabytes over a slow uplink (64 KB a second, about half a megabit) still arrives in time.
BODY_MIN_RATE = 64 * 1024
SLOW_BODY = (408, "The request took too long to arrive: try again.\n")
# A body not in hand this long after its headers counts against its address's share.
SETTLE_SECONDS = 1.0
BUSY_ADDRESS = (429, "This address is already sending several requests to the server: wait for them "
                     "to arrive, then try again.\n")
UNSYNCED = (503, "The server could not make sure the disk has this change: reload the page to see "
                 "what was kept.\n")
NO_LENGTH = (411, "A request with a body must say its length (Content-Length).\n")
BAD_LENGTH = (400, "That Content-Length is not a number of bytes.\n")


def body_seconds(grace, length):
    """How long a body of `length` bytes may take to arrive at the slowest: the time by which the
    first `length` bytes of any body must be in."""
    return grace + length / BODY_MIN_RATE


class SlowBody(Exception):
    """The body fell behind BODY_MIN_RATE after the grace."""


class BusyAddress(Exception):
    """The body's address already has its share of bodies being read."""


class LocalBodies:
    """The bodies being read, per address, in this process alone (one process serving, or tests);
    `store.limits.SharedBodies` counts them over every worker process the same way."""

    def __init__(self):
        self.counts = Counter()

    def take(self, address, cap):
        if self.counts[address] >= cap:
            return False
        self.counts[address] += 1
        return True

    def give_back(self, address):
        self.counts[address] -= 1
        if self.counts[address] <= 0:
            del self.counts[address]


class Share:
    """One body's place among its address's bodies being read (`bodies`: LocalBodies or
    SharedBodies), taken only once the body is slow to arrive (`take`, which raises BusyAddress
    when the address has `cap` already)."""

    def __init__(self, bodies, address, cap):
        self.bodies, self.address, self.cap, self.taken = bodies, address, cap, False

    def take(self):
        if not self.bodies.take(self.address, self.cap):
            raise BusyAddress()
        self.taken = True

    def give_back(self):
        if self.taken:
            self.bodies.give_back(self.address)
            self.taken = False


async def read_body(protocol, length, grace, share=None):
    """The body's `length` bytes, as they arrive; SlowBody once it falls behind (see the module's
    docstring), BusyAddress when it is still arriving after SETTLE_SECONDS and `share` cannot be
    taken, EOFError when the client leaves before all of it is in.

    Each chunk is awaited by the request's own task, under a deadline (`asyncio.timeout_at`), with
    no task of its own and no `asyncio.wait`: a tap's form, in hand with its headers, then costs two
    turns of the event loop, not five, and each turn waits behind every request the loop has in
    hand (at 300 tables, bench/load.py, the server spent 20 ms at the p95 on a tap against 2 ms on
    a poll). A deadline that passes cancels the chunk being awaited, so it only ever ends the
    reading; the share is taken by a timer instead, which cancels the reading only when the
    address has no share left."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    chunks, received = [], 0
    busy = False
    task = asyncio.current_task()

    def settle():
        nonlocal busy
        try:
            share.take()
        except BusyAddress:
            busy = True
            task.cancel()

    settling = loop.call_at(started + SETTLE_SECONDS, settle) if share is not None else None
    stream = protocol.__aiter__()
    try:
        while received < length:
            try:
                async with asyncio.timeout_at(started + body_seconds(grace, received)):
                    chunk = await stream.__anext__()
            except TimeoutError:
                raise SlowBody() from None
            except StopAsyncIteration:
                break
            if not chunk:  # Granian's end of the body
                break
            chunks.append(chunk)
            received += len(chunk)
    except asyncio.CancelledError:
        if not busy:
            raise
        task.uncancel()
        raise BusyAddress() from None
    finally:
        if settling is not None:
            settling.cancel()
    if received < length:
        raise EOFError("the client left before its body was in")
    return b"".join(chunks)


class BodyFirst:
    """An RSGI app that runs the WSGI app `wsgi_app` in `threads` threads of its own.

    `accepted(path, method, length)` says whether the page at `path` takes a body of `length`
    bytes: a body it does not take is left unread and the app is called with an empty one (it
    answers 413 from the Content-Length). `quick(path, method)` says whether the page is run on
    the event loop, without a thread (web/quick.py says which and why), when its turn comes
    (cli/turns.py: a tap before a poll). `disk` (the store
    package) lets a quick page's writes leave their syncs to a thread of their own: the answer
    leaves once the disk has them, and meanwhile the loop answers other requests."""

    def __init__(self, wsgi_app, threads, accepted, grace, multiprocess=False, per_address=4,
                 trusted_proxy=None, bodies=None, quick=None, disk=None):
        self.wsgi_app = wsgi_app
        self.disk = disk
        self.syncing = ThreadPoolExecutor(2, thread_name_prefix="orchard-sync") if disk else None
        self.accepted = accepted
        self.quick = quick or (lambda path, method: False)
        self.grace = grace
        self.per_address = per_address
        self.trusted_proxy = trusted_proxy
        # address -> its slow bodies being read: here, or over every worker process (`bodies`)
        self.reading = bodies if bodies is not None else LocalBodies()
        self.threads = ThreadPoolExecutor(threads, thread_name_prefix="orchard-app")
        self.turns = Turns()  # the quick pages' turns on the loop: a tap before a poll
        self.base = {
            "SCRIPT_NAME": "",
            "wsgi.version": (1, 0),
            "wsgi.errors": sys.stderr,
            "wsgi.input_terminated": True,
            "wsgi.multithread": True,
            "wsgi.multiprocess": multiprocess,
            "wsgi.run_once": False,
        }

    def __rsgi_del__(self, loop):
        self.threads.shutdown(wait=True)
        if self.syncing:
            self.syncing.shutdown(wait=True)

    async def __rsgi__(self, scope, protocol):
        headers = scope.headers
        length = headers.get("content-length")
        body = b""
        if length is None:
            if "transfer-encoding" in headers:  # chunked: no browser sends a form so
                return _plain(protocol, *NO_LENGTH)
        elif not length.isdigit():
            return _plain(protocol, *BAD_LENGTH)
        elif int(length) and self.accepted(scope.path, scope.method, int(length)):
            share = Share(self.reading, self._address(scope, headers), self.per_address)
            try:
                body = await read_body(protocol, int(length), self.grace, share)
            except SlowBody:
                return _plain(protocol, *SLOW_BODY)
            except BusyAddress:
                return _plain(protocol, *BUSY_ADDRESS)
            except Exception:  # the client went away mid-body: nobody is left to answer
                return None
            finally:
                share.give_back()
        environ = self._environ(scope, headers, body)
        if self.quick(scope.path, scope.method):
            unsynced = await self.turns.run(lambda: self._quick(environ, protocol), patience(scope.method, scope.path))
            if unsynced:
                answer, pending = unsynced
                try:
                    await asyncio.get_running_loop().run_in_executor(self.syncing, self.disk.sync_logs, pending)
                except OSError:
                    return _plain(protocol, *UNSYNCED)
                protocol.response_bytes(*answer)
            return None
        # The app's thread sends the answer itself (Granian's protocol takes it from any thread):
        # it leaves at once, not when this loop next gets Python's lock.
        await asyncio.wrap_future(self.threads.submit(self._call, environ, protocol))

    def _address(self, scope, headers):
        """The client's address; behind the trusted proxy, the last one its X-Forwarded-For names
        (as web/security.py's TrustedProxy believes it)."""
        address = scope.client.rpartition(":")[0].strip("[]")
        if self.trusted_proxy and address == self.trusted_proxy:
            forwarded = headers.get("x-forwarded-for")
            if forwarded:
                return forwarded.rsplit(",", 1)[-1].strip()
        return address

    def _environ(self, scope, headers, body):
        """The request as WSGI (PEP 3333) describes it, as Granian's WSGI interface builds it."""
        environ = dict(self.base)
        server_host, _, server_port = scope.server.rpartition(":")
        environ.update({
            "REQUEST_METHOD": scope.method,
            # PATH_INFO is the decoded path's bytes read as latin-1
            "PATH_INFO": scope.path.encode("utf-8").decode("latin-1"),
            "QUERY_STRING": scope.query_string,
            "SERVER_NAME": server_host.strip("[]"),
            "SERVER_PORT": server_port,
            "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
            "REMOTE_ADDR": scope.client.rpartition(":")[0].strip("[]"),
            "wsgi.url_scheme": scope.scheme,
            "wsgi.input": io.BytesIO(body),
        })
        for name, value in headers.items():
            if name == "content-type":
                key = "CONTENT_TYPE"
            elif name == "content-length":
                key = "CONTENT_LENGTH"
            else:
                key = "HTTP_" + name.upper().replace("-", "_")
            if key in environ:  # a header sent twice is one value, joined
                value = environ[key] + ("; " if name == "cookie" else ",") + value
            environ[key] = value
        if "HTTP_HOST" not in environ:
            environ["HTTP_HOST"] = scope.authority or ""
        return environ

    def _quick(self, environ, protocol):
        """A quick page's turn on the loop: run the WSGI app and send its answer, or, when its writes
        left syncs to do, the answer and those syncs (sent once they are done)."""
        if self.disk is None:
            return self._call(environ, protocol)
        with self.disk.syncs_deferred() as pending:
            answer = self._answer(environ)
        if pending:
            return answer, pending
        protocol.response_bytes(*answer)
        return None

    def _call(self, environ, protocol):
        """Run the WSGI app and send its answer (on one of this app's threads, or a quick page's on the loop)."""
        protocol.response_bytes(*self._answer(environ))

    def _answer(self, environ):
        """Run the WSGI app: its status, headers and body."""
        answer = []

        def start_response(status, response_headers, exc_info=None):
            answer[:] = [int(status.split(" ", 1)[0]), response_headers]

        chunks = self.wsgi_app(environ, start_response)
        try:
            content = b"".join(chunks)  # a streamed export is joined here, in the app's thread
        finally:
            if hasattr(chunks, "close"):
                chunks.close()
        return answer[0], answer[1], content


def _plain(protocol, status, sentence):
    protocol.response_str(status, [("content-type", "text/plain; charset=utf-8"), ("connection", "close")],
                          sentence)
