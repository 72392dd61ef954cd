"""Issue 47: a season, a club's ladder across its games and club nights. The worked cases of the
engine (ties, a player under the minimum, best N dropping the right events), and the season's
pages as a crew uses them: opened, its standings and a player's breakdown, an event left out with
its reason and counted again, the rule changed and logged with the standings before and after."""
import datetime
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from store import connect
from scoring.season import Event, SeasonError, SeasonRule, event_results, percent, standings
from support.club_nights import night, night_of, play_round  # noqa: F401 (night: a fixture)
from support.exports import export_of, restore
from support.html_text import element_text, select, text, texts

DAY = datetime.date(2027, 1, 1)


def _event(n, places, left_out=None):
    return Event(("game", n), DAY + datetime.timedelta(days=n), f"Game {n}", places, left_out)


# --- The engine's worked cases ------------------------------------------------------------------

def test_a_game_of_four_gives_100_66_7_33_3_and_0():
    assert [percent(r) for r in event_results({"a": 1, "b": 2, "c": 3, "d": 4}).values()] == ["100", "66.7", "33.3", "0"]


def test_an_average_halfway_between_two_tenths_is_shown_rounded_up_as_a_table_works_it():
    # 31.25 is exact in binary, so Python's round() took it down to the even tenth, 31.2: a player
    # working 125/4 by hand says 31.3 (found by the season machine: its reference rounds half up).
    assert [percent(Fraction(n, 4)) for n in (125, 127, 2, 398)] == ["31.3", "31.8", "0.5", "99.5"]
    assert percent(Fraction(1999, 20)) == "100" and percent(Fraction(1, 20)) == "0.1" and percent(Fraction(1, 21)) == "0"


def test_a_tie_shares_the_places_it_covers():
    results = event_results({"a": 1, "b": 1, "c": 3, "d": 3})
    assert results == {"a": Fraction(250, 3), "b": Fraction(250, 3), "c": Fraction(50, 3), "d": Fraction(50, 3)}


def test_a_night_of_twenty_ranks_each_against_the_nineteen_others():
    results = event_results({n: n for n in range(1, 21)})
    assert results[1] == 100 and results[20] == 0 and percent(results[2]) == "94.7"


@given(st.dictionaries(st.integers(0, 30), st.integers(1, 6), min_size=2, max_size=30))
def test_results_average_to_fifty_whatever_the_ties(places):
    """Every pair of players shares 100 between them (the one ahead takes it, a tie halves it)."""
    results = event_results(places)
    assert sum(results.values()) / len(results) == 50
    assert all(0 <= r <= 100 for r in results.values())


def test_best_n_drops_the_worst_results_and_says_why():
    events = [_event(1, {"a": 4, "b": 1, "c": 2, "d": 3}), _event(2, {"a": 1, "b": 2, "c": 3, "d": 4}),
              _event(3, {"a": 2, "b": 1, "c": 3, "d": 4})]
    lines = {line.player: line for line in standings(events, SeasonRule(best=2))}
    a = lines["a"]
    assert [(e.event.name, percent(e.result), e.counted, e.why) for e in a.entries] == [
        ("Game 1", "0", False, "not among the best 2"), ("Game 2", "100", True, "among the best 2"),
        ("Game 3", "66.7", True, "among the best 2")]
    assert (a.counted, a.played, percent(a.average), percent(a.best)) == (2, 3, "83.3", "100")
    assert lines["b"].average == 100 and lines["b"].place == 1 and a.place == 2


def test_among_equal_results_the_earlier_event_counts():
    events = [_event(1, {"a": 1, "b": 2}), _event(2, {"a": 1, "b": 2})]
    a = next(line for line in standings(events, SeasonRule(best=1)) if line.player == "a")
    assert [e.counted for e in a.entries] == [True, False]


def test_a_player_under_the_minimum_is_listed_below_with_what_they_need():
    events = [_event(1, {"a": 1, "b": 2, "c": 3, "d": 4}), _event(2, {"a": 1, "b": 2, "c": 3, "e": 4})]
    lines = standings(events, SeasonRule(minimum=2))
    assert [(line.player, line.place, line.to_qualify) for line in lines] == [
        ("a", 1, 0), ("b", 2, 0), ("c", 3, 0), ("d", None, 1), ("e", None, 1)]


def test_equal_averages_share_a_place():
    lines = standings([_event(1, {"a": 1, "b": 1, "c": 3, "d": 4})], SeasonRule())
    assert [line.place for line in lines] == [1, 1, 3, 4]


def test_a_left_out_event_is_in_the_breakdown_and_counts_for_nothing():
    events = [_event(1, {"a": 1, "b": 2, "c": 3, "d": 4}), _event(2, {"a": 4, "b": 3, "c": 2, "d": 1}, "a friendly")]
    a = next(line for line in standings(events, SeasonRule()) if line.player == "a")
    assert (a.played, a.average) == (1, 100)
    assert a.entries[1].why == "left out of the season: a friendly" and not a.entries[1].counted


@pytest.mark.parametrize("best, minimum", [(0, 1), (1, 0), (1001, 1), (True, 1), ("2", 1)])
def test_a_rule_outside_its_bounds_is_refused(best, minimum):
    with pytest.raises(SeasonError):
        SeasonRule(best=best, minimum=minimum)


def test_the_rule_in_one_sentence():
    assert SeasonRule().sentence() == "Every event counts; every player is ranked from their first event."
    assert SeasonRule(best=8, minimum=3).sentence() == "Each player’s best 8 events count; a player is ranked from their 3rd event."


# --- The pages --------------------------------------------------------------------------------------

def _game(table, order, names=("Ann", "Ben", "Cleo", "Dan")):
    """A finished game: one round, seat s dealt HANDS[order[s]] (40, 10, 5, 0), played to 1."""
    table.start_game(names=list(names), goal="other", goal_other="1")
    game_id = int(table.game_url.rstrip("/").rsplit("/", 1)[1])
    play_round(table.client.application, table.crew_url, game_id, order)
    return game_id


def _open(client, crew, **fields):
    data = {"name": "Winter", "first_day": (datetime.date.today() - datetime.timedelta(days=1)).isoformat(),
            "last_day": "", "best": "", "minimum": "1"} | fields
    response = client.post(crew + "seasons", data=data)
    assert response.status_code == 303, text(response)
    return response.headers["Location"]


def _standings(client, url):
    """The standings table's rows: place, name, events counted/played, average, best."""
    cells = texts(client.get(url), "#standings tbody td")
    return [(cells[i], cells[i + 1], cells[i + 3], cells[i + 2], cells[i + 4]) for i in range(0, len(cells), 6)]


def test_a_season_ranks_the_crews_finished_games(client, table):
    crew = table.start_crew()
    _game(table, (0, 1, 2, 3))
    _game(table, (3, 0, 1, 2))
    url = _open(client, crew)
    page = client.get(url)
    assert element_text(page, "#season-rule") == "Every event counts; every player is ranked from their first event."
    # Game 1: Ann 40, Ben 10, Cleo 5, Dan 0; game 2: Ann 0, Ben 40, Cleo 10, Dan 5.
    assert _standings(client, url) == [("1", "Ben", "2/2", "83.3", "100"), ("2", "Ann", "2/2", "50", "100"),
                                       ("2", "Cleo", "2/2", "50", "66.7"), ("4", "Dan", "2/2", "16.7", "33.3")]
    assert len(select(page, "#events li.event")) == 2
    breakdown = client.get(select(page, "#standings tbody a")[1].get("href"))  # Ann's
    assert element_text(breakdown, "h1") == "Ann"
    assert texts(breakdown, "tbody tr td:nth-child(3)") == ["0", "100"]  # the newest first
    assert texts(breakdown, "tbody tr td:nth-child(2)") == ["4 of 4", "1 of 4"]
    assert element_text(breakdown, ".player-summary") == "2nd of 4 · average 50 over 2 counted events of 2"


def test_an_unfinished_game_and_one_before_the_first_day_do_not_count(client, table):
    crew = table.start_crew()
    _game(table, (0, 1, 2, 3))
    table.start_game()  # still playing
    url = _open(client, crew, first_day=(datetime.date.today() + datetime.timedelta(days=1)).isoformat())
    assert _standings(client, url) == []
    assert "No finished game or club night" in text(client.get(url))
    url = _open(client, crew, name="Now")
    assert len(_standings(client, url)) == 4


def test_a_left_out_game_is_logged_with_its_reason_and_can_count_again(client, table):
    crew = table.start_crew()
    first = _game(table, (0, 1, 2, 3))
    _game(table, (3, 2, 1, 0))
    url = _open(client, crew)
    refused = client.post(url + f"/game/{first}/leave-out", data={"reason": "  "})
    assert refused.status_code == 422
    assert "Say why it does not count" in element_text(refused, f"#event-game-{first} .error")
    assert client.post(url + f"/game/{first}/leave-out", data={"reason": "A friendly with the neighbours"}).status_code == 303
    assert _standings(client, url)[0] == ("1", "Dan", "1/1", "100", "100")
    page = client.get(url)
    assert "Left out: A friendly with the neighbours" in element_text(page, f"#event-game-{first}")
    assert "Left out: Game: Ann, Ben, Cleo, Dan" in element_text(page, "#season-log")
    again = client.post(url + f"/game/{first}/leave-out", data={"reason": "twice"})
    assert again.status_code == 409
    assert client.post(url + f"/game/{first}/count-again").status_code == 303
    assert len([row for row in _standings(client, url) if row[3] == "50"]) == 4
    assert "Counted again: Game: Ann, Ben, Cleo, Dan" in element_text(client.get(url), "#season-log")


def test_a_rule_change_is_logged_with_the_standings_before_and_after(client, table):
    crew = table.start_crew()
    _game(table, (0, 1, 2, 3))
    _game(table, (3, 0, 1, 2))
    url = _open(client, crew)
    assert client.post(url + "/rule", data={"best": "1", "minimum": "1"}).status_code == 303
    page = client.get(url)
    assert element_text(page, "#season-rule") == "Each player’s best 1 event count; every player is ranked from their first event."
    assert _standings(client, url) == [("1", "Ann", "1/2", "100", "100"), ("1", "Ben", "1/2", "100", "100"),
                                       ("3", "Cleo", "1/2", "66.7", "66.7"), ("4", "Dan", "1/2", "33.3", "33.3")]
    log = element_text(page, "#season-log")
    assert "Rule changed: Every event counts; every player is ranked from their first event. → Each player’s best 1" in log
    assert ("Before: 1. Ben 83.3 · 2. Ann 50 · 2. Cleo 50 · 4. Dan 16.7. "
            "After: 1. Ann 100 · 1. Ben 100 · 3. Cleo 66.7 · 4. Dan 33.3.") in log
    refused = client.post(url + "/rule", data={"best": "0", "minimum": "1"})
    assert refused.status_code == 422 and "A number from 1 to 1000." in element_text(refused, "#field-best")


def test_a_night_counts_once_as_a_whole_and_its_games_not_apart(app, client, crew, night):
    """A night of nine: its one stage's games count through the night's ranking only."""
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    _, stages = night_of(app, night)
    for game in stages[-1]["tables"].values():
        for order in ((0, 1, 2, 3), (3, 0, 1, 2)):  # a stage of two hands
            play_round(app, crew, game["game_id"], order)
    url = _open(client, crew)
    assert _standings(client, url) == []  # the night is not finished yet
    assert client.post(night + "/finish").status_code == 303
    rows = _standings(client, url)
    assert len(rows) == 8  # the ninth sat out the only stage: no hand, no result
    assert [row[2] for row in rows] == ["1/1"] * 8
    # Each result is worked here from the night's own final standings (its place column): the share
    # of the seven others finished ahead of, a tie counting half.
    board = client.get(night)
    places = {tr.get("data-player"): int(tr.cssselect("td.place")[0].text) for tr in select(board, "#leaderboard tbody tr")
              if tr.cssselect("td.hands")[0].text != "0"}
    expected = {name: 100 * (sum(p > place for p in places.values()) + (sum(p == place for p in places.values()) - 1) / 2) / 7
                for name, place in places.items()}
    assert {row[1]: float(row[3]) for row in rows} == pytest.approx(expected, abs=0.05)
    events = texts(client.get(url), "#events .event-name")
    assert len(events) == 1 and "Game" not in events[0]


def test_opening_a_season_refuses_what_no_season_has(client, table):
    crew = table.start_crew()
    for fields, where, words in (
            ({"name": ""}, "#field-name", "name"),
            ({"last_day": "2000-01-01"}, "#field-last_day", "The last day cannot come before the first."),
            ({"first_day": "not a day"}, "#field-first_day", "Not a valid date value."),
            ({"minimum": "1001"}, "#field-minimum", "A number from 1 to 1000."),
            ({"name": "x" * 41}, "#field-name", "40")):
        data = {"name": "Winter", "first_day": "2026-12-01", "last_day": "", "best": "", "minimum": "1"} | fields
        refused = client.post(crew + "seasons", data=data)
        assert refused.status_code == 422, fields
        assert words in element_text(refused, where), (fields, element_text(refused, where))


def test_another_crews_season_is_not_found(client, table):
    crew = table.start_crew()
    url = _open(client, crew)
    other = table.start_crew("Other crew")
    stolen = other + url.split("/c/", 1)[1].split("/", 1)[1]
    assert client.get(stolen).status_code == 404
    assert client.post(stolen + "/rule", data={"best": "", "minimum": "2"}).status_code == 404
    assert client.get(url + "/players/999").status_code == 404
    assert client.post(url + "/game/999/leave-out", data={"reason": "x"}).status_code == 404


# --- Export and restore ---------------------------------------------------------------------------

def _season_with_everything(app, client, table, night):
    """A crew with two finished games, a finished night, and a season leaving a game and the night
    out, its rule changed: returns the crew's link and the season's."""
    crew = table.crew_url
    first = _game(table, (0, 1, 2, 3))
    _game(table, (3, 0, 1, 2))
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    _, stages = night_of(app, night)
    for game in stages[-1]["tables"].values():
        for order in ((0, 1, 2, 3), (3, 0, 1, 2)):
            play_round(app, crew, game["game_id"], order)
    assert client.post(night + "/finish").status_code == 303
    url = _open(client, crew, name="Season Été", last_day="2999-12-31")
    night_id = night.rsplit("/", 1)[1]
    assert client.post(url + f"/game/{first}/leave-out", data={"reason": "Friendly: Émile's birthday"}).status_code == 303
    assert client.post(url + f"/night/{night_id}/leave-out", data={"reason": "Practice night"}).status_code == 303
    assert client.post(url + "/rule", data={"best": "3", "minimum": "2"}).status_code == 303
    assert client.post(url + f"/night/{night_id}/count-again").status_code == 303
    assert client.post(url + f"/night/{night_id}/leave-out", data={"reason": "Practice after all"}).status_code == 303
    return crew, url


def test_a_season_round_trips_through_export_and_restore(app, client, table, night):
    crew, url = _season_with_everything(app, client, table, night)
    data = export_of(client, crew)
    assert [s["name"] for s in data["seasons"]] == ["Season Été"]
    assert [(set(out), out["reason"]) for out in data["seasons"][0]["left_out"]] == [
        ({"game", "reason", "at"}, "Friendly: Émile's birthday"), ({"night", "reason", "at"}, "Practice after all")]
    response = restore(client, data)
    assert response.status_code == 303
    restored = response.headers["Location"].removesuffix("history")
    assert export_of(client, restored)["seasons"] == data["seasons"]
    season = select(client.get(restored + "seasons"), ".season-list a")[0].get("href")
    for part in ("#standings", "#events", "#season-rule", "#season-log"):
        assert element_text(client.get(season), part) == element_text(client.get(url), part), part


@pytest.mark.parametrize("damage, words", [
    (lambda s, d: s.update(first_day="2027-13-01"), "its days are not dates"),
    (lambda s, d: s.update(last_day="1999-01-01"), "The last day cannot come before the first."),
    (lambda s, d: s.update(best=0), "A season counts from 1 to 1000 events"),
    (lambda s, d: s["left_out"].append({"game": 999, "reason": "x", "at": s["created"]}), "a game the file does not hold"),
    (lambda s, d: s["left_out"].append({"night": 2, "reason": "x", "at": s["created"]}), "a club night the file does not hold"),
    (lambda s, d: s["left_out"].append(dict(s["left_out"][0])), "leaves one event out twice"),
    (lambda s, d: s["left_out"].append({"game": 2, "night": 1, "reason": "x", "at": s["created"]}), "neither a game nor a night"),
    (lambda s, d: s["left_out"][0].update(reason="bell\a"), "A season has no proper reason"),
    (lambda s, d: s["changes"][0].update(action="deleted"), "A season has no proper action"),
    # A rule change without its standings, or a line without its words: the season's page could not draw it (a 500).
    (lambda s, d: s["changes"].append({**s["changes"][0], "action": "rule", "detail": "x"}),
     "log has a line whose standings before and after do not go with it"),
    (lambda s, d: s["changes"].append({**s["changes"][0], "action": "left out"}), "log has a line without its words"),
    (lambda s, d: d["seasons"].extend([dict(s)] * 100), "A season is missing or damaged"),
])
def test_a_damaged_season_in_a_file_is_refused_and_nothing_is_stored(app, client, table, night, damage, words):
    crew, _ = _season_with_everything(app, client, table, night)
    data = export_of(client, crew)
    damage(data["seasons"][0], data)
    response = restore(client, data)
    assert response.status_code == 422
    assert words in text(response).replace("&#39;", "'")
    assert len(select(client.get(crew + "seasons"), ".season-list a")) == 1


# --- The room: the watch link, the projector view, the share card ----------------------------------

def test_the_seasons_watch_link_shows_the_standings_read_only(client, table):
    crew = table.start_crew()
    _game(table, (0, 1, 2, 3))
    url = _open(client, crew)
    page = client.get(url)
    watch = select(page, "#season-share .qr")[0].get("data-link").removeprefix("http://localhost")
    assert crew not in watch
    shown = client.get(watch)
    assert shown.status_code == 200
    assert _standings(client, watch) == _standings(client, url)
    assert not select(shown, "form") and not select(shown, ".crumbs") and not select(shown, "#season-share")
    assert element_text(shown, "#season-rule") == element_text(page, "#season-rule")
    breakdown = client.get(select(shown, "#standings tbody a")[0].get("href"))
    assert breakdown.status_code == 200 and element_text(breakdown, "h1") == "Ann"
    assert client.get(watch.rsplit("/", 1)[0]).status_code == 404  # the crew's list of seasons is not its
    assert client.post(watch + "/rule", data={"best": "1", "minimum": "1"}).status_code == 404


def test_the_projector_view_lists_every_ranked_player_with_the_rule(client, table):
    crew = table.start_crew()
    _game(table, (0, 1, 2, 3))
    _game(table, (1, 2, 3, 0), names=("Ann", "Eve", "Fay", "Gus"))
    url = _open(client, crew, minimum="2")
    screen_url = select(client.get(url), "#projector-link")[0].get("href")
    assert crew not in screen_url  # the projector holds the watch link, never the crew link
    screen = client.get(screen_url)
    assert element_text(screen, "#big-board h1") == "Winter"
    assert "a player is ranked from their 2nd event" in element_text(screen, ".stage-note")
    assert texts(screen, "#big-board tbody th") == ["Ann"]  # the only one with two events
    assert select(screen, ".season-corner .qr")[0].get("data-link").endswith(url.split("/seasons/")[1])
    polled = client.get(screen_url, headers={"HX-Request": "true"})
    assert polled.get_data(as_text=True).lstrip().startswith('<section class="big-board"')


def test_the_share_card_is_a_png_of_the_standings(client, table):
    crew = table.start_crew()
    _game(table, (0, 1, 2, 3))
    url = _open(client, crew)
    card = client.get(url + "/card.png")
    assert card.status_code == 200 and card.mimetype == "image/png"
    assert card.data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(card.data[16:20], "big") == 1200
    assert select(client.get(url), "[data-card-button]")[0].get("href") == url + "/card.png"


def test_a_closed_season_says_when_it_changed_after_closing(app, client, table):
    """Its games were played before its last day; a round undone and brought back today moves
    nothing in the standings but is a change after the close, and the page says so."""
    crew = table.start_crew()
    game_id = _game(table, (0, 1, 2, 3))
    long_ago = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=10)).isoformat(timespec="seconds")
    db = connect(app.config["DATABASE"])
    db.execute("UPDATE games SET created = ? WHERE id = ?", [long_ago, game_id])
    db.execute("UPDATE round_changes SET at = ?", [long_ago])
    db.conn.commit()
    week_ago = datetime.date.today() - datetime.timedelta(days=7)
    url = _open(client, crew, first_day=(week_ago - datetime.timedelta(days=7)).isoformat(), last_day=week_ago.isoformat())
    page = client.get(url)
    assert "closed" in element_text(page, "h1 + p") and not select(page, ".notice")
    assert len(_standings(client, url)) == 4
    game_url = f"{crew}games/{game_id}"
    assert client.post(game_url + "/rounds/1/delete").status_code in (200, 303)
    assert _standings(client, url) == []  # the game is not finished any more: it counts no longer
    assert client.post(game_url + "/rounds/1/bring-back").status_code in (200, 303)
    page = client.get(url)
    assert len(_standings(client, url)) == 4
    assert element_text(page, ".notice") == (f"Changed on {datetime.date.today():%a} {datetime.date.today().day} "
                                              f"{datetime.date.today():%b %Y}, after the season closed: a round of one of its games or nights changed.")
