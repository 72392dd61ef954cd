"""The round limit a backup file keeps to, kept by live entry too."""
import copy

from scoring import ROUNDS_MAX
from store import connect
from support.exports import export_of, restore
from support.html_text import element_text, notice, text, texts


def test_a_round_s_redeals_corrections_and_a_game_s_rounds_stop_at_the_limit_a_backup_keeps(
        monkeypatch, client, table):
    """scoring's ROUNDS_MAX bounds what a backup file may hold (store/export_format.py); live entry
    keeps to it too, so every game it makes can be restored. (Here the limit is made 2.)"""
    import services.corrections
    import services.rounds

    monkeypatch.setattr(services.rounds, "ROUNDS_MAX", 2)
    monkeypatch.setattr(services.corrections, "ROUNDS_MAX", 2)
    table.start_crew()
    table.start_game()
    url = table.save_quick_round(["4S", "2S", "3S", "5S"], [{}, {}, {}, {}])
    assert client.post(url + "/correct").status_code == 303  # revision 2 of round 1
    assert client.post(url + "/save", data=table.save_form(url)).status_code == 303
    refused = client.post(url + "/correct")
    assert refused.status_code == 409
    assert notice(refused) == "A round may be saved 2 times at most: it cannot be corrected again."
    assert "correcting" not in text(client.get(url))

    second = table.start_round()
    assert [client.post(second + "/redeal").status_code for _ in range(3)] == [200, 200, 409]
    refused = client.post(second + "/redeal", headers={"HX-Request": "true"})
    assert element_text(refused, "#step-bid .notice") == "A round may be dealt again 2 times at most: enter this deal."
    assert "Redeals this round: 2" in text(client.get(second))

    table.enter_quick_round(["4S", "2S", "3S", "5S"], [{}, {}, {}, {}])  # round 2, still open, saved
    third = client.post(table.game_url + "/rounds")
    assert third.headers["Location"].endswith(table.game_url)  # no round 3 opens
    assert "A game may have 2 rounds at most: start a new game." in text(client.get(table.game_url))


def test_a_long_games_scoreboard_lists_its_newest_rounds_and_its_totals_count_every_round(
        monkeypatch, client, table):
    """A game to a high goal can run to thousands of rounds; its scoreboard, drawn on the worker's
    event loop, lists the newest SCOREBOARD_ROUNDS (here 2, then 1) after a line that counts the
    others, and each listed round's running totals are the full game's."""
    import services.games

    table.start_crew()
    table.start_game()
    for targets, counts in [(["4S", "2S", "3S", "5S"], [{"7": 2}, {}, {"Q": 3}, {}]),
                            (["6H", "2S", "3S", "5S"], [{}, {"K": 2}, {}, {"A": 4}]),
                            (["4S", "8D", "3S", "5S"], [{"9": 3}, {}, {"J": 2}, {}])]:
        table.save_quick_round(targets, counts)
    rows = "table.rounds tbody tr:not(.earlier)"
    everything = texts(client.get(table.game_url), rows)
    assert len(everything) == 3, everything

    monkeypatch.setattr(services.games, "SCOREBOARD_ROUNDS", 2)
    page = client.get(table.game_url)
    assert texts(page, rows) == everything[1:]
    assert element_text(page, "tr.earlier") == "Round 1 is not listed here; the totals count it."
    monkeypatch.setattr(services.games, "SCOREBOARD_ROUNDS", 1)
    polled = client.get(table.game_url + "/live?v=0", headers={"HX-Request": "true"})
    assert texts(polled, rows) == everything[2:]
    assert element_text(polled, "tr.earlier") == "Rounds 1 to 2 are not listed here; the totals count them."


def test_a_backup_may_hold_a_game_of_the_most_rounds_and_not_one_more(app, client, table):
    """Every page and save of a game reads all its saved rounds, and starting a round does so in the
    write lock every table waits for: a file's game is bounded by ROUNDS_MAX (1,000; it was 100,000,
    and a "Start round" on such a game held the lock for a second)."""
    crew_url = table.start_crew()
    table.start_game(goal="other", goal_other="100000")
    table.save_quick_round(["4S", "2S", "3S", "5S"], [{}, {}, {}, {}])
    data = export_of(client, crew_url)
    rounds = data["games"][0]["rounds"]
    rounds.extend(dict(copy.deepcopy(rounds[0]), number=number) for number in range(2, ROUNDS_MAX + 2))

    refused = restore(client, data)
    assert refused.status_code == 422
    assert "Game 1 has a round numbered over 1,000: a game may have 1,000 rounds at most." in text(refused)
    rounds[-1]["number"] = 10 ** 4000  # a number of 4,001 digits is not said back
    refused = restore(client, data)
    assert refused.status_code == 422 and "000,000" not in text(refused)
    assert "Game 1 has a round numbered over 1,000: a game may have 1,000 rounds at most." in text(refused)

    rounds.pop()
    restored = restore(client, data)
    assert restored.status_code == 303, text(restored)
    game_id = connect(app.config["DATABASE"]).execute("SELECT max(id) FROM games").fetchone()[0]
    game_url = restored.headers["Location"].removesuffix("history") + f"games/{game_id}"
    board = client.get(game_url)
    assert element_text(board, "tr.earlier") == "Rounds 1 to 950 are not listed here; the totals count them."
    assert "A game may have 1,000 rounds at most: start a new game." in text(client.get(
        client.post(game_url + "/rounds").headers["Location"]))
