"""A form filled in wrongly says what is wrong, next to the field, without leaving the page."""
import re

from playwright.sync_api import expect

from steps import assert_fits_phone


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
