"""Issue 47, item 5: a competitive club night seats players of similar standing together: stage 1
by a season's standings (tables 1–4, 5–8, …), later stages by the night's own standings so far
(Swiss), sitting out still going round fairly; the organiser picks it on the new-night form, and the
night's page says how each table was made. Export and restore carry it."""
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.club_night import Record, draw_by_standing, sit_out_count
from support.club_nights import NINE, night_of, play_round
from support.exports import export_of, restore
from support.html_text import element_text, select, texts
from support.profiles import examples


@settings(max_examples=examples(60), deadline=None)
@given(players=st.integers(4, 23), stages=st.integers(1, 5), data=st.data())
def test_tables_follow_the_standing_and_sitting_out_goes_round(players, stages, data):
    """Each stage: those seated are, in the standing's order, table 1's four then table 2's; and
    whoever sits out has played at least as many stages as everyone seated."""
    present = list(range(players))
    earlier = []
    for stage in range(stages):
        standing = data.draw(st.permutations(present))
        seating = draw_by_standing(present, earlier, standing, seed=stage)
        record = Record.of(earlier)
        assert len(seating.sitting_out) == sit_out_count(players)
        seated = [p for p in standing if p not in seating.sitting_out]
        assert [sorted(table) for table in seating.tables] == [sorted(seated[n:n + 4]) for n in range(0, len(seated), 4)]
        if seating.sitting_out:
            assert min(record.played.get(p, 0) for p in seating.sitting_out) >= max(
                record.played.get(p, 0) for table in seating.tables for p in table)
        earlier.append(seating)
    if players % 4 and stages * sit_out_count(players) <= players:
        outs = list(itertools.chain.from_iterable(s.sitting_out for s in earlier))
        assert len(outs) == len(set(outs)), "someone sat out twice before everyone had once"


def _finished_game(app, client, table, names, order):
    table.start_game(names=list(names), goal="other", goal_other="1")
    play_round(app, table.crew_url, int(table.game_url.rsplit("/", 1)[1]), order)


def test_stage_one_by_the_season_and_stage_two_by_tonight(app, client, table):
    crew = table.start_crew()
    # The season: Ann 100, Eve 100, Bob 66.7, Fay 66.7, Cat 33.3, Gus 33.3, Dan 0, Hal 0 (Ivy: none).
    _finished_game(app, client, table, NINE[:4], (0, 1, 2, 3))
    _finished_game(app, client, table, NINE[4:8], (0, 1, 2, 3))
    assert client.post(crew + "seasons", data={"name": "Winter", "first_day": "2000-01-01", "minimum": "1"}).status_code == 303
    form = client.get(crew + "club-nights/new")
    assert texts(form, "#season option") == ["Winter"]
    night = client.post(crew + "club-nights", data={"name": "Swiss", "names": "\n".join(NINE), "format": "hands",
                                                     "stage_hands": "1", "ranking": "total", "seating": "standing",
                                                     "season": "1"}).headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    page = client.get(night)
    assert element_text(page, "#made") == "Tables by standing: the season Winter’s standings."
    tables = {element_text(t, "h3"): set(texts(t, ".seat-order li")) for t in select(page, ".night-table")}
    sitting_out = element_text(page, ".sitting-out").removeprefix("Sitting out: ")
    season = ["Ann", "Eve", "Bob", "Fay", "Cat", "Gus", "Dan", "Hal"]  # Ann and Eve tie, as do Bob and Fay …
    seated = [name for name in season + ["Ivy"] if name != sitting_out]
    assert [{name.replace(" deals", "") for name in names} for names in tables.values()] == [
        set(seated[:4]), set(seated[4:])]
    place = {name: n for n, name in enumerate(season, start=1)}
    first, second = ([place[name] for name in seated[k:k + 4] if name in place] for k in (0, 4))
    assert texts(page, ".table-made") == [
        f"As drawn: places {min(first)}–{max(first)}",
        f"As drawn: places {min(second)}–{max(second)}" + (" and 1 not ranked yet" if sitting_out != "Ivy" else "")]
    assert client.post(night + "/stages/1/start").status_code == 303
    _, stages = night_of(app, night)
    for game in stages[-1]["tables"].values():
        play_round(app, crew, game["game_id"], (0, 1, 2, 3))
    assert client.post(night + "/stages").status_code == 303
    page = client.get(night)
    assert element_text(page, "#made") == "Tables by standing: tonight’s standings after stage 1."
    board = [tr.get("data-player") for tr in select(page, "#leaderboard tbody tr")]
    out = element_text(page, ".sitting-out").removeprefix("Sitting out: ")
    order = [name for name in board if name != out]
    tables = [{n.replace(" deals", "") for n in texts(t, ".seat-order li")} for t in select(page, ".night-table")]
    assert tables == [set(order[:4]), set(order[4:])]
    assert out != sitting_out  # who sat out stage 1 plays stage 2

    data = export_of(client, crew)
    swiss = next(n for n in data["club_nights"] if n["name"] == "Swiss")
    assert swiss["seating"] == "standing" and swiss["season"] == 1
    assert [s["made"]["by"] for s in swiss["stages"]] == ["season", "tonight"]
    restored = restore(client, data).headers["Location"].removesuffix("history")
    assert export_of(client, restored)["club_nights"] == data["club_nights"]


def test_a_mixed_night_says_nothing_of_standing_and_a_bad_choice_is_refused(client, table):
    crew = table.start_crew()
    other = table.start_crew("Other crew")
    client.post(other + "seasons", data={"name": "Theirs", "first_day": "2000-01-01", "minimum": "1"})
    base = {"name": "Night", "names": "\n".join(NINE), "format": "hands", "stage_hands": "1", "ranking": "total"}
    night = client.post(crew + "club-nights", data=base).headers["Location"]
    client.post(night + "/stages")
    assert not select(client.get(night), "#made") and not select(client.get(night), ".table-made")
    assert "The crew has no season" in element_text(client.get(crew + "club-nights/new"), "#no-season")
    refused = client.post(crew + "club-nights", data={**base, "seating": "standing", "season": "1"})
    assert refused.status_code == 422  # season 1 is the other crew's
    assert "Pick one of the crew's seasons" in element_text(refused, "#note-season")
    refused = client.post(crew + "club-nights", data={**base, "seating": "strongest"})
    assert refused.status_code == 422 and "Not a valid choice" in element_text(refused, "#field-seating")
