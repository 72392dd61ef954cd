"""The dispute tools: pile, trick, bid, what-if and the rules page, over HTTP.

Expected values are worked out by hand from RULES.md (values 2-5 → −15, 6-9 → 5, 10-K → 10,
A → 15; pair = value, three = 2 × value, four = 4 × value; three of the target's rank = 40,
four = 80; the target counts as one more card of its rank).
"""
import html
import re
import sqlite3

import pytest

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
    found = re.search(rf'<ul[^>]*id="{list_id}"[^>]*>(.*?)</ul>', page, re.S)
    assert found, f"no list #{list_id}"
    return [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


def problems(page, list_id="tool-problems"):
    found = re.search(rf'<ul class="problems" id="{list_id}" role="alert">(.*?)</ul>', page, re.S)
    return [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)] if found else []


def tap_url(page, attribute, value):
    """The address a tap on one button leads to (its href, the same as its hx-get)."""
    found = re.search(rf'<a class="[^"]*" href="([^"]+)" hx-get="\1"\s+{attribute}="{value}"', page)
    assert found, f"no tap for {attribute}={value}"
    return found.group(1)


@pytest.fixture
def crew(table):
    return table.start_crew()  # "/c/<token>/"


def dump(app):
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return list(db.iterdump())


# --- The index, the rules, and the crew link ----------------------------------------------------


def test_index_lists_the_tools_and_the_rules(client, crew):
    page = text(client.get(crew + "tools/"))
    for path in ("tools/pile", "tools/trick", "tools/bid", "tools/rules"):
        assert f'href="{crew}{path}"' in page
    assert "Once a round is saved" in page


def test_index_offers_what_if_for_saved_rounds(client, table):
    table.start_game()
    round_url = table.enter_quick_round(*QUICK_ROUND)
    page = text(client.get(table.crew_url + "tools/"))
    assert f'href="{round_url}/what-if"' in page


def test_top_bar_links_to_the_tools_only_inside_a_crew(client, crew):
    assert f'href="{crew}tools/"' in text(client.get(crew))
    assert "tools/" not in text(client.get("/"))


@pytest.mark.parametrize(
    "path", ["tools/", "tools/pile", "tools/trick", "tools/bid", "tools/rules", "games/1/rounds/1/what-if"]
)
def test_a_wrong_crew_token_is_not_found(client, table, path):
    table.start_game()
    table.enter_quick_round(*QUICK_ROUND)
    assert client.get(table.crew_url + path).status_code in (200, 422)
    assert client.get("/c/not-a-crew/" + path).status_code == 404


def test_rules_page_has_stable_sections_and_live_examples(client, crew):
    for url in (crew + "tools/rules", "/rules"):
        page = text(client.get(url))
        for section in ("round", "bidding", "play", "scoring", "target-bonus", "examples", "end-of-game",
                        "rulings", "strategy"):
            assert f'id="{section}"' in page
        headings = re.findall(r"<h3>[^<]*: <strong>([^<]+)</strong></h3>", page)
        assert headings == ["25", "50", "80", "60", "10"]
        assert f"<li>Pair of 3s: {M}15</li>" in page and "<li>Three 4s with your target: 40</li>" in page
        assert "<li>Four 2s with your target: 80 (whatever the rank's value)</li>" in page
        assert "<li>Four Aces: 4 × 15 = +60</li>" in page and "<li>Three 7s: 2 × 5 = +10</li>" in page
        # The scoring table is the engine's: pair, three, four for each value.
        assert re.search(rf"<th scope=\"row\">2 3 4 5</th><td>{M}15</td><td>{M}30</td><td>{M}60</td>", page)
        assert re.search(r"<th scope=\"row\">A</th><td>15</td><td>30</td><td>60</td>", page)
        assert "Two Clubs is <strong>not legal</strong>: 2♣ does not beat 3♦." in page
        assert "→ <strong class=\"suit-S\">2♠</strong> wins, the only trump." in page
        assert "not over: a tie at the top, play on." in page
    assert "Thursday crew’s house rules" in text(client.get(crew + "tools/rules"))
    assert "house rules" not in text(client.get("/rules"))


# --- What is this pile worth? -------------------------------------------------------------------


def test_pile_first_worked_example_in_exact_mode(client, crew):
    response = client.get(crew + "tools/pile", query_string={"target": "10S", "cards": FIRST_EXAMPLE})
    assert response.status_code == 200
    page = text(response)
    assert '<strong class="total" id="pile-total">25</strong>' in page
    assert items(page, "pile-lines") == FIRST_EXAMPLE_LINES


def test_pile_second_worked_example_in_quick_mode(client, crew):
    response = client.get(crew + "tools/pile?mode=quick&target=4&counts=4:2,10:2")
    assert response.status_code == 200
    page = text(response)
    assert '<strong class="total" id="pile-total">50</strong>' in page
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
    assert f'<strong class="total" id="pile-total">{total}</strong>' in page


def test_pile_without_a_target_asks_for_one(client, crew):
    response = client.get(crew + "tools/pile?cards=3C+3D")
    assert response.status_code == 200
    page = text(response)
    assert "no target yet" in page and 'id="pile-total"' not in page
    assert "Tap the target card." in page


def test_pile_fragment_for_htmx_and_page_otherwise(client, crew):
    url = crew + "tools/pile?target=10S&cards=" + FIRST_EXAMPLE.replace(" ", "+")
    whole = client.get(url)
    fragment = client.get(url, headers=HX)
    assert "<html" in text(whole) and "<html" not in text(fragment)
    assert text(fragment).lstrip().startswith('<div id="pile-tool"')
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
    assert "AD" not in without_ace and "AH" in without_ace
    assert '<strong class="total" id="pile-total">10</strong>' in text(client.get(without_ace))


def test_pile_quick_tiles_count_up_and_down(client, crew):
    page = text(client.get(crew + "tools/pile?mode=quick&target=10&counts=3:2,9:2,J:3,A:2"))
    assert '<strong class="total" id="pile-total">25</strong>' in page
    up = tap_url(page, "data-rank", "J").replace("&amp;", "&")
    assert up.endswith("mode=quick&target=10&counts=3:2,9:2,J:4,A:2")
    assert '<strong class="total" id="pile-total">45</strong>' in text(client.get(up))
    down = re.search(r'<a class="tile-down" href="([^"]+)" hx-get="\1" data-rank="3"', page).group(1)
    assert '<strong class="total" id="pile-total">40</strong>' in text(client.get(down))


def test_pile_switching_to_quick_keeps_the_ranks(client, crew):
    page = text(client.get(crew + "tools/pile", query_string={"target": "10S", "cards": FIRST_EXAMPLE}))
    quick = re.search(r'<a class="seg" href="([^"]+)" hx-get="\1">Quick: ranks</a>', page).group(1)
    assert quick.endswith("mode=quick&target=10&counts=3:2,4:1,6:1,9:2,J:3,Q:1,A:2")
    assert '<strong class="total" id="pile-total">25</strong>' in text(client.get(quick))


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
    assert 'id="pile-total"' not in page


def test_pile_bad_address_as_a_fragment_is_also_422(client, crew):
    response = client.get(crew + "tools/pile?target=10S&cards=3C+3C", headers=HX)
    assert response.status_code == 422
    assert "<html" not in text(response) and problems(text(response)) == ["3♣ is in the pile twice"]


# --- Who wins this trick? -----------------------------------------------------------------------


def trick_answer(page):
    found = re.search(r'<div class="tool-result verdict-box" id="trick-result".*?<p>(.*?)</p>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


@pytest.mark.parametrize(
    "trump, cards, answer",
    [
        ("S", "4H KH 2S AH", "2♠ wins the trick: the only trump."),
        # No trump played: the highest card of the suit led wins; the ace of spades is off-suit.
        ("C", "9D KD AS 2D", "K♦ wins the trick: highest of the suit led (♦); no trump was played."),
        ("S", "5C 3S QC JS", "J♠ wins the trick: the highest trump."),
        ("H", "4H KH", "K♥ is winning so far: the highest trump."),
    ],
)
def test_trick_winner_and_reason(client, crew, trump, cards, answer):
    response = client.get(crew + "tools/trick", query_string={"trump": trump, "cards": cards})
    assert response.status_code == 200
    assert trick_answer(text(response)) == answer


def test_trick_marks_the_winning_place(client, crew):
    page = text(client.get(crew + "tools/trick?trump=S&cards=4H+KH+2S+AH"))
    assert re.findall(r'<li class="slot( wins)?">\s*<span class="place">([^<]+)</span>', page) == [
        ("", "1st, led"), ("", "2nd"), (" wins", "3rd"), ("", "4th"),
    ]


def test_trick_taps_build_the_trick_in_play_order(client, crew):
    page = text(client.get(crew + "tools/trick?trump=S", headers=HX))
    for code in ["4H", "KH", "2S", "AH"]:
        page = text(client.get(tap_url(page, "data-card", code), headers=HX))
    assert trick_answer(page) == "2♠ wins the trick: the only trump."
    # A full trick: the other cards cannot be tapped; a played card can be taken back.
    assert '<span class="cardbtn suit-S off" data-card="3S" aria-disabled="true">' in page
    assert tap_url(page, "data-card", "2S").endswith("/tools/trick?trump=S&cards=4H+KH+AH")


def test_trick_fragment_and_shareable_address(client, crew):
    url = crew + "tools/trick?trump=S&cards=4H+KH+2S+AH"
    fragment = client.get(url, headers=HX)
    assert text(fragment).lstrip().startswith('<div id="trick-tool"') and "<html" not in text(fragment)
    assert fragment.headers["HX-Push-Url"] == url
    assert trick_answer(text(client.get(url))) == trick_answer(text(fragment))


@pytest.mark.parametrize(
    "query, where, message",
    [
        ("trump=X&cards=4H", "trump-problems", "'X' is not a suit (use C, D, H, S or ♣ ♦ ♥ ♠)"),
        ("trump=S&cards=4H+4H", "tool-problems", "4♥ is played twice in one trick"),
        ("trump=S&cards=4H+KH+2S+AH+3C", "tool-problems", "A trick has 1 to 4 cards, not 5"),
        ("trump=S&cards=4H+QQ", "tool-problems", "'QQ' is not a card"),
    ],
)
def test_trick_bad_input_is_422_with_the_message_next_to_the_field(client, crew, query, where, message):
    response = client.get(crew + "tools/trick?" + query)
    assert response.status_code == 422
    assert problems(text(response), where)[0].startswith(message)


# --- Is this bid legal? -------------------------------------------------------------------------


def bid_page(client, crew, calls="", next_call="", headers=None):
    query = {key: value for key, value in (("calls", calls), ("next", next_call)) if value}
    return client.get(crew + "tools/bid", query_string=query, headers=headers or {})


def verdict(page):
    found = re.search(r'<p class="answer">([^<]*)</p>', page)
    return found.group(1) if found else None


def status(page):
    found = re.search(r'<section class="panel status" id="bid-status"[^>]*>\s*<h2>.*?</h2>(.*?)</section>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else None


def test_bid_a_higher_number_beats_a_stronger_suit(client, crew):
    page = text(bid_page(client, crew, "2S", "3D"))
    assert verdict(page) == "Legal."
    assert "Next to call: Third bidder." in status(page)
    assert "Lowest legal bid: 3♥ (Three Hearts), or pass." in status(page)


def test_bid_that_does_not_beat_the_highest_is_refused_with_the_engines_reason(client, crew):
    response = bid_page(client, crew, "2S pass 3D", "2C")
    assert response.status_code == 200  # a fair question; the answer is no
    page = text(response)
    assert verdict(page) == "Not legal: 2♣ does not beat 3♦."
    assert "Next to call: Fourth bidder (the dealer)." in status(page)
    assert "Lowest legal bid: 3♥ (Three Hearts), or pass." in status(page)
    calls = re.findall(r'<li><span class="who">([^<]+)</span> <strong[^>]*>([^<]+)</strong></li>', page)
    assert calls == [("First bidder", "2♠"), ("Second bidder", "Pass"), ("Third bidder", "3♦")]


def test_bid_three_passes_after_a_bid_end_the_auction(client, crew):
    page = text(bid_page(client, crew, "2S pass pass pass"))
    assert status(page).startswith("The bidding is over. First bidder won with Two Spades: trump is ♠ Spades")
    # The third pass, asked as the next call, is legal and ends it the same way.
    page = text(bid_page(client, crew, "pass 2H pass pass", "pass"))
    assert verdict(page) == "Legal."
    assert "Second bidder won with Two Hearts: trump is ♥ Hearts" in status(page)


def test_bid_a_player_who_passed_may_bid_again(client, crew):
    page = text(bid_page(client, crew, "pass 1D pass pass", "1H"))
    assert verdict(page) == "Legal."


def test_bid_four_passes_are_a_redeal_by_the_same_dealer(client, crew):
    page = text(bid_page(client, crew, "pass pass pass pass"))
    assert status(page) == ("Four passes: a redeal. The cards are thrown in and the same dealer deals again.")
    page = text(bid_page(client, crew, "pass pass pass pass", "1D"))
    assert verdict(page) == (
        "Not legal: Everybody passed, so the cards are thrown in and redealt: no more calls."
    )


def test_bid_nothing_beats_thirteen_spades(client, crew):
    page = text(bid_page(client, crew, "13S"))
    assert "Only a pass now: nothing beats Thirteen Spades." in status(page)


def test_bid_follows_the_crews_lowest_bid(client, crew):
    response = client.post(crew + "house-rules", data={
        "goal": "250", "tie_rule": "play-on", "min_bid": "2", "redeal_moves_deal": "no",
    })
    assert response.status_code == 303
    page = text(bid_page(client, crew, "", "1S"))
    assert verdict(page) == "Not legal: 1♠ is below the house minimum: bids start at 2."
    assert "Lowest legal bid: 2♦ (Two Diamonds), or pass." in status(page)


def test_bid_taps_add_the_call_in_question_once_it_is_legal(client, crew):
    page = text(bid_page(client, crew, headers=HX))
    assert "Lowest legal bid: 1♦ (One Diamond), or pass." in status(page)
    page = text(client.get(tap_url(page, "data-bid", "2S"), headers=HX))
    page = text(client.get(re.search(r'<a class="button wide pass-button" href="([^"]+)"', page).group(1), headers=HX))
    page = text(client.get(tap_url(page, "data-bid", "3D"), headers=HX))
    follow = tap_url(page, "data-bid", "2C")
    assert follow.endswith("/tools/bid?calls=2S+pass+3D&next=2C")
    page = text(client.get(follow, headers=HX))
    assert verdict(page) == "Not legal: 2♣ does not beat 3♦."
    # An illegal call is replaced by the next tap, not added.
    assert tap_url(page, "data-bid", "3H").endswith("/tools/bid?calls=2S+pass+3D&next=3H")


def test_bid_fragment_and_shareable_address(client, crew):
    fragment = bid_page(client, crew, "2S pass 3D", "2C", headers=HX)
    assert text(fragment).lstrip().startswith('<div id="bid-tool"') and "<html" not in text(fragment)
    assert fragment.headers["HX-Push-Url"] == crew + "tools/bid?calls=2S+pass+3D&next=2C"
    whole = text(client.get(fragment.headers["HX-Push-Url"]))
    assert "<html" in whole and verdict(whole) == verdict(text(fragment))


@pytest.mark.parametrize(
    "calls, next_call, where, message",
    [
        ("3D 2C", "", "calls-problems", "2♣ does not beat 3♦"),
        ("2X", "", "calls-problems", "'2X': 'X' is not a suit"),
        ("2S", "14S", "next-problems", "'14S': a bid is a number from 1 to 13 and a suit"),
    ],
)
def test_bid_bad_input_is_422_with_the_message_next_to_the_field(client, crew, calls, next_call, where, message):
    response = bid_page(client, crew, calls, next_call)
    assert response.status_code == 422
    assert problems(text(response), where)[0].startswith(message)


# --- What if? -----------------------------------------------------------------------------------

# Quick entry, the full-game test's first round: Ann 25, Ben 50, Cleo 20, Dan −20.
QUICK_ROUND = (
    ["10S", "4H", "KD", "2S"],
    [{"3": 2, "9": 2, "J": 3, "A": 2}, {"4": 2, "10": 2}, {"K": 1, "7": 3}, {"2": 1, "5": 2, "Q": 2}],
)
# A real deal entered card by card: Ann 25, Ben 115, Cleo −25, Dan 115 (Dan gets the rest:
# 6D 6H 6C 7H 7C 7S 8D 8H 8C 8S 9H 9S).
EXACT_PILES = [
    ("10S", FIRST_EXAMPLE),
    ("QH", "QD QC KD KH KC KS AC AS 10D 10H 10C JS"),
    ("2C", "2D 2H 2S 3H 3S 4D 4C 4S 5D 5H 5C 5S"),
    ("7D", None),
]


def enter_exact_round(client, table):
    url = table.start_round()
    client.post(url + "/mode", data={"mode": "exact"})
    client.post(url + "/bid", data={"bidder": "1", "number": "2", "suit": "S"})
    for seat, (target, _) in enumerate(EXACT_PILES):
        assert client.post(url + f"/hands/{seat}/target", data={"target": target}).status_code == 200
    for seat, (_, cards) in enumerate(EXACT_PILES):
        for card in (cards or "").split():
            assert client.post(url + f"/hands/{seat}/cards", data={"add": card}).status_code == 200
    assert client.post(url + "/hands/3/remaining").status_code == 200
    response = client.post(url + "/save", data={"version": table.version(url)})
    assert response.status_code == 303, text(response)
    return url


def score_columns(page):
    """Each player's row of the comparison: name, recorded, what if, change."""
    body = re.search(r'<table class="what-if-table".*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    return [
        tuple(re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S))
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def change_line(page):
    found = re.search(r'<p class="change-line" id="what-if-change">([^<]*)</p>', page)
    return found.group(1) if found else None


def test_what_if_without_a_change_shows_the_recorded_scores(client, table):
    table.start_game()
    url = table.enter_quick_round(*QUICK_ROUND)
    response = client.get(url + "/what-if")
    assert response.status_code == 200
    assert score_columns(text(response)) == [
        ("Ann", "25", "—", "—"), ("Ben", "50", "—", "—"), ("Cleo", "20", "—", "—"), ("Dan", f"{M}20", "—", "—"),
    ]


def test_what_if_a_rank_count_moves_in_quick_mode(app, client, table):
    table.start_game()
    url = table.enter_quick_round(*QUICK_ROUND)
    before = dump(app)
    response = client.get(url + "/what-if?change=move&rank=J&from=0&to=1")
    assert response.status_code == 200
    page = text(response)
    assert change_line(page) == "What if Ben had won one Jack instead of Ann?"
    # Ann keeps a pair of Jacks (+10 instead of +20); Ben's lone Jack scores nothing.
    assert score_columns(page) == [
        ("Ann", "25", "15", f"{M}10"), ("Ben", "50", "50", "same"),
        ("Cleo", "20", "20", "same"), ("Dan", f"{M}20", f"{M}20", "same"),
    ]
    assert "<li>Pair of Jacks: +10</li>" in page and "<li>Three Jacks: 2 × 10 = +20</li>" in page
    assert dump(app) == before  # nothing was saved


def test_what_if_a_card_moves_in_exact_mode(app, client, table):
    table.start_game()
    url = enter_exact_round(client, table)
    before = dump(app)
    page = text(client.get(url + "/what-if?change=move&card=JH&to=1"))
    assert change_line(page) == "What if Ben had won J♥ instead of Ann?"
    # Ann: pair of Jacks +10 instead of three, 15. Ben: J♠ and J♥ make a pair, +10 → 125.
    assert score_columns(page) == [
        ("Ann", "25", "15", f"{M}10"), ("Ben", "115", "125", "+10"),
        ("Cleo", f"{M}25", f"{M}25", "same"), ("Dan", "115", "115", "same"),
    ]
    # One card alone cannot really change hands (tricks are 4 cards): the engine says so.
    assert "Ann's pile has 11 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards." in page
    assert dump(app) == before


def test_what_if_a_target_changes_in_exact_mode(app, client, table):
    table.start_game()
    url = enter_exact_round(client, table)
    before = dump(app)
    page = text(client.get(url + "/what-if?change=target&seat=0&target=JS"))
    assert change_line(page) == "What if Ann’s target had been J♠ instead of 10♠?"
    # Ann: J♠ joins her three Jacks → four of the target's rank, 80; −15 + 5 + 80 + 15 = 85.
    # Ben gets 10♠ in J♠'s place: four 10s, 40 instead of three, 20 → 135.
    assert score_columns(page) == [
        ("Ann", "25", "85", "+60"), ("Ben", "115", "135", "+20"),
        ("Cleo", f"{M}25", f"{M}25", "same"), ("Dan", "115", "115", "same"),
    ]
    assert "Ann's pile has" not in page  # a swap keeps the deck whole
    assert dump(app) == before


def test_what_if_fragment_and_shareable_address(client, table):
    table.start_game()
    url = table.enter_quick_round(*QUICK_ROUND)
    fragment = client.get(url + "/what-if?change=move&rank=J&from=0&to=1&card=&seat=&target=", headers=HX)
    assert text(fragment).lstrip().startswith('<div id="what-if"') and "<html" not in text(fragment)
    assert fragment.headers["HX-Push-Url"] == url + "/what-if?change=move&rank=J&from=0&to=1"
    whole = text(client.get(fragment.headers["HX-Push-Url"]))
    assert score_columns(whole) == score_columns(text(fragment))


@pytest.mark.parametrize(
    "query, message",
    [
        ("change=move&rank=J&from=0&to=0", "Pick two different players."),
        ("change=move&rank=K&from=0&to=1", "Ann’s pile has no Kings entered."),
        ("change=move&rank=J&from=7&to=1", "Pick one of the four players."),
        ("change=move&rank=Z&from=0&to=1", "'Z' is not a rank (use 2–10, J, Q, K, A)"),
        ("change=target&seat=0&target=10S", "10♠ is already Ann’s target."),
        ("change=swap", "Pick what to change: move a card, or change a target."),
    ],
)
def test_what_if_bad_input_is_422_with_a_message(client, table, query, message):
    table.start_game()
    url = table.enter_quick_round(*QUICK_ROUND)
    response = client.get(url + "/what-if?" + query)
    assert response.status_code == 422
    assert problems(text(response)) == [message]


def test_what_if_refuses_what_no_deck_has(client, table):
    table.start_game()
    # Ann won all four Jacks; in quick entry only the target changes, so a Jack as her target
    # would make a fifth Jack, and the engine refuses to score it.
    url = table.enter_quick_round(
        ["10S", "4H", "KD", "2S"],
        [{"J": 4}, {"4": 2, "10": 2}, {"K": 1, "7": 3}, {"2": 1, "5": 2, "Q": 2}],
    )
    response = client.get(url + "/what-if?change=target&seat=0&target=JS")
    assert response.status_code == 422
    assert problems(text(response)) == [
        "Ann: You cannot have 5 Jacks (4 won plus your target): there are only 4 in the deck"
    ]


def test_what_if_needs_a_saved_round(client, table):
    table.start_game()
    open_url = table.start_round()
    assert client.get(open_url + "/what-if").status_code == 404
    assert client.get(table.game_url + "/rounds/9/what-if").status_code == 404
    assert client.get(table.crew_url + "games/999/rounds/1/what-if").status_code == 404


def test_what_if_uses_the_saved_round_while_a_correction_is_open(client, table):
    table.start_game()
    url = table.enter_quick_round(*QUICK_ROUND)
    assert client.post(url + "/correct").status_code == 303
    page = text(client.get(url + "/what-if"))
    assert [row[:2] for row in score_columns(page)] == [("Ann", "25"), ("Ben", "50"), ("Cleo", "20"), ("Dan", f"{M}20")]


def test_what_if_of_another_crews_game_is_not_found(client, table):
    table.start_game()
    url = table.enter_quick_round(*QUICK_ROUND)
    other = table.start_crew("Other crew")
    assert client.get(other + url.split("/", 3)[3] + "/what-if").status_code == 404
