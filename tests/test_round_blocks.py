"""The round page swaps its parts one way (issue 37.5): each region is a named block of
templates/rounds/show.html, drawn alone by name. A block drawn alone must be the very element the
whole page draws (a block sees only the render's context, so a name set or a macro imported
outside it would be missing alone and still work on the page)."""
import copy
import re
from pathlib import Path

import lxml.html
import pytest

from support.html_text import select
from jinja2_fragments.flask import render_block

from web.rounds.page import PAGE, regions, template_context, view_of

ROOT = Path(__file__).resolve().parents[1]
# Each block an answer swaps, and the element it draws.
REGIONS = {"poll": "poll", "deal": "deal", "bid": "step-bid", "bid_known": "bid-known",
           "bid_summary": "bid-summary", "tabs": "tabs", "hand": "hand-panel",
           "hand_notice": "hand-notice", "target_summary": "target-summary", "hand_result": "hand-result",
           "check": "step-check"}


def _element(html, element_id):
    found = select(html, f"#{element_id}")
    assert len(found) == 1, element_id
    element = copy.deepcopy(found[0])  # the parsed page is shared (support/html_text.parse)
    element.tail = None  # what follows the element is not part of it
    for inner in element.iter():
        inner.attrib.pop("hx-swap-oob", None)
    return lxml.html.tostring(element, encoding="unicode")


def _number(url):
    return int(url.rsplit("/", 1)[1])


def _alone(app, url, blocks, **extra):
    """The answer a tap gets: the blocks (and the poll) drawn alone, out of band."""
    with app.test_request_context(url):
        app.preprocess_request()
        return regions(view_of(_number(url)), *blocks, **extra).get_data(as_text=True)


def _block(app, url, block):
    with app.test_request_context(url):
        app.preprocess_request()
        view = view_of(_number(url))
        return render_block(PAGE, block, **template_context(view, oob=True))


@pytest.mark.parametrize("mode", ["quick", "exact"])
def test_every_region_drawn_alone_is_the_page_s_own_element(app, client, table, mode):
    table.start_crew()
    table.start_game()
    url = table.start_round()
    client.post(url + "/bid", data={"bidder": "1", "number": "2", "suit": "H"})
    if mode == "exact":
        client.post(url + "/hands/0/mode", data={"mode": "exact"})
        client.post(url + "/hands/0/cards/KS", data={"held": "1"})
    else:
        client.post(url + "/hands/0/counts/K", data={"count": "2"})
    client.post(url + "/hands/0/target", data={"target": "4S"})
    blocks = list(REGIONS) + (["card_grid"] if mode == "exact" else [])
    page = app.test_client().get(url).get_data(as_text=True)  # a phone without a seat, as below
    for block, element_id in {**REGIONS, "card_grid": "card-grid"}.items():
        if block in blocks:
            alone = _block(app, url, block)
            # Drawn alone, the region is marked for an out-of-band swap, and is the page's element.
            assert select(alone, f"#{element_id}")[0].get("hx-swap-oob") == "true", block
            assert _element(alone, element_id) == _element(page, element_id), block


def test_a_refused_tap_draws_the_control_and_its_message_alone(app, table):
    table.start_crew()
    table.start_game()
    url = table.start_round()
    alone = _alone(app, url, ["control", "message", "bar_message"],
                   control={"kind": "rank", "rank": "K", "slot": "rank-K"}, message_text="Too many Kings.",
                   bar_text="")
    assert [element.get("id") for element in select(alone, "[hx-swap-oob]")] == [
        "poll", "rank-K", "msg-rank-K", "msg-rank-K", "bar-msg"]
    assert select(alone, "#msg-rank-K")[0].text_content() == "Too many Kings."


def test_the_round_page_has_no_partials_named_at_run_time():
    """One mechanism: the round's regions are blocks of one template, not files put together by a
    list of names (`{% include "rounds/" ~ part %}`)."""
    templates = sorted(path.name for path in (ROOT / "templates" / "rounds").glob("*.html"))
    assert templates == ["_controls.html", "_saved.html", "show.html"]
    for path in (ROOT / "templates").rglob("*.html"):
        assert "include \"rounds/\" ~" not in path.read_text(), path


def test_every_answer_redraws_blocks_of_the_page_and_every_kind_is_used():
    """What each answer redraws is named in one place (web/rounds/redraw.py): each name is a block
    of the page, and each kind there is one a view asks for (a stale entry would hide a change)."""
    from web.rounds import redraw

    page = (ROOT / "templates" / "rounds" / "show.html").read_text()
    defined = set(re.findall(r"{%-? block (\w+)", page))
    for kind, blocks in redraw.REDRAWN.items():
        assert set(blocks) <= defined, (kind, set(blocks) - defined)
    views = "".join((ROOT / "web" / "rounds" / name).read_text() for name in ("entry.py", "saved.py"))
    asked = set(re.findall(r'redraw\.blocks\("([^"]+)"', views)) | {"card", "rank", "target"}  # a tap's control
    assert asked == set(redraw.REDRAWN)
