"""The ports the tests' real servers are started on (support/loopback.py `free_port`). A port the
kernel picked for port 0 could be taken by another test's in-thread server (they bind port 0)
before `orchard serve` bound it, and answer the readiness probe in its place. A fresh clone's
`make test` failed that way on 2026-12-06: "connection refused" right after the probe's 200."""
import socket
from pathlib import Path

from support import loopback
from support.loopback import free_port


def kernels_range():
    low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    return int(low), int(high)


def test_a_servers_port_is_one_no_port_0_bind_can_take_and_each_test_process_has_its_own(monkeypatch):
    low, _ = kernels_range()
    handed = {}
    for worker in ("gw0", "gw1", "gw2", "gw3"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        monkeypatch.setitem(loopback._PORTS, "next", None)
        handed[worker] = [free_port() for _ in range(50)]
    every = [port for ports in handed.values() for port in ports]
    assert len(set(every)) == 200, "two test processes were handed one port"
    assert all(1024 < port < low for port in every), sorted(every)[-3:]
    with socket.socket() as taken:  # a port-0 bind lands in the kernel's range, never on one of these
        taken.bind(("127.0.0.1", 0))
        assert taken.getsockname()[1] >= low


def test_a_port_someone_listens_on_is_passed_over(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw5")
    monkeypatch.setitem(loopback._PORTS, "next", None)
    first = free_port()
    monkeypatch.setitem(loopback._PORTS, "next", first)
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", first))
        listening.listen()
        assert free_port() != first
