"""A hostile client against a real server: oversized bodies and many slow connections.

Serves the app with `python app.py` on a free 127.0.0.1 port with a throw-away database (as an
operator runs it, with the ORCHARD_* defaults), then:
  1. the floor: GET / ten times, the median being what a normal request takes in this run;
  2. a 20 MB urlencoded form POSTed to /crews over a raw socket: the status and the time from
     the first byte sent to the status line (target: 413, under a second);
  3. 200 connections opened and left hanging mid-headers, and while they stay open a phone asks
     for the home page ten times and starts a crew (target: every answer arrives).
Prints each figure with its multiple of the floor; exit status 1 if a target is missed.

    .venv/bin/python bench/hostile_client.py [--slow 200] [--body-mb 20]
"""
import socket
import statistics
import sys
import time

from serve import run_checks, served
from support.loopback import Phone

BIG_BODY_SECONDS = 1.0


def floor(base):
    phone = Phone(base)
    times = []
    for _ in range(10):
        answer = phone.get("/")
        assert answer.status == 200
        times.append(answer.seconds)
    return statistics.median(times)


def big_form(port, megabytes):
    """POST a form of `megabytes` MB; (status, seconds to the status line)."""
    body = b"name=" + b"A" * (megabytes * 1024 * 1024)
    head = (f"POST /crews HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        try:
            connection.sendall(head + body)
        except OSError:
            pass  # the server may answer and close before taking it all: the answer still counts
        status_line = connection.makefile("rb").readline()
    seconds = time.perf_counter() - started
    return int(status_line.split()[1]) if status_line else None, seconds


def slow_connections(port, count):
    opened = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # the headers never end
        opened.append(connection)
    return opened


def check(args, folder, failures):
    with served(folder / "orchard.db") as server:
        normal = floor(server.base)
        print(f"floor: GET / takes {normal * 1000:.1f} ms (median of 10)")

        status, seconds = big_form(server.port, args.body_mb)
        print(f"{args.body_mb} MB form to POST /crews: {status} in {seconds:.2f} s "
              f"({seconds / normal:.0f}x the floor)")
        if status != 413 or seconds >= BIG_BODY_SECONDS:
            failures.append(f"the {args.body_mb} MB form got {status} in {seconds:.2f} s")

        held = slow_connections(server.port, args.slow)
        try:
            phone = Phone(server.base, timeout=15)
            answers = []
            for _ in range(10):
                try:
                    answers.append(phone.get("/"))
                except OSError as error:
                    print(f"  no answer: {error}")
            answered = [a for a in answers if a.status == 200]
            crew = phone.start_crew("Through the crowd") if len(answered) == 10 else None
            slowest = max((a.seconds for a in answered), default=float("nan"))
            print(f"with {args.slow} slow connections open: {len(answered)} of 10 home pages answered, "
                  f"slowest {slowest * 1000:.1f} ms ({slowest / normal:.1f}x the floor); "
                  f"a new crew {'started' if crew else 'NOT started'}")
            if len(answered) < 10 or not crew:
                failures.append("a phone went unanswered behind the slow connections")
        finally:
            for connection in held:
                connection.close()


def main(argv=None):
    options = [(("--slow",), {"type": int, "default": 200, "help": "slow connections held open (default 200)"}),
               (("--body-mb",), {"type": int, "default": 20, "help": "size of the oversized form (default 20)"})]
    return run_checks(__doc__, options, "orchard-hostile-", check, argv)


if __name__ == "__main__":
    sys.exit(main())
