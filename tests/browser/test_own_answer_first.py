"""The answer to what the player did comes before what a poll brings: a save that ended the game is
said ("Round 1 saved.") on the result even when the round page's poll, sent meanwhile, came back
first with word that the game is over and where to go. Before, the poll moved the page on and the
save's answer was lost (seen at a club night table under load: the saver never read "Round 2
saved.")."""
from playwright.sync_api import expect

from support.browser import POLL_SECONDS


def test_a_save_that_ends_the_game_is_said_though_a_poll_came_back_first(orchard, page):
    orchard.start_crew()
    orchard.start_game(goal="other", goal_other=40)
    orchard.start_round(1)
    orchard.bid(0, 1, "S")
    orchard.counts(0, "4S", {"4": 2})  # three 4s with her target: 40, the goal
    for seat, target in ((1, "2S"), (2, "3S"), (3, "5S")):
        orchard.target(seat, target)
    held = []
    page.route("**/rounds/1/save", lambda route: held.append(route))
    page.locator("label.confirm-singles").tap()
    page.get_by_role("button", name="Save round 1").tap()
    page.wait_for_function("() => document.querySelector('form.htmx-request')")
    while not held:
        page.wait_for_timeout(20)
    answer = held[0].fetch()  # the server saves the round: the game is over
    page.wait_for_timeout(POLL_SECONDS * 3 * 1000)  # polls go and come back meanwhile
    held[0].fulfill(response=answer)
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")
    expect(page.locator(".winner h1")).to_have_text("Ann wins!")
