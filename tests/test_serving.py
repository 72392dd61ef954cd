"""The server as run on the internet (`orchard serve`): many slow connections, a TLS proxy."""
import os
import socket
import subprocess
import sys
import time
import urllib.parse

import pytest

from app import create_app
from cli.serving import serve_settings
from support.loopback import Phone, ServerProcess

# Real `orchard serve` processes and their timeouts: in `make test`, not in `make check`.
pytestmark = pytest.mark.served


def test_serve_settings_have_safe_defaults_and_read_the_environment():
    defaults = serve_settings({})
    assert (defaults["host"], defaults["port"], defaults["workers"], defaults["connection_limit"]) == (
        "0.0.0.0", 5000, len(os.sched_getaffinity(0)), 2000)  # a process per core it may use
    tuned = serve_settings({"PORT": "8080", "ORCHARD_CONNECTION_LIMIT": "900", "ORCHARD_THREADS": "4",
                            "ORCHARD_WORKERS": "2", "ORCHARD_CHANNEL_TIMEOUT": "30"})
    assert (tuned["port"], tuned["connection_limit"], tuned["threads"], tuned["channel_timeout"]) == (8080, 900, 4, 30)
    assert tuned["connections_per_worker"] == 450  # the limit is for the whole server


@pytest.mark.parametrize("value", ["many", "0", "-3", "2.5"])
def test_a_setting_that_is_not_a_number_stops_the_start_with_one_sentence(value):
    with pytest.raises(SystemExit, match="ORCHARD_THREADS must be a whole number above 0"):
        serve_settings({"ORCHARD_THREADS": value})


def test_a_phone_is_answered_while_200_slow_connections_are_open(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db").start()
    slow = []
    try:
        for _ in range(200):
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
            slow.append(connection)
        phone = Phone(server.base, timeout=10)
        assert phone.get("/").status == 200
        assert phone.start_crew().startswith("/c/")
    finally:
        for connection in slow:
            connection.close()
        server.stop()


def _slow_body(port, declared=100_000):
    """A connection that sends a form's headers and one byte of its `declared`-byte body."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(b"POST /crews HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                       b"Content-Length: %d\r\n\r\nn" % declared)
    return connection


def test_phones_are_answered_while_slow_bodies_hold_more_connections_than_the_server_has_threads(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db").start()
    slow = [_slow_body(server.port) for _ in range(2 * serve_settings({})["threads"])]
    try:
        time.sleep(0.3)  # every slow body has reached the server
        answers = [Phone(server.base, timeout=5).get("/") for _ in range(4)]
        assert [answer.status for answer in answers] == [200] * 4
        assert Phone(server.base, timeout=5).start_crew().startswith("/c/")
    finally:
        for connection in slow:
            connection.close()
        server.stop()


def _serving(tmp_path, **env):
    """`orchard serve` with these settings, stopped after the test."""
    server = ServerProcess(tmp_path / "orchard.db", env=env).start()
    yield server
    server.stop()


@pytest.fixture
def proxied(tmp_path):
    yield from _serving(tmp_path, ORCHARD_TRUSTED_PROXY="127.0.0.1")


def _from(address):
    return {"X-Forwarded-For": address, "X-Forwarded-Proto": "https", "X-Forwarded-Host": "apples.example"}


def test_behind_a_trusted_proxy_crew_links_say_https_and_saving_works(proxied):
    phone = Phone(proxied.base)
    phone.get("/", headers=_from("203.0.113.5"))
    answer = phone.post("/crews", {"name": "Over TLS"}, headers=_from("203.0.113.5"))
    assert answer.status == 303
    crew_path = urllib.parse.urlsplit(answer.location).path
    page = phone.get(crew_path, headers=_from("203.0.113.5")).body
    assert f"https://apples.example{crew_path}" in page


def test_behind_a_trusted_proxy_the_guess_limit_counts_each_visitor(proxied):
    guesser, player = Phone(proxied.base), Phone(proxied.base)
    # The limit counts by the minute: guesses that straddle a minute's end are counted in two, so
    # the guesser goes on until twice the limit (32 in a row once got no 429 on a slow machine).
    statuses = []
    while 429 not in statuses and len(statuses) < 64:
        statuses.append(guesser.get(f"/c/guess-{len(statuses)}/", headers=_from("198.51.100.7")).status)
    assert statuses[-1] == 429 and set(statuses[:-1]) == {404}
    assert player.get("/c/another-typo/", headers=_from("203.0.113.9")).status == 404


def test_forwarded_headers_from_anyone_but_the_trusted_proxy_are_ignored(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "o.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False,
                      "TRUSTED_PROXY": "10.0.0.2"})
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "198.51.100.7"
    # Posing as a new visitor on every guess does not escape the guess limit...
    statuses = [stranger.get(f"/c/guess-{n}/", headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
                for n in range(32)]
    assert statuses[-1] == 429
    # ...and a claimed https:// host never reaches a crew link.
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "198.51.100.8"
    answer = other.post("/crews", data={"name": "Posing"}, headers=_from("203.0.113.5"))
    page = other.get(answer.headers["Location"], headers=_from("203.0.113.5")).get_data(as_text=True)
    assert f"http://localhost{answer.headers['Location']}" in page
    assert "apples.example" not in page


@pytest.fixture
def impatient(tmp_path):
    yield from _serving(tmp_path, ORCHARD_CHANNEL_TIMEOUT="2")


def _answer_head(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_a_body_beyond_the_limit_is_refused_before_it_is_sent(impatient):
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=10) as connection:
        connection.sendall(b"POST /crews HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                           b"Content-Length: 200000000\r\n\r\nname=" + b"A" * 100_000)
        assert _answer_head(connection).startswith(b"HTTP/1.1 413")


def test_a_body_that_trickles_in_is_cut_off_with_408(impatient):
    connection = _slow_body(impatient.port)
    started = time.monotonic()
    with connection:
        connection.settimeout(1)
        head = b""
        while b"\r\n\r\n" not in head and time.monotonic() - started < 10:
            try:
                head += connection.recv(65536)
            except socket.timeout:
                connection.sendall(b"a")  # one more byte a second: never the whole body
        # The 2 s allowed for headers, again for the body, and a second per 64 KB it declares.
        assert head.startswith(b"HTTP/1.1 408")
        assert time.monotonic() - started < 2 + 100_000 / 65536 + 1.5
        connection.settimeout(5)
        while connection.recv(65536):  # the rest of the answer, then the end of the connection
            pass


def test_a_form_sent_in_pieces_still_starts_a_crew(impatient):
    phone = Phone(impatient.base)
    phone.get("/")
    cookie = "; ".join(f"{name}={value}" for name, value in phone.client.cookies.items())
    body = urllib.parse.urlencode({"name": "Slow but sure"}).encode()
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=10) as connection:
        connection.sendall(b"POST /crews HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                           b"Content-Length: %d\r\nCookie: %s\r\nX-CSRFToken: %s\r\n\r\n"
                           % (len(body), cookie.encode(), phone.csrf.encode()))
        for start in range(0, len(body), 5):
            time.sleep(0.2)
            connection.sendall(body[start:start + 5])
        head = _answer_head(connection)
    assert head.startswith(b"HTTP/1.1 303"), head[:200]
    assert b"/c/" in head


def test_a_restore_upload_larger_than_a_form_is_read_and_restored(impatient):
    phone = Phone(impatient.base)
    crew = phone.start_crew("Moving house")
    export = phone.get(crew + "history/export.json").body.encode()
    padded = export.rstrip() + b" " * 600_000  # beyond a form's 256 KB, within an upload's 64 MB
    phone.get("/restore")
    answer = phone.post("/restore", files={"file": ("crew.json", padded, "application/json")})
    assert answer.status == 303, answer.body[:300]
    assert "Moving house" in phone.get(answer.location).body


def test_a_megabyte_of_headers_is_refused(impatient):
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=10) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"A" * 1_000_000 + b"\r\n\r\n")
        assert _answer_head(connection).startswith(b"HTTP/1.1 431")


def test_a_silent_connection_is_closed_after_the_channel_timeout(impatient):
    with socket.create_connection(("127.0.0.1", impatient.port), timeout=10) as connection:
        connection.sendall(b"GET /static/app.css HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _answer_head(connection).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        connection.settimeout(None)
        while connection.recv(65536):  # the rest of the file, then the end of the connection
            pass
        assert time.monotonic() - started < 6


def test_a_second_server_on_the_same_port_stops_with_a_sentence(tmp_path):
    first = ServerProcess(tmp_path / "first.db").start()
    try:
        second = subprocess.run(
            [sys.executable, "-m", "cli", "serve"], cwd=tmp_path, capture_output=True, text=True,
            timeout=30, env={**os.environ, "PORT": str(first.port), "HOST": "127.0.0.1",
                             "ORCHARD_DATABASE": str(tmp_path / "second.db")})
        assert second.returncode == 1
        assert f"port {first.port} is already in use" in second.stderr
        # The first server still answers every request alone.
        crew = Phone(first.base).start_crew()
        assert all(Phone(first.base).get(crew).status == 200 for _ in range(10))
    finally:
        first.stop()
