"""Phones that follow the table by their live poll never fall behind: an answer carries the
version of what it shows, so a change made on another phone while it was drawn is fetched by the
next poll (never hidden behind a newer version, with every later poll answering 204)."""
from services import crews as crew_service
from services import rounds as round_service
from store import connect
from support.html_text import attribute, text


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
