"""The Flask app under Granian's RSGI interface: each request's body is read before a thread is taken.

Granian's WSGI interface calls the app as soon as a request's headers are in and hands it the body
as a stream that blocks the thread reading it, with no time limit (emmett-framework/granian#728,
closed as "wontfix"): a client that sends its headers and then one byte every few seconds held one
of the app's threads for as long as it liked, and two such clients held them all. Here the body is
read on the event loop, which holds no thread while it waits; only a whole request goes to one of
the app's threads, which runs the WSGI app and sends its answer. A body must arrive within the
grace (ORCHARD_CHANNEL_TIMEOUT, the time the headers may take) plus a second for every
BODY_MIN_RATE bytes it declares, or the answer is 408 and the connection is closed. A body larger
than its page takes is never read: the app answers 413 from the Content-Length alone.
"""
import asyncio
import io
import sys
from concurrent.futures import ThreadPoolExecutor

# A phone's form is a few hundred bytes and comes with its headers; a restore upload of tens of
# megabytes over a slow uplink (64 KB a second, about half a megabit) still arrives in time.
BODY_MIN_RATE = 64 * 1024
SLOW_BODY = (408, "The request took too long to arrive: try again.\n")
NO_LENGTH = (411, "A request with a body must say its length (Content-Length).\n")
BAD_LENGTH = (400, "That Content-Length is not a number of bytes.\n")


def body_seconds(grace, length):
    """How long a body of `length` bytes may take to arrive."""
    return grace + length / BODY_MIN_RATE


class BodyFirst:
    """An RSGI app that runs the WSGI app `wsgi_app` in `threads` threads of its own.

    `accepted(path, method, length)` says whether the page at `path` takes a body of `length`
    bytes: a body it does not take is left unread and the app is called with an empty one (it
    answers 413 from the Content-Length)."""

    def __init__(self, wsgi_app, threads, accepted, grace, multiprocess=False):
        self.wsgi_app = wsgi_app
        self.accepted = accepted
        self.grace = grace
        self.threads = ThreadPoolExecutor(threads, thread_name_prefix="orchard-app")
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
            try:
                body = await asyncio.wait_for(protocol(), body_seconds(self.grace, int(length)))
            except asyncio.TimeoutError:
                return _plain(protocol, *SLOW_BODY)
            except Exception:  # the client went away mid-body: nobody is left to answer
                return None
        # The app's thread sends the answer itself (Granian's protocol takes it from any thread):
        # it leaves at once, not when this loop next gets Python's lock.
        await asyncio.wrap_future(self.threads.submit(self._call, self._environ(scope, headers, body), protocol))

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

    def _call(self, environ, protocol):
        """Run the WSGI app on one of this app's threads and send its answer."""
        answer = []

        def start_response(status, response_headers, exc_info=None):
            answer[:] = [int(status.split(" ", 1)[0]), response_headers]

        chunks = self.wsgi_app(environ, start_response)
        try:
            content = b"".join(chunks)  # a streamed export is joined here, in the app's thread
        finally:
            if hasattr(chunks, "close"):
                chunks.close()
        protocol.response_bytes(answer[0], answer[1], content)


def _plain(protocol, status, sentence):
    protocol.response_str(status, [("content-type", "text/plain; charset=utf-8"), ("connection", "close")],
                          sentence)
