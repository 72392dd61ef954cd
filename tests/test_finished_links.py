"""Links the app gave out are never guesses (issue 44, item 2): a club night table's phones, once
its game is over, are sent to their table's outcome, one tap from the night's board; a replaced link
answers 410 with where to go.
Neither counts against the address's guess limit, so a finished table polling for a minute never
locks the organiser or another table out (at the default limit, 30 a minute)."""
from urllib.parse import urlsplit

from app import create_app
from support.apps import fresh_database
from support.club_nights import NINE, new_night, night_of, play_round
from support.html_text import select
from support.table import Table


def _night_at_two_tables(tmp_path):
    app = create_app({"DATABASE": str(fresh_database(tmp_path / "orchard.db")), "SECRET_KEY": "links",
                      "WTF_CSRF_ENABLED": False, "TESTING": True})  # the default GUESS_LIMIT
    client = app.test_client()
    crew = Table(client).start_crew("Friday crew")
    night = new_night(client, crew, names=NINE[:8], stage_hands="1").headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    codes = [urlsplit(q.get("data-link")).path for q in select(client.get(night), ".night-table .qr[data-link]")]
    return app, client, crew, night, codes


def test_a_finished_night_tables_phones_go_to_the_nights_board_and_lock_nobody_out(tmp_path):
    app, client, crew, night, (first, second) = _night_at_two_tables(tmp_path)
    _, stages = night_of(app, night)
    game_id = stages[-1]["tables"][1]["game_id"]
    play_round(app, crew, game_id, (0, 1, 2, 3))  # one hand: the table's game is over
    phone = app.test_client()
    answer = phone.get(first)
    assert answer.status_code == 303
    # The table's outcome first (by the game's watch link), one tap from the night's board.
    result = phone.get(answer.headers["Location"])
    assert result.status_code == 200
    [back] = [a for a in select(result, ".winner a.button") if a.text_content().startswith("Back to Friday club")]
    assert back.get("href").endswith(f"/club-nights/{night.rsplit('/', 1)[1]}/board")
    assert phone.get(back.get("href")).status_code == 200
    # Three phones of the finished table poll its round page and scoreboard for a minute (every 3 s).
    for _ in range(20):
        for path in (first, first + "/rounds/1/live?v=1", first + "/live?v=1"):
            assert phone.get(path, headers={"HX-Request": "true"}).status_code in (200, 303)
    # The organiser and the other table are answered as ever.
    assert client.get(night).status_code == 200
    assert phone.get(second).status_code == 200


def test_a_replaced_table_link_says_so_and_counts_no_guess(tmp_path):
    app, client, crew, night, (first, second) = _night_at_two_tables(tmp_path)
    links = select(client.get(crew), "#links li")
    row = next(item for item in links if urlsplit(first).path.split("/")[2] in item.text_content())
    assert client.post(row.cssselect("form")[0].get("action")).status_code == 303
    phone = app.test_client()
    for _ in range(60):  # a phone still polling the old code, twice the guess limit
        answer = phone.get(first + "/live?v=1", headers={"HX-Request": "true"})
        assert answer.status_code == 410
    assert "This link was replaced" in phone.get(first).get_data(as_text=True)
    assert phone.get(second).status_code == 200
    assert client.get(night).status_code == 200
    # A link nobody ever gave out is still a guess: 404, and counted.
    assert phone.get("/c/not-a-link-at-all/").status_code == 404
