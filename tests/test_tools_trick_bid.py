"""The trick and bid calculators, over HTTP."""
import pytest

from support.html_text import element_text, parse, select
from support.tools import HX, link_url, problems, tap_url, text


# --- Who wins this trick? -----------------------------------------------------------------------


def trick_answer(page):
    return element_text(page, "#trick-result p")


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
    assert [("wins" in slot.get("class").split(), element_text(slot, ".place")) for slot in select(page, "li.slot")] == [
        (False, "1st, led"), (False, "2nd"), (True, "3rd"), (False, "4th"),
    ]


def test_trick_taps_build_the_trick_in_play_order(client, crew):
    page = text(client.get(crew + "tools/trick?trump=S", headers=HX))
    for code in ["4H", "KH", "2S", "AH"]:
        page = text(client.get(tap_url(page, "data-card", code), headers=HX))
    assert trick_answer(page) == "2♠ wins the trick: the only trump."
    # A full trick: the other cards cannot be tapped; a played card can be taken back.
    assert [(card.tag, card.get("aria-disabled")) for card in select(page, '.cardbtn[data-card="3S"]')] == [("span", "true")]
    assert tap_url(page, "data-card", "2S").endswith("/tools/trick?trump=S&cards=4H+KH+AH")


def test_trick_fragment_and_shareable_address(client, crew):
    url = crew + "tools/trick?trump=S&cards=4H+KH+2S+AH"
    fragment = client.get(url, headers=HX)
    assert parse(text(fragment)).get("id") == "trick-tool" and "<html" not in text(fragment)
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
    return element_text(page, "p.answer")


def status(page):
    """The bidding's state, under its heading."""
    found, heading = element_text(page, "#bid-status"), element_text(page, "#bid-status h2")
    return found[len(heading):].strip() if found is not None else None


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
    calls = [(element_text(call, ".who"), element_text(call, "strong")) for call in select(page, "li") if select(call, ".who")]
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
    page = text(client.get(link_url(page, "a.pass-button"), headers=HX))
    page = text(client.get(tap_url(page, "data-bid", "3D"), headers=HX))
    follow = tap_url(page, "data-bid", "2C")
    assert follow.endswith("/tools/bid?calls=2S+pass+3D&next=2C")
    page = text(client.get(follow, headers=HX))
    assert verdict(page) == "Not legal: 2♣ does not beat 3♦."
    # An illegal call is replaced by the next tap, not added.
    assert tap_url(page, "data-bid", "3H").endswith("/tools/bid?calls=2S+pass+3D&next=3H")


def test_bid_fragment_and_shareable_address(client, crew):
    fragment = bid_page(client, crew, "2S pass 3D", "2C", headers=HX)
    assert parse(text(fragment)).get("id") == "bid-tool" and "<html" not in text(fragment)
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
