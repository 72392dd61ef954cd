"""What a phone downloads: exact requests and bytes, measured in real chromium.

Serves the app with `orchard serve` on a free 127.0.0.1 port (a fresh database holding a game with
two saved rounds and a third being entered), then, in one phone-sized chromium context with an
empty cache:
  1. the first visit to the game's scoreboard (everything: HTML, CSS, htmx, app.js, icons ...);
  2. a repeat visit to the same page (from the crew page, as a phone does): only the HTML should
     travel, every static file coming from the cache thanks to its versioned URL;
  3. one tap on a rank's count in the round being entered: the htmx answer.
Bytes are what chromium's network stack reports (CDP `Network.loadingFinished.encodedDataLength`:
headers and the body as sent, gzip included). Prints every resource and checks the targets:
first visit <= 80 KB, repeat visit = the HTML only, a tap's answer <= 4 KB. Exit status 1 if not.

    .venv/bin/python bench/page_weight.py [--chromium /usr/bin/chromium] [--base http://127.0.0.1:PORT]

With --base it measures a server already running on loopback (it adds a crew and a game to it).
"""
import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import Phone
from serve import served

FIRST_VISIT_MAX = 80 * 1024
TAP_MAX = 4 * 1024
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Network:
    """Every request the page makes, with the bytes chromium received for it."""

    def __init__(self, context, page):
        self.requests = {}
        self.order = []
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.requestServedFromCache", self._from_cache)
        cdp.on("Network.responseReceivedExtraInfo", self._raw)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.loadingFailed", self._failed)

    def _entry(self, request_id):
        if request_id not in self.requests:
            self.requests[request_id] = {"url": "?", "method": "?", "status": None, "type": "",
                                         "wire": None, "headers": 0, "source": "network"}
            self.order.append(request_id)
        return self.requests[request_id]

    def _sent(self, event):
        entry = self._entry(event["requestId"])
        entry.update(url=event["request"]["url"], method=event["request"]["method"], type=event.get("type", ""))

    def _response(self, event):
        response = event["response"]
        entry = self._entry(event["requestId"])
        entry.update(status=response["status"], type=event.get("type", entry["type"]),
                     encoding=response.get("headers", {}).get("content-encoding", ""),
                     headers=response.get("encodedDataLength", 0))
        if response.get("fromDiskCache"):
            entry["source"] = "disk cache"
        if response.get("fromPrefetchCache"):
            entry["source"] = "prefetch cache"

    def _raw(self, event):
        # The status as it came over the wire: chromium shows a revalidated resource (304) as 200.
        if event.get("statusCode"):
            self._entry(event["requestId"])["raw"] = event["statusCode"]

    def _from_cache(self, event):
        self._entry(event["requestId"])["source"] = "memory/disk cache"

    def _finished(self, event):
        self._entry(event["requestId"])["wire"] = int(event["encodedDataLength"])

    def _failed(self, event):
        self._entry(event["requestId"]).update(wire=0, status=f"failed: {event.get('errorText')}")

    def wait_finished(self, page, seconds=5):
        """Until chromium has reported the bytes of every request seen so far."""
        for _ in range(int(seconds / 0.05)):
            if all(r["wire"] is not None for r in self.requests.values()):
                return
            page.wait_for_timeout(50)

    def take(self):
        """The requests since the last call, in the order they were made."""
        taken = [self.requests[i] for i in self.order]
        self.requests, self.order = {}, []
        return taken


def show(title, requests, base):
    travelled = [r for r in requests if r["source"] == "network" and (r["wire"] or 0) > 0]
    total = sum(r["wire"] or 0 for r in requests)
    print(f"\n{title}: {len(requests)} requests, {len(travelled)} over the network, {total} bytes "
          f"({total / 1024:.1f} KB) transferred")
    print("  (bytes = headers + body as received, gzip included; status (n): chromium's status, n on the wire)")
    print(f"  {'bytes':>7} {'hdrs':>5} {'body':>7}  {'status':<10} {'from':<17} {'type':<10} resource")
    for r in requests:
        wire = r["wire"] or 0
        headers = min(r["headers"] or 0, wire)
        body = wire - headers
        status = str(r["status"]) + (f" ({r['raw']})" if r.get("raw") and r["raw"] != r["status"] else "")
        url = r["url"].replace(base, "")
        enc = f" [{r.get('encoding')}]" if r.get("encoding") else ""
        print(f"  {wire:>7} {headers:>5} {body:>7}  {status:<10} {r['source']:<17} "
              f"{r['type']:<10} {r['method']} {url[:90]}{enc}")
    return total, travelled


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--base", help="a server already running on 127.0.0.1 (default: start one)")
    args = parser.parse_args(argv)
    if args.base:
        return report(measure(args.chromium, args.base, *set_up(args.base)))
    with tempfile.TemporaryDirectory(prefix="orchard-weight-") as folder:
        with served(Path(folder) / "orchard.db") as server:
            results = measure(args.chromium, server.base, *set_up(server.base))
    return report(results)


def set_up(base):
    """A crew and a game with two saved rounds, and round 3 being entered (bid and a target)."""
    host = Phone(base)
    crew_url = host.start_crew("Page weight crew")
    game_url = host.start_game(crew_url)
    for _ in range(2):
        assert host.enter_round(game_url)[1].status == 303
    round_url, number = host.open_round(game_url)
    host.post(round_url + "/bid", {"bidder": "1", "number": "2", "suit": "S"})
    host.post(round_url + "/hands/0/target", {"target": "10S"})
    return crew_url, game_url, round_url


def measure(chromium, base, crew_url, game_url, round_url):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        # The service worker fetches in its own target, out of this page's sight: the page's
        # document and the shell it precaches would not be counted. Measured without it, as
        # HTTP caching alone serves a phone (the worker only adds a cache in front).
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                      is_mobile=True, has_touch=True, service_workers="block")
        page = context.new_page()
        network = Network(context, page)
        # Polls every 3 s would land in the figures: each step is measured before the first one.
        page.goto(base + game_url, wait_until="networkidle")
        network.wait_finished(page)
        first = show("1. First visit to the game page (empty cache)", network.take(), base)

        page.goto(base + crew_url, wait_until="networkidle")
        network.take()
        page.goto(base + game_url, wait_until="networkidle")
        network.wait_finished(page)
        repeat = show("2. Repeat visit to the game page (from the crew page)", network.take(), base)

        page.goto(base + round_url, wait_until="networkidle")
        network.take()
        with page.expect_request_finished(lambda r: r.method == "POST" and "/counts" in r.url):
            page.locator("label:has(#n-J-3)").tap()
        network.wait_finished(page)
        tap = show("3. One tap on a rank's count (htmx POST)", network.take(), base)
        context.close()
        browser.close()
    return first, repeat, tap


def report(results):
    (first_total, _), (repeat_total, repeat_travelled), (tap_total, tap_travelled) = results
    repeat_only_html = [r["type"] for r in repeat_travelled] == ["Document"]
    tap_answer = [r for r in tap_travelled if r["method"] == "POST"]
    checks = [
        (f"first visit {first_total} bytes <= {FIRST_VISIT_MAX}", first_total <= FIRST_VISIT_MAX),
        (f"repeat visit transfers only the HTML ({len(repeat_travelled)} over the network, "
         f"{repeat_total} bytes)", repeat_only_html),
        (f"tap answer {sum(r['wire'] for r in tap_answer)} bytes <= {TAP_MAX} "
         f"({len(tap_travelled)} request(s) for the tap)",
         len(tap_answer) == 1 and tap_answer[0]["wire"] <= TAP_MAX),
    ]
    print()
    for text, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
