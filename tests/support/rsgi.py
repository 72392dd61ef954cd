"""An RSGI request as Granian hands one to an app, and the answer it would send: for tests of
cli/body_first.py without a server."""
import threading


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
