"""axe-core (from the axe-playwright-python package) on a page as it is now, light then dark (the
colour rules only): the browser tests' one audit (tests/browser/test_accessibility.py runs it on every page)."""
from axe_playwright_python.base import AxeResults
from axe_playwright_python.sync_playwright import Axe

from support.browser import htmx_settled

AXE = Axe()
# Every rule axe-core runs by default (WCAG 2.x A and AA, best practices), and the ones it keeps
# off by default: the experimental ones (a visible label that differs from the accessible name,
# a paragraph styled as a heading, table headers) and the retired duplicate-id checks.
EXTRA_RULES = (
    "label-content-name-mismatch", "p-as-heading", "table-fake-caption", "td-has-header",
    "css-orientation-lock", "focus-order-semantics", "duplicate-id", "duplicate-id-active",
)
OPTIONS = {"resultTypes": ["violations"], "rules": {rule: {"enabled": True} for rule in EXTRA_RULES}}
# The dark scheme changes colours and nothing else (its style sheets set colour properties only:
# tests/test_assets.py), so in dark only the rules that read colours can find something new. The
# contrast rule is most of a dark run's time: leaving the others out saves 1–3 of the audit's 34
# CPU-seconds (2026-12-06).
COLOUR_RULES = ("color-contrast", "link-in-text-block")
DARK_OPTIONS = {"resultTypes": ["violations"], "runOnly": {"type": "rule", "values": list(COLOUR_RULES)}}


class Audit:
    """Runs axe on the page as it is now, every rule light and the colour rules dark, and keeps
    every violation found."""

    def __init__(self, page):
        self.page = page
        self.found = []
        self.states = []

    def __call__(self, state):
        if self.page.evaluate("!!document.querySelector('script[src*=htmx]')"):  # not the offline page
            htmx_settled(self.page)
        self.states.append(state)
        for scheme in ("light", "dark"):
            self.page.emulate_media(color_scheme=scheme)
            # Let a colour transition finish before contrast is measured.
            self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            results = self._run(OPTIONS if scheme == "light" else DARK_OPTIONS)
            for violation in results.response["violations"]:
                targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
                self.found.append(
                    f"{state} [{scheme}] {violation['id']} ({violation['impact']}), "
                    f"{len(targets)} nodes: {targets[:6]}"
                )
        self.page.emulate_media(color_scheme="light")
        # axe-core 4.12 retired its duplicate-id rules (they no longer run on every element): the
        # same id twice still breaks a label's `for` and aria-describedby, so it is checked here.
        repeated = self.page.evaluate("""() => {
            const seen = {};
            document.querySelectorAll("[id]").forEach((el) => { seen[el.id] = (seen[el.id] || 0) + 1; });
            return Object.keys(seen).filter((id) => seen[id] > 1);
        }""")
        if repeated:
            self.found.append(f"{state} duplicate id (moderate): {repeated}")

    def _run(self, options):
        """`Axe.run`, but axe-core's script (half a megabyte) is sent to a page only once: a page
        audited light and dark, or in a later state of the same document, keeps it."""
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            self.page.evaluate(AXE.axe_script)
        return AxeResults(self.page.evaluate(f"axe.run({AXE._format_script_args(context=None, options=options)})"))

    def report(self):
        return "\n".join(self.found)
