"""An RSGI request as Granian hands one to an app, and the answer it would send: for tests of
cli/body_first.py without a server."""
import threading

import store


class Scope:
    """An RSGI request's scope, as Granian hands it (headers lower-cased)."""

    def __init__(self, path, method="GET"):
        self.path, self.method = path, method
        self.headers = {"host": "127.0.0.1"}
        self.query_string = ""
        self.server, self.client = "127.0.0.1:8000", "127.0.0.1:50000"
        self.http_version, self.scheme, self.authority = "1.1", "http", None


class Protocol:
    """The answer Granian would send: status and body, once, from any thread."""

    def __init__(self):
        self.answered = threading.Event()
        self.status = self.body = None

    def response_bytes(self, status, headers, body):
        self.status, self.body = status, body
        self.answered.set()

    def response_str(self, status, headers, body):
        self.response_bytes(status, headers, body.encode())


class SlowDisk:
    """The store's deferred syncs (cli/body_first.py's `disk`) over a disk that finishes each file's
    sync only when the test says (`finish`), or fails every sync (`fails`)."""

    syncs_deferred = staticmethod(store.syncs_deferred)
    WAIT_SECONDS = 5  # the longest a sync waits to be let finish

    def __init__(self, fails=False):
        self.fails = fails
        self.finishing = {}  # file -> Event set when its sync may end
        self.synced = set()
        self.lock = threading.Lock()

    def _event(self, path):
        with self.lock:
            return self.finishing.setdefault(path, threading.Event())

    def finish(self, path):
        self._event(path).set()

    def finish_all(self):
        with self.lock:
            events = list(self.finishing.values())
        for event in events:
            event.set()

    def sync_logs(self, paths):
        for path in paths:
            if self.fails:
                raise OSError(5, "Input/output error")
            if not self._event(path).wait(self.WAIT_SECONDS):  # never let finish: the loop that would was held
                raise OSError(f"the sync of {path} was never let finish")
            with self.lock:
                self.synced.add(path)


def saving_app(environ, start_response):
    """/save/N writes into file /srv/N.db (its sync noted for later, as store.write does) and answers
    its path; any other page only reads."""
    path = environ["PATH_INFO"]
    if path.startswith("/save/"):
        store.sync_log(f"/srv/{path.rsplit('/', 1)[1]}.db")
    start_response("200 OK", [("content-type", "text/plain")])
    return [path.encode()]
