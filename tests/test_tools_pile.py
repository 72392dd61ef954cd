"""The tools index, the rules page, and the pile calculator, over HTTP."""

import pytest

from support.html_text import element_text, links, parse, select, text_of, texts
from support.tools import QUICK_ROUND, FIRST_EXAMPLE, FIRST_EXAMPLE_LINES, HX, M, items, link_url, problems, tap_url, text


# --- The index, the rules, and the crew link ----------------------------------------------------


def test_index_lists_the_tools_and_the_rules(client, crew):
    page = text(client.get(crew + "tools/"))
    for path in ("tools/pile", "tools/trick", "tools/bid", "tools/rules"):
        assert f"{crew}{path}" in links(page)
    assert "Once a round is saved" in page


def test_index_offers_what_if_for_saved_rounds(client, table):
    table.start_game()
    round_url = table.save_quick_round(*QUICK_ROUND)
    page = text(client.get(table.crew_url + "tools/"))
    assert f"{round_url}/what-if" in links(page)


def test_top_bar_links_to_the_tools_only_inside_a_crew(client, crew):
    assert f"{crew}tools/" in links(text(client.get(crew)))
    assert "tools/" not in text(client.get("/"))


@pytest.mark.parametrize(
    "path", ["tools/", "tools/pile", "tools/trick", "tools/bid", "tools/rules", "games/1/rounds/1/what-if"]
)
def test_a_wrong_crew_token_is_not_found(client, table, path):
    table.start_game()
    table.save_quick_round(*QUICK_ROUND)
    assert client.get(table.crew_url + path).status_code in (200, 422)
    assert client.get("/c/not-a-crew/" + path).status_code == 404


def test_rules_page_has_stable_sections_and_live_examples(client, crew):
    for url in (crew + "tools/rules", "/rules"):
        page = text(client.get(url))
        for section in ("round", "bidding", "play", "scoring", "target-bonus", "examples", "end-of-game",
                        "rulings", "strategy"):
            assert select(page, f"#{section}"), section
        assert texts(page, "h3 > strong") == ["25", "50", "80", "60", "10"]  # each example's total
        lines = texts(page, "li")
        assert f"Pair of 3s: {M}15" in lines and "Three 4s with your target: 40" in lines
        assert "Four 2s with your target: 80 (whatever the rank's value)" in lines
        assert "Four Aces: 4 × 15 = +60" in lines and "Three 7s: 2 × 5 = +10" in lines
        # The scoring table is the engine's: pair, three, four for each value.
        rows = [texts(row, "th, td") for row in select(page, "tr")]
        assert ["2 3 4 5", f"{M}15", f"{M}30", f"{M}60"] in rows and ["A", "15", "30", "60"] in rows
        shown = text_of(page)
        assert "Two Clubs is not legal: 2♣ does not beat 3♦." in shown
        assert "→ 2♠ wins, the only trump." in shown and "2♠" in texts(page, "strong.suit-S")
        assert "not over: a tie at the top, play on." in page
    assert "Thursday crew’s house rules" in text(client.get(crew + "tools/rules"))
    assert "house rules" not in text(client.get("/rules"))


# --- What is this pile worth? -------------------------------------------------------------------


def test_pile_first_worked_example_in_exact_mode(client, crew):
    response = client.get(crew + "tools/pile", query_string={"target": "10S", "cards": FIRST_EXAMPLE})
    assert response.status_code == 200
    page = text(response)
    assert element_text(page, "#pile-total") == "25"
    assert items(page, "pile-lines") == FIRST_EXAMPLE_LINES


def test_pile_second_worked_example_in_quick_mode(client, crew):
    response = client.get(crew + "tools/pile?mode=quick&target=4&counts=4:2,10:2")
    assert response.status_code == 200
    page = text(response)
    assert element_text(page, "#pile-total") == "50"
    assert items(page, "pile-lines") == ["Three 4s with your target: 40", "Pair of 10s: +10", "Total: 50"]


@pytest.mark.parametrize(
    "query, total",
    [
        ("mode=quick&target=2&counts=2:3", "80"),  # four of the target's rank, not −60
        ("mode=quick&target=K&counts=A:4", "60"),  # four Aces
        ("mode=quick&target=Q&counts=7:3", "10"),  # three 7s
        ("target=7D&cards=", "0"),  # nothing won: the lone target scores nothing
    ],
)
def test_pile_more_examples_from_the_rule_book(client, crew, query, total):
    page = text(client.get(crew + "tools/pile?" + query))
    assert element_text(page, "#pile-total") == str(total)


def test_pile_without_a_target_asks_for_one(client, crew):
    response = client.get(crew + "tools/pile?cards=3C+3D")
    assert response.status_code == 200
    page = text(response)
    assert "no target yet" in page and select(page, "#pile-total") == []
    assert "Tap the target card." in page


def test_pile_fragment_for_htmx_and_page_otherwise(client, crew):
    url = crew + "tools/pile?target=10S&cards=" + FIRST_EXAMPLE.replace(" ", "+")
    whole = client.get(url)
    fragment = client.get(url, headers=HX)
    assert "<html" in text(whole) and "<html" not in text(fragment)
    assert parse(text(fragment)).get("id") == "pile-tool"
    assert items(text(fragment), "pile-lines") == items(text(whole), "pile-lines") == FIRST_EXAMPLE_LINES
    assert "HX-Request" in fragment.headers["Vary"]
    # The address bar gets the pile's own address, the same one a tap makes.
    assert fragment.headers["HX-Push-Url"].endswith(
        "/tools/pile?target=10S&cards=3D+3C+4H+6S+9D+9C+JD+JH+JC+QS+AD+AH"
    )
    assert "HX-Push-Url" not in whole.headers


def test_pile_back_button_and_boosted_requests_get_the_whole_page(client, crew):
    url = crew + "tools/pile?target=10S&cards=3C+3D"
    for extra in ({"HX-History-Restore-Request": "true"}, {"HX-Boosted": "true"}):
        response = client.get(url, headers={**HX, **extra})
        assert "<html" in text(response) and "HX-Push-Url" not in response.headers


def test_pile_taps_are_links_that_rebuild_the_pile(client, crew):
    page = text(client.get(crew + "tools/pile"))
    # With no target, a tap sets the target; after that, taps add won cards.
    target_url = tap_url(page, "data-card", "10S")
    assert target_url.endswith("/tools/pile?target=10S")
    page = text(client.get(target_url, headers=HX))
    for code in FIRST_EXAMPLE.split():
        page = text(client.get(tap_url(page, "data-card", code), headers=HX))
    assert items(page, "pile-lines") == FIRST_EXAMPLE_LINES
    # A tap on a won card takes it out; the link already holds the pile without it.
    without_ace = tap_url(page, "data-card", "AD")
    question = without_ace.split("?", 1)[1]  # the crew link itself may hold any letters
    assert "AD" not in question and "AH" in question
    assert element_text(text(client.get(without_ace)), "#pile-total") == "10"


def test_pile_quick_tiles_count_up_and_down(client, crew):
    page = text(client.get(crew + "tools/pile?mode=quick&target=10&counts=3:2,9:2,J:3,A:2"))
    assert element_text(page, "#pile-total") == "25"
    up = tap_url(page, "data-rank", "J").replace("&amp;", "&")
    assert up.endswith("mode=quick&target=10&counts=3:2,9:2,J:4,A:2")
    assert element_text(text(client.get(up)), "#pile-total") == "45"
    down = link_url(page, 'a.tile-down[data-rank="3"]')
    assert element_text(text(client.get(down)), "#pile-total") == "40"


def test_pile_switching_to_quick_keeps_the_ranks(client, crew):
    page = text(client.get(crew + "tools/pile", query_string={"target": "10S", "cards": FIRST_EXAMPLE}))
    quick = next(link for link in select(page, "a.seg") if link.text_content() == "Quick: ranks").get("href")
    assert quick.endswith("mode=quick&target=10&counts=3:2,4:1,6:1,9:2,J:3,Q:1,A:2")
    assert element_text(text(client.get(quick)), "#pile-total") == "25"


@pytest.mark.parametrize(
    "query, message",
    [
        ("target=10S&cards=3C+ZZ", "'ZZ' is not a card: write a rank and a suit, such as 10S or Q♥"),
        ("target=10S&cards=3C+3C", "3♣ is in the pile twice"),
        ("target=10S&cards=3C+10S", "Your target 10♠ cannot also be in your won pile"),
        ("target=1S&cards=3C", "'1S' is not a card: '1' is not a rank (use 2–10, J, Q, K, A)"),
        ("mode=quick&target=10&counts=J:5", "You cannot have 5 Jacks: there are only 4 in the deck"),
        ("mode=quick&target=J&counts=J:4",
         "You cannot have 5 Jacks (4 won plus your target): there are only 4 in the deck"),
        ("mode=quick&target=10&counts=J:x", "'x' is not a number of Jacks"),
        ("mode=sideways&target=10S", "Pick exact (cards) or quick (ranks)."),
    ],
)
def test_pile_bad_address_shows_the_message_next_to_the_picker(client, crew, query, message):
    response = client.get(crew + "tools/pile?" + query)
    assert response.status_code == 422
    page = text(response)
    assert problems(page)[0].startswith(message)
    # The message sits between the picker's switch and its grid, and the grid still works.
    assert page.index('id="tool-problems"') < page.index('class="tiles tool-tiles"' if "quick" in query
                                                           else 'class="card-grid tool-grid"')
    assert select(page, "#pile-total") == []


def test_pile_bad_address_as_a_fragment_is_also_422(client, crew):
    response = client.get(crew + "tools/pile?target=10S&cards=3C+3C", headers=HX)
    assert response.status_code == 422
    assert "<html" not in text(response) and problems(text(response)) == ["3♣ is in the pile twice"]
