"""What the player sees where they look, in WebKit and Firefox (issue 36): a refusal tapped just
above the bar at the bottom is said above it, next to its row; the scoreboard's "Round N: … deals"
panel starts with its words, not with empty space."""
from selenium.common.exceptions import ElementClickInterceptedException
from selenium.webdriver.common.by import By

BOX = "const r = arguments[0].getBoundingClientRect(); return {top: r.top, bottom: r.bottom};"


def box(phone, css):
    return phone.driver.execute_script(BOX, phone.find(css))


def test_a_refusal_tapped_just_above_the_bar_is_said_above_it(phone):
    """Ann's target is A♠, so four Aces more would be five: the Aces row sits 8 px above the bar."""
    phone.start_crew()
    phone.start_game()
    phone.start_round(1)
    phone.target(0, "AS", stay=True)
    for attempt in range(3):  # a poll redrawing the page between placing the row and the tap: again
        phone.settled()
        row = phone.find("#rank-A")
        phone.driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", row)
        bar_top = box(phone, "#live-bar")["top"]
        phone.driver.execute_script("window.scrollBy(0, arguments[0])", box(phone, "#rank-A")["bottom"] - bar_top + 8)
        assert abs(box(phone, "#rank-A")["bottom"] - (bar_top - 8)) < 1.5
        before = box(phone, "#rank-A")["top"]
        try:
            phone.find("#rank-A label:has(#n-A-4)").click()  # where it is: no scrolling to mid-screen first
            break
        except ElementClickInterceptedException:
            if attempt == 2:
                raise
    phone.wait_text("#msg-rank-A", "Ann has 4 Aces in the pile and an Ace as target; the deck has 4.")
    phone.settled()
    phone.wait_selected("#n-A-0")  # the row is back as stored
    said, row_now = box(phone, "#msg-rank-A"), box(phone, "#rank-A")
    top, bottom = box(phone, "#tabs")["bottom"], box(phone, "#live-bar")["top"]
    assert top <= said["top"] and said["bottom"] <= bottom, f"the sentence at {said}, the screen {top}–{bottom}"
    assert 0 <= said["top"] - row_now["bottom"] <= 24, f"the sentence at {said}, the row at {row_now}"
    assert 0 <= before - row_now["top"] <= said["bottom"] - said["top"] + 8, f"the row moved from {before} to {row_now}"


def test_the_next_round_panel_starts_with_its_words(phone):
    phone.start_crew()
    phone.start_game()
    panel = phone.find(".next-round")
    words = panel.find_element(By.CSS_SELECTOR, "p")
    assert "Round 1: Ann deals" in " ".join(words.text.split())
    gap = phone.driver.execute_script(
        "return arguments[1].getBoundingClientRect().top - arguments[0].getBoundingClientRect().top", panel, words)
    assert gap <= 16, f"{gap:.0f} px of empty space above the panel's words"
