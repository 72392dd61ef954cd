"""From a tap to the painted answer, in real chromium, against htmx asking for a static file.

Serves the app with `orchard serve` on a free 127.0.0.1 port (a fresh database: a game whose round
is being entered in quick mode), opens the round page in a 390x844 touch phone context, and taps:

  * a rank's count (J, alternating 1 and 2, so every tap is a change): the htmx POST and the
    swap of the regions around the control;
  * the floor: a button added to the same page that asks htmx for a static file (icon.svg, a
    fresh address each time so it comes from the server) and swaps nothing.

Each is timed in the page from the `touchstart` to the first moment after the frame that follows
the answer (`htmx:afterRequest`, then `requestAnimationFrame`, then a task: the frame has been
painted by then). The two alternate, so both see the same machine. Live polls are left out by
their address. Prints the medians and p90s and the ratio; target: tap <= 1.3x the floor.

    .venv/bin/python bench/tap_paint.py [--taps 40] [--chromium /usr/bin/chromium]
"""
import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]

from page_weight import CHROMIUM_ARGS
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import Phone
from serve import served

TARGET = 1.3

# Added to the page through the DevTools protocol (the page's CSP allows no inline script).
INSTRUMENT = """() => {
  window.orchardPaint = {tap: [], floor: []};
  document.addEventListener("touchstart", () => { window.orchardPaint.t0 = performance.now(); },
                            {capture: true});
  document.body.addEventListener("htmx:afterRequest", (event) => {
    const path = event.detail.pathInfo.requestPath;
    const kind = path.includes("/counts/") ? "tap" : path.includes("/static/icon.svg") ? "floor" : null;
    if (!kind) return;  // a live poll
    const t0 = window.orchardPaint.t0;
    requestAnimationFrame(() => setTimeout(() => window.orchardPaint[kind].push(performance.now() - t0), 0));
  });
  const floor = document.createElement("button");
  floor.id = "paint-floor";
  floor.type = "button";
  floor.textContent = "floor";
  floor.setAttribute("hx-swap", "none");
  document.querySelector("#round-main").prepend(floor);
}"""


def set_up(base):
    host = Phone(base)
    game_url = host.start_game(host.start_crew("Paint crew"))
    round_url, _ = host.open_round(game_url)
    host.post(round_url + "/bid", {"bidder": "1", "number": "2", "suit": "S"})
    for seat, target in enumerate(("10S", "4H", "KD", "2S")):
        host.post(round_url + f"/hands/{seat}/target", {"target": target})
    return round_url


def measure(chromium, base, round_url, taps):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                      is_mobile=True, has_touch=True,
                                      # Playwright's waiting runs code from a string, which the
                                      # page's CSP refuses; the app's own scripts are unchanged.
                                      bypass_csp=True)
        page = context.new_page()
        page.goto(base + round_url, wait_until="networkidle")
        page.evaluate(INSTRUMENT)
        for i in range(taps):
            page.evaluate("(n) => { const b = document.querySelector('#paint-floor');"
                          " b.setAttribute('hx-get', '/static/icon.svg?n=' + n); htmx.process(b); }", i)
            for kind, locator in (("floor", page.locator("#paint-floor")),
                                  ("tap", page.locator(f"label:has(#n-J-{1 + i % 2})"))):
                locator.tap()
                page.wait_for_function(f"() => window.orchardPaint.{kind}.length > {i}")  # no eval() under CSP
        found = page.evaluate("window.orchardPaint")
        context.close()
        browser.close()
    return found["tap"], found["floor"]


def p90(values):
    ordered = sorted(values)
    return ordered[int(0.9 * (len(ordered) - 1))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="orchard-paint-") as folder:
        with served(Path(folder) / "orchard.db") as server:
            tap, floor = measure(args.chromium, server.base, set_up(server.base), args.taps)
    for name, values in (("htmx static file (floor)", floor), ("rank tap", tap)):
        print(f"{name:<26} median {statistics.median(values):6.1f} ms   p90 {p90(values):6.1f} ms   ({len(values)} taps)")
    ratio = statistics.median(tap) / statistics.median(floor)
    ok = ratio <= TARGET
    print(f"tap to paint: {ratio:.2f}x the floor (target <= {TARGET}x): {'ok' if ok else 'MISSED'}")
    print("RESULT: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
