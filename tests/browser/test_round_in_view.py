"""Where the round page puts what it says and where it leaves the player (issue 36): a refusal is
said in view next to the control, never under the bottom bar; a hand opens the next one only once
its pile and its target are in; a redeal leaves its button where the thumb is; a seated phone is
never told to wait for itself. Real touch taps on a 390×844 phone; what is measured is what is on
the screen."""

from playwright.sync_api import expect

from support.browser import ARTIFACTS, NAMES, Orchard, close_phone


def shoot_screen(page, name):
    """What the phone's screen shows (not the whole page), light and dark, kept as test artifacts."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=str(ARTIFACTS / f"{name}{'-dark' if scheme == 'dark' else ''}.png"))
    page.emulate_media(color_scheme="light")


def box(page, selector):
    return page.locator(selector).evaluate(
        "el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }")


def screen_edges(page):
    """The part of the screen no sticky bar covers: (below the player tabs, above the live bar)."""
    return (page.locator("#tabs").evaluate("el => el.getBoundingClientRect().bottom"),
            page.locator("#live-bar").evaluate("el => el.getBoundingClientRect().top"))


def assert_said_next_to(page, message, control, within=24):
    """The sentence shows, whole, between the tabs and the bar, and starts within `within` px below
    the tapped control (a line; a row of cards where the suit's row goes on under the card)."""
    expect(page.locator(message)).not_to_be_empty()
    said, tapped = box(page, message), box(page, control)
    top, bottom = screen_edges(page)
    assert top <= said["top"] and said["bottom"] <= bottom, f"{message} at {said}, screen {top}–{bottom}"
    assert 0 <= said["top"] - tapped["bottom"] <= within, f"{message} at {said}, the control at {tapped}"


def open_round(orchard):
    orchard.start_crew()
    orchard.start_game()
    orchard.start_round(1)


def test_a_refusal_tapped_just_above_the_bar_is_said_above_it(page, orchard):
    """Ann's target is A♠: four Aces more would be five. The Aces row sits 8 px above the bar."""
    open_round(orchard)
    orchard.target(0, "AS")
    row = page.locator("#rank-A")
    row.evaluate("el => el.scrollIntoView({block: 'end'})")
    bar_top = screen_edges(page)[1]
    page.evaluate(f"window.scrollBy(0, {box(page, '#rank-A')['bottom'] - bar_top + 8})")
    assert abs(box(page, "#rank-A")["bottom"] - (bar_top - 8)) < 1
    before = box(page, "#rank-A")["top"]
    page.locator("label:has(#n-A-4)").tap()
    expect(page.locator("#msg-rank-A")).to_have_text("Ann has 4 Aces in the pile and an Ace as target; the deck has 4.")
    orchard.settled()
    expect(page.locator("#n-A-0")).to_be_checked()  # put back as stored
    assert_said_next_to(page, "#msg-rank-A", "#rank-A")
    said = box(page, "#msg-rank-A")
    # The page moved up by no more than the sentence needs: the row is still where the thumb is.
    assert 0 <= before - box(page, "#rank-A")["top"] <= said["bottom"] - said["top"] + 8
    shoot_screen(page, "round-refusal-above-the-bar")


def test_a_refused_target_is_said_under_the_card_tapped(page, orchard, other_phone):
    """Another phone gave Ben 4♣ as target after Ann's page loaded: Ann's tap on 4♣ is refused,
    and the reason shows under the clubs she tapped, not under the whole grid."""
    open_round(orchard)
    url = page.url
    other_phone.page.goto(url)
    other_phone.target(1, "4C")
    orchard.open_target(0)
    page.locator("label:has(#t-4C)").evaluate("el => el.scrollIntoView({block: 'center'})")
    page.locator("label:has(#t-4C)").tap()
    message = page.locator("#target-picker .tap-msg:not(:empty)")
    expect(message).to_have_text("4♣ is already Ben's target card.")
    orchard.settled()
    # Under the clubs' second row of cards (4♣ is in the first), not under the whole grid.
    assert_said_next_to(page, "#target-picker .tap-msg:not(:empty)", "label:has(#t-4C)", within=44 + 4 + 12)
    shoot_screen(page, "round-refused-target")
    # The next pick that goes through clears it.
    page.locator("label:has(#t-7C)").tap()
    expect(page.locator("#target-summary")).to_contain_text("Ann’s target 7♣")
    expect(message).to_have_count(0)


def test_a_target_before_the_pile_keeps_the_hand_open(page, orchard):
    """Ann's target first: her hand stays on screen for her pile. Ben's pile, then his target: Cleo's
    hand opens, its first line just under the tabs at the top of the screen."""
    open_round(orchard)
    orchard.target(0, "10S", stay=False)
    orchard.settled()
    expect(page.locator(".tabs .tab.current .tab-name")).to_have_text("Ann")
    expect(page.locator("#target-summary")).to_contain_text("Ann’s target 10♠")
    orchard.count("J", 2)
    expect(page.locator(".tabs .tab.current .tab-name")).to_have_text("Ann")

    orchard.tab(1)
    orchard.count("4", 2)
    page.locator("label:has(#t-4H)").evaluate("el => el.scrollIntoView({block: 'center'})")
    page.locator("label:has(#t-4H)").tap()
    expect(page.locator(".tabs .tab.current .tab-name")).to_have_text("Cleo")
    orchard.settled()
    page.wait_for_timeout(100)
    tabs_bottom = screen_edges(page)[0]
    heading = box(page, "#mode-form")
    assert tabs_bottom <= heading["top"] <= tabs_bottom + 16, f"Cleo's hand starts at {heading}, the tabs end at {tabs_bottom}"
    expect(page.locator("#mode-form .label")).to_have_text("Cleo’s entry")
    shoot_screen(page, "round-next-hand-opened")


def test_a_redeal_leaves_its_button_under_the_thumb(page, orchard):
    open_round(orchard)
    button = page.locator("#redeal")
    button.evaluate("el => el.scrollIntoView({block: 'center'})")
    before = box(page, "#redeal")["top"]
    button.tap()  # the confirm is accepted (the page fixture)
    notice = page.locator("#step-bid .notice")
    expect(notice).to_have_text("Everyone passed: same dealer, deal again and bid.")
    expect(page.locator("#deal .redeals")).to_contain_text("Redeals this round: 1")
    orchard.settled()
    assert abs(box(page, "#redeal")["top"] - before) <= 40, (before, box(page, "#redeal"))
    expect(notice).to_be_in_viewport()
    shoot_screen(page, "round-redeal")


def test_a_seated_phone_is_never_told_to_wait_for_itself(browser, server, page):
    """Ann's and Dan's phones hold their seats. Ann's hand is all in: her phone waits for Dan, and
    Dan's own phone says the others are in, never "Waiting for Dan"."""
    ann = Orchard(page, server)
    ann.start_crew()
    game_url = ann.start_game()
    dan_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        dan = Orchard(dan_context.new_page(), server)
        dan.page.goto(game_url)
        for who, seat in ((ann, 0), (dan, 3)):
            who.page.locator(".seat-buttons").get_by_role("button", name=NAMES[seat], exact=True).tap()
            expect(who.page.locator(".seat.mine")).to_contain_text("this phone")
        ann.start_round(1)
        dan.page.goto(ann.page.url)
        tabs_height = dan.page.locator("#tabs").evaluate("el => el.getBoundingClientRect().height")
        ann.counts(0, "10S", {"J": 2})
        ann.page.get_by_role("button", name="Ann’s hand is all in").tap()
        expect(ann.page.locator(".waiting")).to_have_text("Waiting for Dan.")
        # Dan's phone hears it by its poll: Ann's tab says "secret ✓" on one line, so the sticky
        # tabs keep their height and the hand below them stays where it was.
        expect(dan.page.locator("#tab-0 .tab-score")).to_have_text("secret ✓", timeout=8_000)
        assert dan.page.locator("#tabs").evaluate("el => el.getBoundingClientRect().height") == tabs_height
        dan.page.reload()
        check = dan.page.locator("#step-check")
        expect(check).not_to_contain_text("Waiting for Dan")
        expect(check.locator(".waiting")).to_have_text("Every other phone is all in; yours is the last.")
        shoot_screen(dan.page, "seat-mode-own-phone-waits-for-none")
        check.evaluate("el => el.scrollIntoView()")
        shoot_screen(dan.page, "seat-mode-own-phone-check")
    finally:
        close_phone(dan_context)


def test_the_next_round_panel_starts_with_its_words(page, orchard):
    orchard.start_crew()
    orchard.start_game()
    gap = page.locator(".next-round").evaluate(
        "el => el.querySelector('p').getBoundingClientRect().top - el.getBoundingClientRect().top")
    assert gap <= 16, f"{gap:.0f} px of empty space above the panel's words"
    shoot_screen(page, "scoreboard-next-round")
