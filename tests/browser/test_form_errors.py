"""A form filled in wrongly says what is wrong, next to the field, without leaving the page."""
import re

from playwright.sync_api import expect

from support.browser import SCOREBOARD_URL, assert_fits_phone


def send(page, button):
    """Press the form's button; the answer must be the form again with its messages (422)."""
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        page.get_by_role("button", name=button).click()
    assert answer.value.status == 422, f"the server answered {answer.value.status}, not the form with its errors"


def test_crew_form_without_a_name_says_so(page, orchard):
    page.goto(orchard.base + "/")
    send(page, "Start the crew")
    expect(page.locator("#field-name .error")).to_have_text("Enter a name.")
    expect(page.locator("#name")).to_have_attribute("aria-invalid", "true")
    assert page.url == orchard.base + "/"
    assert_fits_phone(page)


def test_game_form_with_a_repeated_name_and_no_goal_says_so(page, orchard):
    orchard.start_crew()
    orchard.new_game_form()
    for seat, name in enumerate(["Ann", "Ben", "ann", ""]):
        page.fill(f"#player_{seat}", name)
    page.get_by_role("radio", name="Other", exact=True).check()
    send(page, "Start the game")
    expect(page.locator("#field-player_2 .error")).to_have_text("ann is already in seat 1.")
    expect(page.locator("#field-player_3 .error")).to_have_text("Enter a name.")
    expect(page.locator("#field-goal_other .error")).to_have_text("Enter the number of points to play to.")
    # What was typed is kept.
    expect(page.locator("#player_0")).to_have_value("Ann")
    assert re.search(r"/games/new$", page.url)
    assert_fits_phone(page)


def test_bid_form_says_what_is_missing_and_what_the_house_rules_refuse(page, orchard):
    """The round page's bid form: its messages next to its fields, the form kept open with what
    was picked, and nothing saved until the bid is whole and allowed."""
    orchard.start_crew()
    orchard.new_game_form()
    for seat, name in enumerate(orchard.names):
        page.fill(f"#player_{seat}", name)
    page.locator("details.game-rules summary").click()
    page.fill("#min_bid", "2")  # house rule: the lowest bid is Two
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(SCOREBOARD_URL)
    orchard.start_round(1)
    bid = page.locator("#step-bid")

    # Only the number picked: the phone itself knows who won and the suit are still missing,
    # and sends nothing until they are chosen.
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.locator("label:has(#number-1)").tap()
    expect(bid.locator("#field-bidder input:invalid")).to_have_count(4)
    expect(page.locator("#bid-details")).to_have_attribute("open", "")
    expect(page.locator("#number-1")).to_be_checked()
    expect(page.locator("#step-check .todo li").first).to_have_text("The bid is not entered yet.")

    # A whole bid under the house minimum: refused next to the number.
    bid.locator("#field-bidder label:has(input[value='1'])").tap()
    assert posts == []
    with page.expect_response(lambda response: response.url.endswith("/bid")) as answer:
        bid.locator("#field-suit label:has(input[value='S'])").tap()
    assert answer.value.status == 422
    expect(bid.locator("#field-number .error")).to_have_text("1♠ is below the house minimum: bids start at 2")
    expect(bid.locator("#field-bidder .error")).to_have_count(0)
    expect(bid.locator(".trump")).to_have_count(0)
    expect(page.get_by_role("radio", name="Ben", exact=True)).to_be_checked()
    expect(page.locator("#step-check .todo li").first).to_have_text("The bid is not entered yet.")
    assert re.search(r"/rounds/1$", page.url)
    assert_fits_phone(page)

    # Two Spades is allowed: the bid is saved and the form folds away.
    orchard.bid(1, 2, "S")
    expect(bid.locator(".trump")).to_have_text("Trump ♠ · Ben won with Two Spades and leads.")
    expect(bid.locator(".error")).to_have_count(0)
