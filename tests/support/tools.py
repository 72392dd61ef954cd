"""What the dispute-tool tests share: reading answers out of a tool's page.

Expected values are worked out by hand from RULES.md (values 2-5 → −15, 6-9 → 5, 10-K → 10,
A → 15; pair = value, three = 2 × value, four = 4 × value; three of the target's rank = 40,
four = 80; the target counts as one more card of its rank).
"""
import html
import sqlite3

from support.html_text import select, texts

M = "−"  # the engine writes negative points with a real minus sign
FIRST_EXAMPLE = "3C 3D 4H 6S 9C 9D JC JD JH QS AH AD"  # target 10♠ → 25
FIRST_EXAMPLE_LINES = [
    f"Pair of 3s: {M}15",
    "Pair of 9s: +5",
    "Three Jacks: 2 × 10 = +20",
    "Pair of Aces: +15",
    "Singles score nothing: 4, 6, 10, Q",
    "Total: 25",
]
HX = {"HX-Request": "true"}


def text(response):
    return html.unescape(response.get_data(as_text=True))


def items(page, list_id):
    """The text of each <li> in the list with this id."""
    assert select(page, f"ul#{list_id}"), f"no list #{list_id}"
    return texts(page, f"ul#{list_id} > li")


def problems(page, list_id="tool-problems"):
    """The problems the tool reports in its alert list (none when there is no list)."""
    return texts(page, f'ul.problems#{list_id}[role="alert"] > li')


def tap_url(page, attribute, value):
    """The address a tap on one button leads to (its href, the same as its hx-get)."""
    return link_url(page, f'a[{attribute}="{value}"]')


def link_url(page, css):
    """Where the link matching `css` goes, checking that htmx fetches the same address."""
    found = select(page, css)
    assert found, f"no link {css}"
    assert found[0].get("href") == found[0].get("hx-get"), f"{css} goes one way and fetches another"
    return found[0].get("href")


def dump(app):
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return list(db.iterdump())


# Quick entry, the full-game test's first round: Ann 25, Ben 50, Cleo 20, Dan −20.
QUICK_ROUND = (
    ["10S", "4H", "KD", "2S"],
    [{"3": 2, "9": 2, "J": 3, "A": 2}, {"4": 2, "10": 2}, {"K": 1, "7": 3}, {"2": 1, "5": 2, "Q": 2}],
)
