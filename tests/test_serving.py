"""The server as run on the internet (`python app.py`): many slow connections, a TLS proxy."""
import socket
import urllib.parse

import pytest

from app import serve_settings
from support.loopback import Phone, ServerProcess


def test_serve_settings_have_safe_defaults_and_read_the_environment():
    defaults = serve_settings({})
    assert (defaults["host"], defaults["port"], defaults["connection_limit"]) == ("0.0.0.0", 5000, 2000)
    assert "trusted_proxy" not in defaults
    tuned = serve_settings({"PORT": "8080", "ORCHARD_CONNECTION_LIMIT": "900", "ORCHARD_THREADS": "4",
                            "ORCHARD_CHANNEL_TIMEOUT": "30", "ORCHARD_TRUSTED_PROXY": "127.0.0.1"})
    assert (tuned["port"], tuned["connection_limit"], tuned["threads"], tuned["channel_timeout"]) == (8080, 900, 4, 30)
    assert tuned["trusted_proxy"] == "127.0.0.1"
    assert "x-forwarded-proto" in tuned["trusted_proxy_headers"]


@pytest.mark.parametrize("value", ["many", "0", "-3", ""])
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


@pytest.fixture
def proxied(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db", env={"ORCHARD_TRUSTED_PROXY": "127.0.0.1"}).start()
    yield server
    server.stop()


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
    statuses = [guesser.get(f"/c/guess-{n}/", headers=_from("198.51.100.7")).status for n in range(32)]
    assert statuses[-1] == 429
    assert player.get("/c/another-typo/", headers=_from("203.0.113.9")).status == 404
