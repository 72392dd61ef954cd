"""Issue 36.11, the small things: the new-night form counts who is here, name inputs take the
name limit (and say it), the leader's highlight is on the column the night is ranked by, points
per hand have a real minus sign and round half away from zero, "1 table", and "Now" names no table
once its stage is over."""
from scoring import NAME_MAX
from support.club_nights import NINE, new_night, night, night_of, play_round  # noqa: F401
from support.html_text import element_text, select, texts
from web.club_night_changes import night_change_words

HX = {"HX-Request": "true"}


def test_the_new_night_form_counts_who_is_here(client, crew, night):
    form = client.get(crew + "club-nights/new")
    assert element_text(form, "#here-count") == "0 players here"
    poll = select(form, "#here-counter")[0]  # it asks; #here-count is what it redraws
    assert poll.get("hx-target") == "#here-count" and poll.get("hx-sync") == "this:replace"
    assert poll.get("hx-post") and poll.get("hx-include") == "#night-form"
    counted = client.post(poll.get("hx-post"), data={"known": ["Ann", "Cat"], "names": "Zoe\n\nann\nBo"}, headers=HX)
    assert counted.status_code == 200
    assert element_text(counted, "#here-count") == "4 players here"
    one = client.post(poll.get("hx-post"), data={"known": ["Ann"]}, headers=HX)
    assert element_text(one, "#here-count") == "1 player here"
    # A plain post to the count (no htmx) is the whole form back, counted, not a server error.
    plain = client.post(poll.get("hx-post"), data={"known": ["Ann"], "names": "Zoe"})
    assert plain.status_code == 200 and element_text(plain, "#here-count") == "2 players here"
    assert select(plain, "#night-form")
    # Without JavaScript the form says it when it comes back.
    back = client.post(crew + "club-nights", data={"name": "x", "known": ["Ann", "Bob"], "names": "Zoe",
                                                   "format": "hands", "stage_hands": "2", "ranking": "total"})
    assert back.status_code == 422 and element_text(back, "#here-count") == "3 players here"


def test_name_inputs_take_the_name_limit_and_say_it(client, crew, night):
    form = client.get(crew + "club-nights/new")
    assert select(form, "#name")[0].get("maxlength") == str(NAME_MAX)
    assert f"At most {NAME_MAX} characters." in texts(form, "#field-name .hint")
    page = client.get(night)
    assert select(page, "#players #name")[0].get("maxlength") == str(NAME_MAX)
    assert f"A name of at most {NAME_MAX} characters." in texts(page, "#players .hint")


def _one_stage(app, client, crew, night_url, orders=((0, 1, 2, 3),)):
    client.post(night_url + "/stages")
    start = client.post(night_url + "/stages/1/start", headers=HX)
    _, stages = night_of(app, night_url)
    for order in orders:
        play_round(app, crew, stages[-1]["tables"][1]["game_id"], order)
    return start


def test_the_leaders_highlight_is_on_the_column_the_night_is_ranked_by(app, client, crew):
    for k, (ranking, column) in enumerate((("total", "points"), ("per-hand", "per-hand"), ("placement", "placement"))):
        four = [f"{name} {k}" for name in NINE[:4]]  # not the last night's players, still at its table
        night_url = new_night(client, crew, four, ranking=ranking).headers["Location"]
        _one_stage(app, client, crew, night_url)
        ranked = select(client.get(night_url), "#leaderboard tbody td.ranked")
        assert ranked and {cell.get("class") for cell in ranked} == {f"{column} ranked"}, ranking
        assert select(client.get(night_url + "/board"), "#big-board tbody td.ranked")


def test_points_per_hand_have_a_minus_sign(app, client, crew):
    """Two hands: a seat with −15 then 10 has −2.5 a hand, shown "−2.5" as −15 is."""
    from support import club_nights as shared
    night_url = new_night(client, crew, NINE[:4], ranking="per-hand").headers["Location"]
    hands = shared.HANDS
    shared.HANDS = hands + [("3S", {"3": 1}, -15)]  # a pair of 3s: −15
    try:
        _one_stage(app, client, crew, night_url, orders=((4, 1, 2, 3), (1, 0, 2, 3)))
    finally:
        shared.HANDS = hands
    shown = texts(client.get(night_url), "#leaderboard tbody td.per-hand")
    assert "−2.5" in shown and not [value for value in shown if "-" in value]


def test_a_stage_at_one_table_says_one_table_and_now_clears_when_it_is_over(app, client, crew):
    night_url = new_night(client, crew, NINE[:5]).headers["Location"]
    start = _one_stage(app, client, crew, night_url)
    assert element_text(start, "#note-stage") == "Stage 1 started at 1 table: each table scans its own code."
    found, _ = night_of(app, night_url)
    with app.app_context():
        from services import club_nights as night_service
        assert night_change_words(night_service.changes(found)[-1]) == "Stage 1 started at 1 table"
    board = client.get(night_url + "/board")
    assert sorted(texts(board, "td.where")) == ["Sitting out"] + ["Table 1"] * 4
    _, stages = night_of(app, night_url)
    play_round(app, crew, stages[-1]["tables"][1]["game_id"], (3, 0, 1, 2))  # the stage's second hand: over
    assert texts(client.get(night_url + "/board"), "td.where") == [""] * 5
