"""What if? A saved round with one thing changed, over HTTP; nothing is saved."""

import pytest

from support.html_text import element_text, parse, select, texts
from support.tools import QUICK_ROUND, FIRST_EXAMPLE, HX, M, dump, problems, text


# --- What if? -----------------------------------------------------------------------------------

# A real deal entered card by card: Ann 25, Ben 115, Cleo −25, Dan 115 (Dan gets the rest:
# 6D 6H 6C 7H 7C 7S 8D 8H 8C 8S 9H 9S).
EXACT_PILES = [
    ("10S", FIRST_EXAMPLE),
    ("QH", "QD QC KD KH KC KS AC AS 10D 10H 10C JS"),
    ("2C", "2D 2H 2S 3H 3S 4D 4C 4S 5D 5H 5C 5S"),
    ("7D", None),
]


def enter_exact_round(client, table):
    url = table.start_round()
    for seat in range(4):
        client.post(url + f"/hands/{seat}/mode", data={"mode": "exact"})
    client.post(url + "/bid", data={"bidder": "1", "number": "2", "suit": "S"})
    for seat, (target, _) in enumerate(EXACT_PILES):
        assert client.post(url + f"/hands/{seat}/target", data={"target": target}).status_code == 200
    for seat, (_, cards) in enumerate(EXACT_PILES):
        for card in (cards or "").split():
            assert client.post(url + f"/hands/{seat}/cards/{card}", data={"held": "1"}).status_code == 200
    assert client.post(url + "/hands/3/remaining").status_code == 200
    response = client.post(url + "/save", data=table.save_form(url))
    assert response.status_code == 303, text(response)
    return url


def score_columns(page):
    """Each player's row of the comparison: name, recorded, what if, change."""
    return [tuple(texts(row, "th, td")) for row in select(page, "table.what-if-table tbody tr")]


def change_line(page):
    return element_text(page, "#what-if-change")


def test_what_if_without_a_change_shows_the_recorded_scores(client, table):
    table.start_game()
    url = table.save_quick_round(*QUICK_ROUND)
    response = client.get(url + "/what-if")
    assert response.status_code == 200
    assert score_columns(text(response)) == [
        ("Ann", "25", "—", "—"), ("Ben", "50", "—", "—"), ("Cleo", "20", "—", "—"), ("Dan", f"{M}20", "—", "—"),
    ]


def test_what_if_a_rank_count_moves_in_quick_mode(app, client, table):
    table.start_game()
    url = table.save_quick_round(*QUICK_ROUND)
    before = dump(app)
    response = client.get(url + "/what-if?change=move&rank=J&from=0&to=1")
    assert response.status_code == 200
    page = text(response)
    assert change_line(page) == "What if Ben had won one Jack instead of Ann?"
    # Ann keeps a pair of Jacks (+10 instead of +20); Ben's lone Jack scores nothing.
    assert score_columns(page) == [
        ("Ann", "25", "15", f"{M}10"), ("Ben", "50", "50", "same"),
        ("Cleo", "20", "20", "same"), ("Dan", f"{M}20", f"{M}20", "same"),
    ]
    assert {"Pair of Jacks: +10", "Three Jacks: 2 × 10 = +20"} <= set(texts(page, "li"))
    assert dump(app) == before  # nothing was saved


def test_what_if_a_card_moves_in_exact_mode(app, client, table):
    table.start_game()
    url = enter_exact_round(client, table)
    before = dump(app)
    page = text(client.get(url + "/what-if?change=move&card=JH&to=1"))
    assert change_line(page) == "What if Ben had won J♥ instead of Ann?"
    # Ann: pair of Jacks +10 instead of three, 15. Ben: J♠ and J♥ make a pair, +10 → 125.
    assert score_columns(page) == [
        ("Ann", "25", "15", f"{M}10"), ("Ben", "115", "125", "+10"),
        ("Cleo", f"{M}25", f"{M}25", "same"), ("Dan", "115", "115", "same"),
    ]
    # One card alone cannot really change hands (tricks are 4 cards): the engine says so.
    assert "Ann's pile has 11 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards." in page
    assert dump(app) == before


def test_what_if_a_target_changes_in_exact_mode(app, client, table):
    table.start_game()
    url = enter_exact_round(client, table)
    before = dump(app)
    page = text(client.get(url + "/what-if?change=target&seat=0&target=JS"))
    assert change_line(page) == "What if Ann’s target had been J♠ instead of 10♠?"
    # Ann: J♠ joins her three Jacks → four of the target's rank, 80; −15 + 5 + 80 + 15 = 85.
    # Ben gets 10♠ in J♠'s place: four 10s, 40 instead of three, 20 → 135.
    assert score_columns(page) == [
        ("Ann", "25", "85", "+60"), ("Ben", "115", "135", "+20"),
        ("Cleo", f"{M}25", f"{M}25", "same"), ("Dan", "115", "115", "same"),
    ]
    assert "Ann's pile has" not in page  # a swap keeps the deck whole
    assert dump(app) == before


def test_what_if_fragment_and_shareable_address(client, table):
    table.start_game()
    url = table.save_quick_round(*QUICK_ROUND)
    fragment = client.get(url + "/what-if?change=move&rank=J&from=0&to=1&card=&seat=&target=", headers=HX)
    assert parse(text(fragment)).get("id") == "what-if" and "<html" not in text(fragment)
    assert fragment.headers["HX-Push-Url"] == url + "/what-if?change=move&rank=J&from=0&to=1"
    whole = text(client.get(fragment.headers["HX-Push-Url"]))
    assert score_columns(whole) == score_columns(text(fragment))


@pytest.mark.parametrize(
    "query, message",
    [
        ("change=move&rank=J&from=0&to=0", "Pick two different players."),
        ("change=move&rank=K&from=0&to=1", "Ann’s pile has no Kings entered."),
        ("change=move&rank=J&from=7&to=1", "Pick one of the four players."),
        ("change=move&rank=Z&from=0&to=1", "'Z' is not a rank (use 2–10, J, Q, K, A)"),
        ("change=target&seat=0&target=10S", "10♠ is already Ann’s target."),
        ("change=swap", "Pick what to change: move a card, or change a target."),
    ],
)
def test_what_if_bad_input_is_422_with_a_message(client, table, query, message):
    table.start_game()
    url = table.save_quick_round(*QUICK_ROUND)
    response = client.get(url + "/what-if?" + query)
    assert response.status_code == 422
    assert problems(text(response)) == [message]


def test_what_if_refuses_what_no_deck_has(client, table):
    table.start_game()
    # Ann won all four Jacks; in quick entry only the target changes, so a Jack as her target
    # would make a fifth Jack, and the engine refuses to score it.
    url = table.save_quick_round(
        ["10S", "4H", "KD", "2S"],
        [{"J": 4}, {"4": 2, "10": 2}, {"K": 1, "7": 3}, {"2": 1, "5": 2, "Q": 2}],
    )
    response = client.get(url + "/what-if?change=target&seat=0&target=JS")
    assert response.status_code == 422
    assert problems(text(response)) == [
        "Ann: You cannot have 5 Jacks (4 won plus your target): there are only 4 in the deck"
    ]


def test_what_if_needs_a_saved_round(client, table):
    table.start_game()
    open_url = table.start_round()
    assert client.get(open_url + "/what-if").status_code == 404
    assert client.get(table.game_url + "/rounds/9/what-if").status_code == 404
    assert client.get(table.crew_url + "games/999/rounds/1/what-if").status_code == 404


def test_what_if_uses_the_saved_round_while_a_correction_is_open(client, table):
    table.start_game()
    url = table.save_quick_round(*QUICK_ROUND)
    assert client.post(url + "/correct").status_code == 303
    page = text(client.get(url + "/what-if"))
    assert [row[:2] for row in score_columns(page)] == [("Ann", "25"), ("Ben", "50"), ("Cleo", "20"), ("Dan", f"{M}20")]


def test_what_if_of_another_crews_game_is_not_found(client, table):
    table.start_game()
    url = table.save_quick_round(*QUICK_ROUND)
    other = table.start_crew("Other crew")
    assert client.get(other + url.split("/", 3)[3] + "/what-if").status_code == 404
