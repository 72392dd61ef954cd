"""The round limit a backup file keeps to, kept by live entry too."""
from support.html_text import element_text, notice, text


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
