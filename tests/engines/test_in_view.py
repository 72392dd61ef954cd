"""What the player sees where they look, in WebKit and Firefox (issue 36): a refusal tapped just
above the bar at the bottom is said above it, next to its row; the scoreboard's "Round N: … deals"
panel starts with its words, not with empty space."""
import time

from selenium.common.exceptions import ElementClickInterceptedException
from selenium.webdriver.common.by import By

from .conftest import ARTIFACTS

BOX = "const r = arguments[0].getBoundingClientRect(); return {top: r.top, bottom: r.bottom};"


def box(phone, css):
    return phone.driver.execute_script(BOX, phone.find(css))


def place_above_the_bar(phone, css, gap):
    """Scroll so that the element's bottom is `gap` px above the live bar, and wait until the page
    stays there (Firefox may finish an earlier scrollIntoView after it returned, and undo a scroll
    made meanwhile); returns the element's top."""
    for _ in range(10):
        phone.settled()
        phone.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(), bar = document.getElementById('live-bar');"
            "window.scrollTo(0, scrollY + r.bottom - bar.getBoundingClientRect().top + arguments[1]);",
            phone.find(css), gap)
        time.sleep(0.4)
        if abs(box(phone, css)["bottom"] - (box(phone, "#live-bar")["top"] - gap)) < 1.5:
            return box(phone, css)["top"]
    raise AssertionError(f"{css} never stayed {gap} px above the bar")


def test_a_refusal_tapped_just_above_the_bar_is_said_above_it(phone):
    """Ann's target is A♠, so four Aces more would be five: the Aces row sits 8 px above the bar."""
    phone.start_crew()
    phone.start_game()
    phone.start_round(1)
    phone.target(0, "AS", stay=True)
    for attempt in range(5):
        before = place_above_the_bar(phone, "#rank-A", 8)
        try:
            phone.find("#rank-A label:has(#n-A-4)").click()  # where it is: no scrolling to mid-screen first
            break
        except ElementClickInterceptedException:  # the page moved before the tap (a poll): again
            continue
    else:
        raise AssertionError("the Aces row could not be tapped 8 px above the bar")
    phone.wait_text("#msg-rank-A", "Ann has 4 Aces in the pile and an Ace as target; the deck has 4.")
    phone.settled()
    phone.wait_selected("#n-A-0")  # the row is back as stored
    said, row_now = box(phone, "#msg-rank-A"), box(phone, "#rank-A")
    top, bottom = box(phone, "#tabs")["bottom"], box(phone, "#live-bar")["top"]
    assert top <= said["top"] and said["bottom"] <= bottom, f"the sentence at {said}, the screen {top}–{bottom}"
    assert 0 <= said["top"] - row_now["bottom"] <= 24, f"the sentence at {said}, the row at {row_now}"
    assert 0 <= before - row_now["top"] <= said["bottom"] - said["top"] + 8, f"the row moved from {before} to {row_now}"
    shoot(phone, "refusal-above-the-bar")


def test_the_next_round_panel_starts_with_its_words(phone):
    phone.start_crew()
    phone.start_game()
    panel = phone.find(".next-round")
    words = panel.find_element(By.CSS_SELECTOR, "p")
    assert "Round 1: Ann deals" in " ".join(words.text.split())
    gap = phone.driver.execute_script(
        "return arguments[1].getBoundingClientRect().top - arguments[0].getBoundingClientRect().top", panel, words)
    assert gap <= 16, f"{gap:.0f} px of empty space above the panel's words"
    phone.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", panel)
    shoot(phone, "next-round-panel")


def shoot(phone, name):
    """What the phone's screen shows, kept as a test artifact (git ignores the folder)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    engine = "firefox" if "firefox" in phone.driver.name else "webkit"
    phone.driver.save_screenshot(str(ARTIFACTS / f"{name}-{engine}.png"))
