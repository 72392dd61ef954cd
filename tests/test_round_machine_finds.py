"""What the round machine (tests/test_round_machine.py) found, each as the example that shows it."""
import pytest

from support.html_text import field_value, notice, save_fields, select, text_of

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


def test_a_round_is_not_saved_from_another_phone_before_a_held_hand_is_all_in(two_phones, table, app):
    """The shared phone entered every hand by rank and shows "Save round 1"; Ben's phone takes his
    seat to check his hand. The shared phone's save is refused until Ben's phone says all in:
    a hand held on a phone is saved only once that phone said it is complete."""
    _, shared, url = two_phones
    shared.post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "C"})
    for seat, target in enumerate(["4S", "2S", "3S", "5S"]):
        assert shared.post(url + f"/hands/{seat}/mode", data={"mode": "quick"}).status_code == 200
        assert shared.post(url + f"/hands/{seat}/target", data={"target": target}).status_code == 200
    version = field_value(shared.get(url), "version")
    ben = app.test_client()
    assert ben.post(table.game_url + "/seats/1").status_code == 200
    refused = shared.post(url + "/save", data={"version": version}, headers={"HX-Request": "true"})
    assert refused.status_code == 409
    assert notice(refused) == ("Waiting for Ben: a hand entered on its own phone is saved once that phone "
                               "says it is all in.")
    assert "Totals after round 1" not in text_of(shared.get(url))
    assert ben.post(url + "/hands/1/done", data={"done": "1"}).status_code == 200
    # Three piles entered by rank on the shared phone left cards out: its Save, with the box
    # saying they are singles ticked, saves the round now that Ben's hand is all in.
    assert "Totals after round 1" not in text_of(ben.get(url))
    assert shared.post(url + "/save", data=save_fields(shared.get(url))).status_code == 303
    assert "Totals after round 1" in text_of(ben.get(url))
