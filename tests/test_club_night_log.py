"""A club night's log holds facts and the web words them (issue 37, as a round's log does): a line
keeps its stage, the players it names (ids, their names read as they are now), a count and how many
times in a row (`club_night_changes`, m0016), never a sentence; and a database or an export file
from before, which holds the sentences, shows the same lines as it did."""
from services import club_nights as night_service
from store import connect
from store import old_night_words
from support.apps import make_app
from support.club_nights import NINE, names_by_id, new_night, night_of, night_version, play_round
from support.exports import export_of, restore
from support.html_text import element_text, texts
from web.club_night_changes import night_change_words

FACTS = ("stage", "players", "count", "times")


def _night(app, client, crew):
    """A night's every kind of line: created; stage 1 drawn twice; two swaps; Jo joins; a player
    sitting out leaves and comes back; stage 1 started and played out; stage 2 drawn; the night
    finished (stage 2 dropped). Returns (its url, the lines the page words, as they read before)."""
    night_url = new_night(client, crew).headers["Location"]
    assert client.post(night_url + "/stages").status_code == 303
    assert client.post(night_url + "/stages/1/redraw").status_code == 303
    found, stages = night_of(app, night_url)
    names = names_by_id(found)
    a, b = stages[-1]["places"][0]["player_id"], stages[-1]["places"][4]["player_id"]
    for _ in range(2):
        form = {"first": a, "second": b, "version": night_version(client, night_url)}
        assert client.post(night_url + "/stages/1/swap", data=form).status_code == 303
    assert client.post(night_url + "/players", data={"name": "Jo"}).status_code == 303
    out = next(place["player_id"] for place in stages[-1]["places"] if place["table_no"] is None)
    for here in ("0", "1"):
        assert client.post(night_url + f"/players/{out}/here", data={"here": here}).status_code == 303
    assert client.post(night_url + "/stages/1/start").status_code == 303
    _, stages = night_of(app, night_url)
    for game in stages[-1]["tables"].values():
        for order in ((0, 1, 2, 3), (3, 0, 1, 2)):
            play_round(app, crew, game["game_id"], order)
    assert client.post(night_url + "/stages").status_code == 303
    assert client.post(night_url + "/finish").status_code == 303
    return night_url, [
        f"9 players: {', '.join(NINE)}",
        "Stage 1 drawn for 9 players · 2 draws",
        f"Stage 1: {names[a]} and {names[b]} swapped places · 2 swaps",
        "Jo joined",
        f"{names[out]} is back · 2 changes",
        "Stage 1 started at 2 tables",
        "Stage 2 drawn for 10 players",
        "The night finished after 1 stage (stage 2, drawn but not started, dropped)",
    ]


def _id(night_url):
    return int(night_url.rsplit("/", 1)[1])


def _changes(app, night_id):
    with app.app_context():
        return night_service.changes({"id": night_id})


def _lines(app, night_id):
    return [night_change_words(change) for change in _changes(app, night_id)]


def test_the_log_holds_facts_and_the_web_words_them(app, client, crew):
    night_url, lines = _night(app, client, crew)
    db = connect(app.config["DATABASE"])
    assert {detail for (detail,) in db.execute("SELECT detail FROM club_night_changes")} == {""}
    assert _lines(app, _id(night_url)) == lines
    # The night's page lists them under its log, each after its time.
    page = client.get(night_url)
    assert element_text(page, "#night-log summary") == f"The night’s log ({len(lines)})"
    assert [line.split(" · ", 1)[1] for line in texts(page, "#night-log li")] == lines
    for change in _changes(app, _id(night_url)):  # the store's mirror of the words (for old lines) agrees
        assert old_night_words.words(change["action"], change) == night_change_words(change)


def test_a_renamed_player_is_named_as_now(app, client, crew):
    night_url, lines = _night(app, client, crew)
    db = connect(app.config["DATABASE"])
    with db.conn:
        db.execute("UPDATE players SET name = 'Joanna', name_key = 'joanna' WHERE name = 'Jo'")
    assert _lines(app, _id(night_url))[3] == "Joanna joined"


# Words the page would not write the same (a count of "1 draws", a name no player of the night has):
# an older release's, kept and shown as they are.
ODD = {"Stage 1 drawn for 9 players · 1 draws", "Zed joined"}


def _age(db, lines):
    """Make the database one from before m0016: the lines' words stored, no facts."""
    ids = [row_id for (row_id,) in db.execute("SELECT id FROM club_night_changes ORDER BY id")]
    for row_id, words in zip(ids, lines):
        db.execute("UPDATE club_night_changes SET detail = ? WHERE id = ?", [words, row_id])
    for column in FACTS:
        db.execute(f"ALTER TABLE club_night_changes DROP COLUMN {column}")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm0016_night_change_facts'")
    db.conn.commit()


def test_an_older_database_shows_the_same_lines_once_migrated(app, client, crew):
    night_url, lines = _night(app, client, crew)
    old = [*lines[:1], "Stage 1 drawn for 9 players · 1 draws", *lines[2:3], "Zed joined", *lines[4:]]
    db = connect(app.config["DATABASE"])
    _age(db, old)
    db.close()
    upgraded = make_app(app.config["DATABASE"])
    assert _lines(upgraded, _id(night_url)) == old
    db = connect(app.config["DATABASE"])
    kept = [detail for (detail,) in db.execute("SELECT detail FROM club_night_changes ORDER BY id")]
    assert {detail for detail in kept if detail} == ODD
    assert db.execute("SELECT stage, players, count, times FROM club_night_changes WHERE action = 'swapped'"
                      ).fetchone()[::3] == (1, 2)


def test_an_older_export_restores_with_the_same_lines(app, client, crew):
    night_url, lines = _night(app, client, crew)
    data = export_of(client, crew)
    changes = data["club_nights"][0]["changes"]
    assert [change["detail"] for change in changes] == [""] * len(lines)
    assert changes[2]["stage"] == 1 and changes[2]["times"] == 2 and len(changes[2]["players"]) == 2
    old = [*lines[:3], "Zed joined", *lines[4:]]
    for change, words in zip(changes, old):  # as the app exported it before: words, no facts
        for fact in FACTS:
            change.pop(fact, None)
        change["detail"] = words
    response = restore(client, data)
    assert response.status_code == 303
    crew_url = response.headers["Location"].removesuffix("history")
    db = connect(app.config["DATABASE"])
    restored = db.execute("SELECT max(id) FROM club_nights").fetchone()[0]
    assert restored != _id(night_url)
    assert _lines(app, restored) == old
    again = export_of(client, crew_url)["club_nights"][0]["changes"]
    assert [change["detail"] for change in again] == ["", "", "", "Zed joined", "", "", "", ""]
    assert again[2] == {**data["club_nights"][0]["changes"][2], "detail": "", "stage": 1,
                        "players": export_of(client, crew)["club_nights"][0]["changes"][2]["players"], "times": 2}
