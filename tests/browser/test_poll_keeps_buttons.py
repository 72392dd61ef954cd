"""A live poll on its way changes nothing the player sees: the scoreboard's buttons keep their colour while the page asks the server what is new (every 3 s; on a slow network
a poll is on its way for a good part of that). Before, every submit button inside the polling
region was drawn at 70 % opacity until the answer came: the table saw "Start round 1" blink, and
axe found its contrast too low whenever it looked at that moment."""
from playwright.sync_api import expect



def _held_polls(page, pattern):
    """Polls matching `pattern` are held on their way until `release()`."""
    held, released = [], []

    def hold(route):
        if released:  # a poll that comes once they are let go goes on at once: none is left waiting
            route.continue_()
        else:
            held.append(route)
    page.route(pattern, hold)

    def release():
        released.append(True)
        for route in held:
            route.continue_()
        page.unroute(pattern)
    return held, release


def test_a_poll_on_its_way_leaves_the_scoreboards_buttons_as_they_are(orchard, page):
    orchard.start_crew()
    orchard.start_game()
    start = page.locator("#scoreboard .button.primary").first
    expect(start).to_be_visible()
    held, release = _held_polls(page, "**/live?*")
    # Drawn again with the route in place: a poll sent before it (not held) can no longer come
    # back between the two reads below and take the mark away (it did once, in a fresh clone).
    page.reload()
    expect(start).to_be_visible()
    page.wait_for_function("() => document.querySelector('#scoreboard.htmx-request')")
    # Read in one step with the poll still on its way (held: it cannot have come back).
    on_its_way, opacity = start.evaluate(
        "button => [!!document.querySelector('#scoreboard.htmx-request'), getComputedStyle(button).opacity]")
    assert on_its_way and opacity == "1", opacity
    release()
    # A button the player taps still says it is on its way.
    start.tap()
    expect(page.locator("#round-main h1")).to_have_text("Round 1")
