"""A small known history for the stats, history and transfer tests, every number worked out by hand.

The crew plays to 100 in quick mode with a few taps a round. What a hand scores (rule book §2):
  F80  target rank r, three more r won  -> four of the target: 80 (a "four" target bonus)
  T40  target rank r, two more r won    -> three of the target: 40 (a "three" target bonus)
  P    target A, one more A won         -> a pair of Aces: 15
  N    target K, two 2s won             -> a pair of 2s: -15
  Z    nothing won                      -> 0

Game 1  Ann Ben Cleo Dan   R1 bid Ann 2♠: F80 P T40 N    R2 bid Cleo 1♥: P Z Z F80
                           R3 bid Dan 3♣: T40 F80 N(3s) Z     -> Ann 135, Ben 95, Dan 65, Cleo 25
Game 2  Ben Cleo Dan Eve   R1 bid Eve 4♠: Z F80 P T40    R2 bid Cleo 2♦: T40 P Z Z
                           R3 bid Ben 1♠: Z Z Z F80           -> Eve 120, Cleo 95, Ben 40, Dan 15
Game 3  Ann Ben Cleo Dan   R1 bid Ann 5♠: F80 Z Z N      R2 bid Ann 2♥: T40 P Z Z
                                                              -> Ann 120, Ben 15, Cleo 0, Dan -15
Game 4  Ann Ben Cleo Dan   R1 bid Ben 3♠: N F80 T40 P    R2 bid Ben 1♣: Z T40 Z Z
                                                              -> Ben 120, Cleo 40, Dan 15, Ann -15
Game 5  Ann Ben Cleo Dan   R1 bid Dan 1♦: Ann four 4s with her target and four Kings (80 + 40)
                                                              -> Ann 120, Ben 0, Cleo 0, Dan 0
Game 6  Ann Ben Cleo Dan   one round of nothing, then abandoned (out of the stats)
Game 7  Ann Ben Cleo Eve   one round, still being played (out of the stats)
"""
from store import connect, stats
from support.rounds import save_quick_round

Z = ("QS", {})
ZJ = ("JS", {})
Z10 = ("10S", {})
P = ("AS", {"A": 1})
N = ("KS", {"2": 2})


def F80(rank):
    return (f"{rank}S", {rank: 3})


def T40(rank):
    return (f"{rank}S", {rank: 2})


# (names, [(bid seat, number, suit, [four hands])], what happens after)
KNOWN_GAMES = [
    (("Ann", "Ben", "Cleo", "Dan"), [
        ("0", "2", "S", [F80("4"), P, T40("3"), N]),
        ("2", "1", "H", [P, Z, ZJ, F80("5")]),
        ("3", "3", "C", [T40("4"), F80("2"), ("KS", {"3": 2}), Z]),
    ], None),
    (("Ben", "Cleo", "Dan", "Eve"), [
        ("3", "4", "S", [Z, F80("6"), P, T40("7")]),
        ("1", "2", "D", [T40("8"), P, Z, ZJ]),
        ("0", "1", "S", [Z, ZJ, Z10, F80("9")]),
    ], None),
    (("Ann", "Ben", "Cleo", "Dan"), [
        ("0", "5", "S", [F80("4"), Z, ZJ, N]),
        ("0", "2", "H", [T40("3"), P, Z, ZJ]),
    ], None),
    (("Ann", "Ben", "Cleo", "Dan"), [
        ("1", "3", "S", [N, F80("4"), T40("3"), P]),
        ("1", "1", "C", [Z, T40("5"), ZJ, Z10]),
    ], None),
    (("Ann", "Ben", "Cleo", "Dan"), [
        ("3", "1", "D", [("4S", {"4": 3, "K": 4}), Z, ZJ, Z10]),
    ], None),
    (("Ann", "Ben", "Cleo", "Dan"), [("0", "1", "D", [Z, ZJ, Z10, ("9S", {})])], "abandon"),
    (("Ann", "Ben", "Cleo", "Eve"), [("0", "1", "D", [F80("4"), Z, ZJ, Z10])], None),
]


def _posted(client, url, data=None, expect=200):
    response = client.post(url, data=data or {})
    assert response.status_code == expect, (url, response.get_data(as_text=True)[:300])
    return response


def build_known_history(client):
    """The games above: crews and games started through HTTP, rounds saved through the round
    service as the round page's taps would save them (the browser tests use it too, so it needs
    nothing from conftest); returns the crew's URL."""
    crew_url = _posted(client, "/crews", {"name": "Known crew"}, 303).headers["Location"]
    for names, rounds, after in KNOWN_GAMES:
        game = {f"player_{seat}": name for seat, name in enumerate(names)}
        game.update(tie_rule="play-on", min_bid="1", redeal_moves_deal="no", first_dealer="0",
                    goal="other", goal_other="100")
        game_url = _posted(client, crew_url + "games", game, 303).headers["Location"]
        for seat, number, suit, hands in rounds:
            save_quick_round(client.application, game_url, [target for target, _ in hands],
                             [counts for _, counts in hands], bid=(seat, number, suit))
        if after == "abandon":
            game_id = game_url.rsplit("/", 1)[1]
            _posted(client, f"{crew_url}history/games/{game_id}/abandon", expect=303)
    return crew_url


def player_ids(app):
    return {row["name"]: row["id"] for row in connect(app.config["DATABASE"]).query("SELECT id, name FROM players")}


def summary_of(app, name):
    with app.app_context():
        return stats.summary(player_ids(app)[name])


# --- The numbers, straight from the store --------------------------------------------------------
