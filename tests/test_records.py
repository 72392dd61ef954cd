"""The crew's records on the known history (tests/support/known_history.py), worked out by hand."""
import re

import pytest

from store import records as record_store
from support.html_text import element_text, links, select


@pytest.fixture
def page(known):
    app, client, crew_url = known
    response = client.get(crew_url + "records")
    assert response.status_code == 200
    return crew_url, response.get_data(as_text=True)


def rounds_linked(markup, crew_url):
    """(game, round) of every link to a round of this crew, in order."""
    found = [re.fullmatch(rf"{re.escape(crew_url)}games/(\d+)/rounds/(\d+)", href) for href in links(markup)]
    return [match.groups() for match in found if match]


@pytest.mark.parametrize("record, text, game_round", [
    # Ann's four 4s with her target and four Kings in game 5.
    ("#record-highest", "Highest round 120 Ann", ("5", "1")),
    # -15 (a pair of 2s): Dan in game 1 round 1 is the first of several.
    ("#record-lowest", "Lowest round −15 Dan", ("1", "1")),
    # Two bonuses: Ann in game 1 (rounds 1 and 3) first; Eve, Ann and Ben did it later.
    ("#record-bonuses", "Most target bonuses in a game 2 Ann", ("1", "3")),
    # Game 2: after round 2 Cleo led 95 to Eve's 40; Eve won with 120.
    ("#record-comeback", "Biggest comeback 55 behind, Eve won", ("2", "2")),
    # Ann won games 1 and 3, lost game 4: two in a row, ending with game 3 (2 rounds).
    ("#record-streak", "Longest winning streak 2 games in a row, Ann", ("3", "2")),
])
def test_each_record_names_who_and_links_to_its_round(page, record, text, game_round):
    crew_url, body = page
    assert element_text(body, record).startswith(text)
    assert rounds_linked(select(body, record)[0], crew_url) == [game_round]


def test_the_four_of_the_target_hands_are_counted_and_listed(page):
    crew_url, body = page
    # Ann 3 (games 1, 3, 5), Ben 2 (games 1, 4), Dan, Cleo and Eve 1 each (games 1, 2, 2).
    assert element_text(body, "#record-fours") == "Four of the target (80) 8 hands"
    listed = rounds_linked(select(body, ".fours")[0], crew_url)
    assert listed == [("5", "1"), ("4", "1"), ("3", "1"), ("2", "3"), ("2", "1"),
                      ("1", "3"), ("1", "2"), ("1", "1")]


def test_a_round_link_opens_that_rounds_breakdown(known, page):
    app, client, crew_url = known
    response = client.get(crew_url + "games/2/rounds/2")
    assert response.status_code == 200


def test_the_history_links_to_the_records(known):
    app, client, crew_url = known
    assert f'href="{crew_url}records"' in client.get(crew_url + "history").get_data(as_text=True)


def test_a_crew_without_finished_games_has_no_records_yet(client, table):
    table.start_game()
    body = client.get(table.crew_url + "records").get_data(as_text=True)
    assert "No records yet" in body


def test_records_ignore_unfinished_and_abandoned_games(known):
    app, client, crew_url = known
    with app.app_context():
        found = record_store.records(1)
    # Game 7 (still played) has an 80 from Ann and game 6 (abandoned) nothing: neither counts.
    assert found["fours"]["count"] == 8
