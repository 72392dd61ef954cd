"""What the round machine (tests/test_round_machine.py) found, each as the example that shows it."""
import pytest

from support.html_text import select, text, text_of
from support.round_secrets import leaks

NAMES = ("Ann", "Ben", "Cleo", "Dan")


@pytest.fixture
def two_phones(app, table):
    """Ann's phone and the table's shared phone (no seat), on round 1."""
    table.start_game(names=NAMES)
    ann, shared = app.test_client(), app.test_client()
    assert ann.post(table.game_url + "/rounds").status_code == 303
    return ann, shared, table.game_url + "/rounds/1"


def test_a_tap_on_a_hand_that_went_private_puts_back_no_control_of_it(two_phones, table):
    """The shared phone shows Ann's hand; Ann's phone takes her seat; a tap on the card grid the
    shared phone still shows is refused, and the answer draws Ann's hand as private (no control
    that acts on it is put back)."""
    ann, shared, url = two_phones
    assert shared.post(url + "/hands/0/mode", data={"mode": "exact"}).status_code == 200
    assert ann.post(table.game_url + "/seats/0").status_code == 200
    answer = shared.post(url + "/hands/0/cards/3D", data={"held": "1"}, headers={"HX-Request": "true"})
    assert answer.status_code == 403
    assert [form.get("hx-post") for form in select(answer, "[hx-post*='/hands/0/']")] == []
    assert "Ann is entering this hand on their own phone." in text_of(answer)
    assert "3♦" not in text_of(answer)
