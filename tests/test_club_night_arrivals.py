"""Late arrivals at once keep the night's limit (issue 44, item 8): each arrival reads who is on the
list inside its own write, so eight phones adding a name to a night of 197 (limit 200) at the same
moment leave 200, and a name added twice at once is on the list once."""
import pytest

from scoring import club_night
from services import club_nights as night_service
from services.refusals import Refused
from support.club_nights import new_night, night_of


def test_arrivals_made_from_one_old_page_stop_at_the_limit(app, client, crew):
    names = [f"Player {n}" for n in range(club_night.MAX_PLAYERS - 3)]
    night_url = new_night(client, crew, names=names).headers["Location"]
    seen, _ = night_of(app, night_url)  # what every arriving phone's page read, before any of them
    added, refused = [], []
    with app.app_context():
        for n in range(8):
            try:
                night_service.add_player(seen, f"Late {n}")
                added.append(n)
            except Refused as refusal:
                refused.append(refusal.sentence)
    assert len(added) == 3 and len(refused) == 5
    assert set(refused) == {f"A night seats at most {club_night.MAX_PLAYERS} players."}
    found, _ = night_of(app, night_url)
    assert len(found["players"]) == club_night.MAX_PLAYERS


def test_one_name_added_twice_at_once_is_on_the_list_once(app, client, crew):
    night_url = new_night(client, crew).headers["Location"]
    seen, _ = night_of(app, night_url)
    with app.app_context():
        night_service.add_player(seen, "Jo")
        with pytest.raises(Refused, match="jo is already on tonight's list."):
            night_service.add_player(seen, "jo")
    found, _ = night_of(app, night_url)
    assert [p["name"] for p in found["players"]].count("Jo") == 1
