"""How many tables one box serves: phones as browsers hold them, over loopback.

Starts `orchard serve` (Granian, as an operator runs it, with ORCHARD_WORKERS processes) on a free
127.0.0.1 port with a fresh database, and a Flask hello-world on Granian beside it. Then, for
each table count asked for, on a fresh server:

  * every ENTERING table has 4 phones polling the round's `/live?v=N` every POLL seconds and one
    of them entering rounds at one tap a second (bid, four targets, rank counts, then the save);
    the tables start spread over one round's length, so they tap and save out of step (`--in-step`: all at
    once, as this benchmark ran before 2026-12-02: every table's tap in the same few milliseconds);
    with `--watch scoreboard` (the default) the 4 phones poll the scoreboard instead, as a table with
    one scorekeeper does (the others watch the totals); `--watch round`: the round page's poll;
  * every IDLE table has 4 phones polling its scoreboard's `/live?v=N` and nobody entering;
  * two probes, 4 requests a second each, measure the floors of the same run: a static file
    (app.css) from the Orchard server, and the hello-world server's `GET /`.

Every phone keeps one keep-alive HTTP/1.1 connection (asyncio streams, a browser's Accept-Encoding
and cookies), so the server holds one connection per phone. Latency is from the request's first
byte to its last byte read. A table count passes when the tap p95 is at most TAP_P95_MS, no answer
is an error (5xx, a refused or dropped connection, an unexpected status), the save p95 is at most
SAVE_P95_MS, the polls' p95 (every kind of poll, 204 and 200 together) is at most POLL_P95_MS, and
no phone waits more than TIMEOUT seconds. After the run the hello-world server is sent 2,000
requests on 8 keep-alive connections to measure its CPU per request, the floor the server's CPU per
request is printed against. Then a scoreboard is drawn in process 200 times, in
a process of its own: the host's speed for the app's own work at that moment, which a hello-world
is too small to show (--no-work-floor skips it). Prints per count: p50/p95/p99 per kind of request, server CPU (% of one core,
all its processes), both floors, and PASS/FAIL; at the end the largest passing count.

    .venv/bin/python bench/load.py --tables 50,100,150 [--idle 0] [--seconds 30] [--workers 2]
    .venv/bin/python bench/load.py --tables 0 --idle 1000 --seconds 30
    .venv/bin/python bench/load.py --tables 150 --workers 2 --proxy caddy
    .venv/bin/python bench/load.py --tables 300 --slow-disk 20

With --slow-disk MS every fsync and fdatasync of the server's processes waits MS milliseconds before
it syncs (bench/slow_disk.c, preloaded): a disk shared with busy neighbours, which is what a table's
answers must not wait for unless they are saves.

With --proxy caddy the phones talk to Caddy (`/usr/bin/caddy`, Debian's package), started on
another free port with a Caddyfile like the README's (plain HTTP on loopback: no certificate),
which passes every request on to the app over its own small pool of keep-alive connections; the
app trusts it (ORCHARD_TRUSTED_PROXY). That is the supported public set-up: the proxy holds the
phones' connections, the app only a few. Caddy's CPU is printed beside the app's.
"""
import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from keepalive import TIMEOUT, Connection
from load_phones import LIVE_VERSION, ROUND_ID, Record, enterer, poller, probe, round_seconds
from proxy import start_caddy
import settings
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import Phone, free_port
from serve import nearest_rank, served

TAP_P95_MS = 100
SAVE_P95_MS = 200
# A phone polls every 3 s: a poll answered within a second keeps it at most that much further behind
# the table. The server lets polls wait for taps (cli/turns.py), so the polls' tail is judged too.
POLL_P95_MS = 1000
STATIC_URL = re.compile(r'href="(/static/app\.css\?v=[0-9a-f]+)"')
KINDS = ("static floor", "hello floor", "live 204", "live 200", "night live 204", "night live 200",
         "board live 204", "board live 200", "tap", "start", "round page", "save", "scoreboard")
HELLO = textwrap.dedent("""
    import sys
    from flask import Flask
    from granian import Granian
    app = Flask("hello")
    app.add_url_rule("/", "hello", lambda: "Hello, world!")
    if __name__ == "__main__":
        Granian("__main__:app", interface="wsgi", address="127.0.0.1", port=int(sys.argv[1]),
                blocking_threads=int(sys.argv[2]), log_level="warning").serve()
""")


# The app's own work, timed in a process of its own on the host as it is now: a scoreboard of 6
# rounds drawn through Flask's test client, the median of 200. A hello-world is too small to see
# what a slow hour does to the app: on 2026-12-06 a tap in process went from 1.27 to 2.11 ms in
# back-to-back runs while the hello-world's own cost stayed at 0.13 ms.
WORK = textwrap.dedent("""
    import statistics, sys, tempfile, time
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from app import create_app
    from support.table import Table
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "orchard.db"), "SECRET_KEY": "floor",
                          "WTF_CSRF_ENABLED": False})
        table = Table(app.test_client())
        game = table.start_game(goal="other", goal_other="100000")
        for _ in range(6):
            table.save_quick_round(("4S", "2S", "3S", "5S"), [{"A": 2, "K": 1}, {"Q": 2}, {"J": 3}, {"10": 2}])
        times = []
        for _ in range(220):
            started = time.perf_counter()
            assert table.client.get(game).status_code == 200
            times.append(time.perf_counter() - started)
        print(statistics.median(times[20:]))
""")


def work_floor():
    """Seconds the app takes to draw a scoreboard in process on this host now (WORK)."""
    answer = subprocess.run([sys.executable, "-c", WORK, str(REPO / "tests")], cwd=REPO, capture_output=True,
                            text=True, check=True)
    return float(answer.stdout.strip())


def cookie_of(phone):
    """The phone's cookies as its browser sends them (the loopback phone is an httpx client)."""
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in phone.client.cookies.jar)


def set_up(base, entering, idle, watch="scoreboard"):
    """Crews and games through the ordinary pages: per entering table its game, its round 1 open,
    and its phone's cookie and CSRF token; per idle table its game with one round saved."""
    tables = []
    for i in range(entering + idle):
        phone = Phone(base, timeout=60)
        game_url = phone.start_game(phone.start_crew(f"Table {i + 1}"))
        if i < entering:
            round_url, _ = phone.open_round(game_url)
            if watch == "round":
                page = phone.get(round_url).body
                poll = f"{round_url}/live?v={{v}}&r={ROUND_ID.search(page).group(1)}&seat=0"
            else:
                page = phone.get(game_url).body
                poll = f"{game_url}/live?v={{v}}"
        else:
            phone.enter_round(game_url)
            page = phone.get(game_url).body
            poll = f"{game_url}/live?v={{v}}"
        version = LIVE_VERSION.search(page).group(1)
        tables.append({"entering": i < entering, "game_url": game_url, "csrf": phone.csrf,
                       "polls": [(poll, version, "live")] * 4, "cookie": cookie_of(phone)})
    static = STATIC_URL.search(page).group(1)
    return tables, static


def cpu_seconds(pids):
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


async def hello_cpu_per_request(port, pid, connections=8, each=250):
    """The hello-world server's CPU per request under a steady load of its own (its floor): its
    process and Granian's worker process under it."""
    pids = server_pids(pid)
    before = cpu_seconds(pids)

    async def one():
        connection = Connection(port, htmx=False)
        try:
            for _ in range(each):
                await connection.request("GET", "/")
        finally:
            connection.close()

    await asyncio.gather(*(one() for _ in range(connections)))
    return (cpu_seconds(pids) - before) / (connections * each)


def server_pids(pid):
    children = subprocess.run(["ps", "--ppid", str(pid), "-o", "pid="], capture_output=True, text=True).stdout
    return [pid, *(int(p) for p in children.split())]


async def drive(tables, static, port, hello_port, args, record, pids):
    stop = asyncio.Event()
    tasks = []
    entering = sum(table["entering"] for table in tables)
    for number, table in enumerate(tables):
        for phone, (path, version, kind) in enumerate(table["polls"]):
            offset = (number * 4 + phone) * args.poll / max(len(tables) * 4, 1) % args.poll
            tasks.append(poller(record, stop, port, table["cookie"], path, version, args.poll, offset, kind))
        if table["entering"]:
            # Out of step, the tables' starts are spread over one round's taps: every table taps
            # once a second all the same, but the tables are not all saving (and starting the next
            # round, and every watcher fetching the new scoreboard) in the same second, which
            # equal rounds started within one second would make them do for the whole run.
            offset = 0.0 if args.in_step else number * round_seconds(args.tap_every) / entering
            tasks.append(enterer(record, stop, port, table["cookie"], table["csrf"], table["game_url"],
                                 args.tap_every, offset, args.poll))
    tasks += [probe(record, stop, port, "static floor", static), probe(record, stop, hello_port, "hello floor", "/")]
    running = [asyncio.create_task(task) for task in tasks]
    await asyncio.sleep(args.warm_up)
    record.counting = True
    cpu_before, started, mine = cpu_seconds(pids), time.monotonic(), time.process_time()
    proxy_before = cpu_seconds(record.proxy_pids)
    await asyncio.sleep(args.seconds)
    cpu = cpu_seconds(pids) - cpu_before
    record.proxy_cpu = cpu_seconds(record.proxy_pids) - proxy_before
    measured = time.monotonic() - started
    record.client_cpu = time.process_time() - mine
    record.load = os.getloadavg()[0]
    record.counting = False
    stop.set()
    done, pending = await asyncio.wait(running, timeout=TIMEOUT + args.poll + 5)
    for task in pending:
        task.cancel()
    for task in done:  # a phone that stopped on something other than a refused answer is a bug here
        if task.exception() is not None:
            record.error(f"a phone stopped: {task.exception()!r}")
    return measured, cpu, len(pending)


def run_once(entering, idle, args, set_up=set_up):
    with tempfile.TemporaryDirectory(prefix="orchard-load-") as folder:
        env = {"ORCHARD_CREW_LIMIT": "100000 per hour", "ORCHARD_WORKERS": str(args.workers),
               "ORCHARD_THREADS": str(args.threads),
               "ORCHARD_CONNECTION_LIMIT": str(max(2000, 4 * (entering + idle) + 200))}
        if args.proxy:
            env["ORCHARD_TRUSTED_PROXY"] = "127.0.0.1"
        if args.slow_disk:
            env.update(slow_disk(Path(folder), args.slow_disk))
        with served(Path(folder) / "orchard.db", log=open(Path(folder) / "server.log", "wb"), env=env) as server:
            return _drive_served(server, folder, entering, idle, args, set_up)


def slow_disk(folder, milliseconds):
    """What the server's environment needs for every sync of its processes to take `milliseconds`
    longer (bench/slow_disk.c, built here with the system's C compiler), as on a disk shared with
    busy neighbours."""
    library = folder / "slow_disk.so"
    try:
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", str(library), str(REPO / "bench" / "slow_disk.c"), "-ldl"],
                       check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(f"--slow-disk needs a C compiler (cc) to build bench/slow_disk.c: {error}") from None
    return {"LD_PRELOAD": str(library), "SLOW_DISK_MICROSECONDS": str(round(milliseconds * 1000))}


def _drive_served(server, folder, entering, idle, args, set_up):
    """The run against a started server, with the hello-world floor (and Caddy) beside it."""
    hello_port = free_port()
    hello = subprocess.Popen([sys.executable, "-c", HELLO, str(hello_port), str(args.threads)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    caddy = None
    try:
        caddy, port = start_caddy(folder, server.port, args.proxy_pool) if args.proxy else (None, server.port)
        set_up_started = time.monotonic()
        tables, static = set_up(server.base, entering, idle, args.watch)
        set_up_seconds = time.monotonic() - set_up_started
        record = Record()
        record.proxy_pids = [caddy.pid] if caddy else []
        pids = server_pids(server.process.pid)
        measured, cpu, stuck = asyncio.run(drive(tables, static, port, hello_port, args, record, pids))
        record.hello_cpu = asyncio.run(hello_cpu_per_request(hello_port, hello.pid))
        record.work = work_floor() if args.work_floor else None
    finally:
        if caddy:
            caddy.terminate()
            caddy.wait()
        hello.terminate()
        hello.wait()
    return record, measured, cpu, stuck, set_up_seconds


def behind(args):
    if not args.proxy:
        return ""
    return f", behind {args.proxy} (at most {args.proxy_pool or 'unlimited'} connections to the app)"


def report(entering, idle, args, record, measured, cpu, stuck, set_up_seconds):
    phones = 4 * (entering + idle)
    total = sum(len(v) for v in record.seconds.values())
    print(f"\n== {entering} entering tables, {idle} idle tables: {phones} phones on keep-alive connections, "
          f"{args.workers} worker process(es) × {args.threads} threads"
          f"{behind(args)} (set-up {set_up_seconds:.0f} s)")
    proxy = f", {args.proxy} {100 * record.proxy_cpu / measured:.0f} %" if args.proxy else ""
    print(f"measured {measured:.1f} s: {total} requests, {total / measured:.0f} a second; "
          f"server CPU {100 * cpu / measured:.0f} % of one core{proxy}, this load generator "
          f"{100 * record.client_cpu / measured:.0f} % (machine: {os.cpu_count()} cores, "
          f"load average {record.load:.1f})")
    print(f"{'kind':<13}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for kind in KINDS:
        values = record.seconds.get(kind, [])
        if values:
            print(f"{kind:<13}{len(values):>7}" + "".join(
                f"{nearest_rank(values, share) * 1000:>9.1f}" for share in (0.5, 0.95, 0.99)))
    taps = record.seconds.get("tap", [])
    tap_p95 = nearest_rank(taps, 0.95) * 1000 if taps else None
    saves = record.seconds.get("save", [])
    save_p95 = nearest_rank(saves, 0.95) * 1000 if saves else None
    polls = [value for kind in KINDS if " live " in f" {kind}" for value in record.seconds.get(kind, [])]
    poll_p95 = nearest_rank(polls, 0.95) * 1000 if polls else None
    per_request = cpu / max(total, 1)
    print(f"server CPU per request {per_request * 1000:.2f} ms; the hello-world's "
          f"{record.hello_cpu * 1000:.3f} ms: {per_request / record.hello_cpu:.1f}x")
    if record.work is not None:
        print(f"the host's speed for the app's work: a scoreboard drawn in process {record.work * 1000:.2f} ms; "
              f"the server's CPU per request {per_request / record.work:.2f}x that")
    errors = len(record.errors)
    print(f"errors: {errors}" + "".join(f"\n  {line}" for line in record.errors[:8]))
    passed = not errors and not stuck and (poll_p95 is None or poll_p95 <= POLL_P95_MS) and (entering == 0 or (
        tap_p95 is not None and tap_p95 <= TAP_P95_MS and (save_p95 is None or save_p95 <= SAVE_P95_MS)))
    verdict = (f"tap p95 {tap_p95:.1f} ms (limit {TAP_P95_MS}), save p95 {save_p95 or float('nan'):.1f} ms "
               f"(limit {SAVE_P95_MS}), " if tap_p95 is not None else "no taps, ")
    verdict += f"poll p95 {poll_p95 or float('nan'):.1f} ms (limit {POLL_P95_MS})"
    print(f"RESULT: {'PASS' if passed else 'FAIL'}: {verdict}, {errors} errors, {stuck} phones stuck")
    return passed


def options(argv=None):
    """The command line's options (every one at its default for `[]`: bench/load_night.py starts from those)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,100,150", help="entering table counts to try, e.g. 50,100,150")
    parser.add_argument("--idle", type=int, default=0, help="idle tables (polls only) beside them")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per count (default 30)")
    parser.add_argument("--warm-up", type=float, default=5.0, help="seconds before measuring (default 5)")
    parser.add_argument("--poll", type=float, default=3.0, help="seconds between a phone's polls (default 3)")
    parser.add_argument("--tap-every", type=float, default=1.0, help="seconds between taps (default 1)")
    parser.add_argument("--in-step", action="store_true",
                        help="every table taps in the same instant (before 2026-12-02 the only way it ran)")
    parser.add_argument("--workers", type=int, default=settings.read("ORCHARD_WORKERS", {}),
                        help=f"ORCHARD_WORKERS (default {settings.read('ORCHARD_WORKERS', {})}, as `make run`: a process per core)")
    parser.add_argument("--watch", choices=["scoreboard", "round"], default="scoreboard",
                        help="what an entering table's four phones poll (default: the scoreboard)")
    parser.add_argument("--threads", type=int, default=settings.read("ORCHARD_THREADS", {}),
                        help=f"ORCHARD_THREADS (default {settings.read('ORCHARD_THREADS', {})}, as the server's)")
    parser.add_argument("--proxy", choices=["caddy"], help="phones talk to this reverse proxy in front of the app")
    parser.add_argument("--proxy-pool", type=int, default=0,
                        help="most connections from the proxy to the app (default 0: none, as the README sample)")
    parser.add_argument("--no-work-floor", dest="work_floor", action="store_false",
                        help="skip timing a scoreboard in process after the run (the host's speed for the app's work)")
    parser.add_argument("--slow-disk", type=float, default=0, metavar="MS",
                        help="every sync of the server's processes waits MS milliseconds more (needs cc)")
    return parser.parse_args(argv)


def main(argv=None):
    args = options(argv)
    best = None
    for entering in (int(n) for n in args.tables.split(",")):
        passed = report(entering, args.idle, args, *run_once(entering, args.idle, args))
        if passed:
            best = entering
    print(f"\nlargest passing count of entering tables (with {args.idle} idle): {best}")
    return 0 if best is not None else 1


if __name__ == "__main__":
    sys.exit(main())
