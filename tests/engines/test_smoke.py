"""The smoke set in WebKit and Firefox (each test runs in both): a quick round and an exact round
entered and saved, two phones following each other live, and a tap made offline sent once the
connection is back. Chromium runs the whole browser suite (tests/browser).

Expected scores are worked out by hand from docs/RULES.md section 2 (pairs, triples and fours of
a rank; a rank's value: 2-5 −15, 6-9 5, 10-K 10, A 15; three of the target's rank 40, four 80)."""
import json
import sqlite3
import time
from contextlib import closing

from .steps import MINUS as M

# An exact deal of the whole deck: four targets, Ann's one trick, and the other 44 cards to Dan.
ANN_PILE = "JC JD JH 3C".split()  # target 10♠: three Jacks 2 × 10 = +20, singles 3 and 10: 20
# Ben (target 4♥) and Cleo (target K♦) win no trick: 0 each. Dan (target 2♠) gets the rest:
# four 2s with the target 80; three 3s −30; three 4s −30; four 5s −60; four 6s, 7s, 8s, 9s 20 each
# (+80); three 10s +20; J single; four Queens +40; three Kings +20; four Aces +60: 180.


def stored_counts(database):
    """The rank counts of each hand of the round being entered, as the store holds them."""
    with closing(sqlite3.connect(database)) as conn:
        rows = conn.execute(
            "SELECT hands.seat, hands.counts FROM hands JOIN rounds ON rounds.id = hands.round_id"
            " WHERE rounds.status = 'entering' ORDER BY hands.seat").fetchall()
    return [json.loads(counts) if counts else None for _, counts in rows]


def test_a_quick_round_is_entered_and_saved(phone):
    phone.start_crew()
    phone.start_game()
    phone.start_round(1)
    phone.bid(1, 1, "D")
    # Ann 10♠ + J J: a pair of Jacks +10; Ben 4♥ + 4 4: three 4s with the target 40;
    # Cleo K♦ and nothing: 0; Dan 2♠ + 5 5: a pair of 5s −15.
    phone.counts(0, "10S", {"J": 2})
    phone.counts(1, "4H", {"4": 2})
    phone.target(2, "KD")
    phone.counts(3, "2S", {"5": 2})
    phone.wait_tab_scores(["10", "40", "0", f"{M}15"])
    phone.save(1)
    assert phone.totals() == ["10", "40", "0", f"{M}15"]


def test_an_exact_round_is_entered_card_by_card_and_saved(phone):
    phone.start_crew()
    phone.start_game()
    phone.start_round(1)
    phone.bid(0, 3, "C")
    for seat in range(4):
        phone.tab(seat)
        phone.mode("exact")
        assert phone.grid_size() == 52
    phone.cards(0, "10S", ANN_PILE, stay=True)
    phone.wait_hand_score("Ann 20 · 4 cards")
    phone.target(1, "4H")
    phone.target(2, "KD")
    phone.target(3, "2S")
    phone.remaining_to(3, 44)
    phone.wait_hand_score("Dan 180 · 44 cards")
    phone.wait_tab_scores(["20", "0", "0", "180"])
    phone.wait_all_adds_up("Ann 20 · Ben 0 · Cleo 0 · Dan 180")
    phone.save(1)
    assert phone.totals() == ["20", "0", "0", "180"]


def test_a_count_on_one_phone_shows_on_the_other_without_a_reload(phone, other_phone):
    phone.start_crew()
    phone.start_game()
    phone.start_round(1)
    # The second phone opens the same round (its link is all it needs), on Ann's hand.
    other_phone.open(phone.driver.current_url)
    other_phone.wait_round_page(1)
    other_phone.driver.execute_script("window.orchardNotReloaded = true")
    assert other_phone.tab_scores() == ["…", "…", "…", "…"]

    phone.counts(0, "10S", {"J": 2})  # a pair of Jacks: Ann 10
    entered = time.monotonic()
    other_phone.wait_tab_score(0, "10", seconds=3 + 5)  # one poll (every 3 s), and some slack
    assert time.monotonic() - entered < 3 + 5
    assert other_phone.driver.execute_script("return window.orchardNotReloaded === true"), "the page was reloaded"
    other_phone.wait_changed_elsewhere(0)


def test_a_tap_made_offline_is_sent_once_the_connection_is_back(gated_phone, gate, database):
    phone = gated_phone
    phone.start_crew()
    phone.start_game()
    phone.start_round(1)
    phone.target(0, "KS", stay=True)
    assert stored_counts(database)[0] is None

    gate.close()  # the phone loses the connection; the page stays as it is
    phone.tap_count("Q", 2)  # the tap alone: no answer can come
    phone.wait_count_pending("Q")
    phone.wait_live_status("○ Offline: 1 tap waits to be sent")
    assert stored_counts(database)[0] is None

    gate.open()  # back: the page sends the tap again by itself (it tries every 2 s), once
    phone.wait_count_pending("Q", pending=False)
    phone.wait_live_status("● Live")
    phone.wait_hand_score("Ann 10")  # a pair of Queens
    assert stored_counts(database)[0] == {"Q": 2}
    phone.driver.refresh()
    phone.wait_count_shown("Q", 2)
