"""Phones that follow the table by their live poll never fall behind: an answer carries the
version of what it shows, so a change made on another phone while it was drawn is fetched by the
next poll (never hidden behind a newer version, with every later poll answering 204)."""
from services import crews as crew_service
from services import rounds as round_service
from store import connect
from support.html_text import attribute, text
from support.rounds import BIG_COUNTS, BIG_TARGETS
from web.rounds import page as page_module


def test_a_tap_made_while_a_poll_is_answered_reaches_that_phone_by_its_next_poll(app, client, table, monkeypatch):
    """Dan's phone polls while Ann's phone taps: the tap lands after Dan's answer read the round and
    before it was drawn. Dan's next poll fetches it (the answer carried the version it showed,
    not the newer one; with the newer one, every later poll answered 204 and the phone stopped)."""
    table.start_game()
    url = table.start_round()
    dan = app.test_client()

    def poll(version):
        return dan.get(f"{url}/live?v={version}&r=0", headers={"HX-Request": "true"})

    read = round_service.round_view

    def read_then_ann_taps(*args, **kwargs):
        view = read(*args, **kwargs)
        db = connect(app.config["DATABASE"])
        with db.conn:
            db.execute("""UPDATE hands SET counts = '{"J": 2}', version = version + 1 WHERE seat = 0""")
            db.execute("UPDATE games SET version = version + 1")
        return view

    monkeypatch.setattr(round_service, "round_view", read_then_ann_taps)
    crossed = poll(-1)
    monkeypatch.undo()
    assert crossed.status_code == 200 and "Pair of Jacks" not in text(crossed)
    shown = attribute(crossed, "#poll", "hx-get").split("v=")[1].split("&")[0]
    after = poll(shown)
    assert after.status_code == 200, "the tap made while the poll was answered never reaches Dan's phone"
    assert poll(attribute(after, "#poll", "hx-get").split("v=")[1].split("&")[0]).status_code == 204


def test_a_game_ending_while_the_crew_page_is_drawn_reaches_it_by_its_next_poll(app, client, table, monkeypatch):
    """The crew page's list is read, then a game ends on another phone, then the page's mark is
    read: the mark must be the list's, so the page's next poll fetches the ended game."""
    table.start_game()
    read = crew_service.game_store.games

    def read_then_the_game_ends(crew_id):
        games = read(crew_id)
        db = connect(app.config["DATABASE"])
        with db.conn:
            db.execute("UPDATE games SET status = 'abandoned'")
        return games

    monkeypatch.setattr(crew_service.game_store, "games", read_then_the_game_ends)
    shown = attribute(client.get(table.crew_url), "#games-list", "hx-get").split("v=")[1]
    monkeypatch.undo()
    assert client.get(table.crew_url + "live?v=" + shown).status_code == 200


def test_a_game_ending_while_a_round_page_is_drawn_reaches_it_by_that_poll(app, client, table, monkeypatch):
    """Dan's round page polls while the last save ends the game: the save lands after Dan's answer
    read the game (still in play) and before it read the round (saved). That poll takes him to the
    winner. (Before, it drew the saved round with the round's newer version: every later poll
    answered 204 and his phone stayed on the saved round without the winner.)"""
    table.start_game(goal="other", goal_other="100")
    url = table.enter_quick_round(BIG_TARGETS, BIG_COUNTS, save=False)  # Ann's 160 ends the game
    form = table.save_form(url)
    dan = app.test_client()
    read = round_service.shown_revision

    def game_read_then_the_round_is_saved(game, number):
        monkeypatch.undo()  # once: the save reads the round too
        assert client.post(url + "/save", data=form).status_code == 303
        return read(game, number)

    monkeypatch.setattr(round_service, "shown_revision", game_read_then_the_round_is_saved)
    crossed = dan.get(f"{url}/live?v=-1&r=0", headers={"HX-Request": "true"})
    assert crossed.status_code == 200
    assert "HX-Redirect" in crossed.headers, "the game's end did not reach Dan's phone by the poll that saw it"
    assert "Ann wins!" in text(dan.get(crossed.headers["HX-Redirect"]))


def test_a_page_drawn_between_two_changes_carries_the_older_version(app, client, table, monkeypatch):
    """A tap lands after the round page read its game, and another after it read the game again:
    the page carries the version it read first, so its next poll fetches both."""
    table.start_game()
    url = table.start_round()
    dan = app.test_client()
    read = round_service.shown_revision
    db = connect(app.config["DATABASE"])

    def tap_elsewhere():
        with db.conn:
            db.execute("""UPDATE hands SET counts = '{"J": 2}', version = version + 1 WHERE seat = 0""")
            db.execute("UPDATE games SET version = version + 1")

    def the_game_read_again_then_another_tap(game, number):
        monkeypatch.undo()
        tap_elsewhere()  # between the first read of the game and the round
        entry = read(game, number)
        page_load = page_module.load

        def load_then_tap(game_id):
            page_load(game_id)
            tap_elsewhere()  # after the game was read again
        monkeypatch.setattr(page_module, "load", load_then_tap)
        return entry

    monkeypatch.setattr(round_service, "shown_revision", the_game_read_again_then_another_tap)
    crossed = dan.get(f"{url}/live?v=-1&r=0", headers={"HX-Request": "true"})
    monkeypatch.undo()
    shown = attribute(crossed, "#poll", "hx-get").split("v=")[1].split("&")[0]
    assert int(shown) < db.execute("SELECT version FROM games").fetchone()[0]  # older than what is stored
    assert dan.get(f"{url}/live?v={shown}&r=0", headers={"HX-Request": "true"}).status_code == 200
