"""Rounds for tests: the round the tests share, a real deal entered card by card over HTTP, and a
builder that saves a round through the app's own round service (no HTTP taps, no raw SQL) for
tests that only need saved rounds."""
from scoring import parse_card, parse_rank
from store import connect
from store import crews as crew_store
from store import games as game_store
from services import rounds as round_service
from services import taps
from services.phones import Viewer

# A round where the targets make four of a kind: Ann 160, Ben 80, Cleo 80, Dan 80.
BIG_TARGETS = ["4S", "2S", "3S", "5S"]
BIG_COUNTS = [{"4": 3, "K": 4, "Q": 4}, {"2": 2, "J": 4}, {"3": 3}, {"5": 3}]

# The table's shared phone: it holds no seat, so it may enter every hand.
BUILDER = Viewer(device="round-builder", seat=None, claims={})


def exact(client, url, seats=range(4)):
    """Switch hands to exact entry (a hand's own choice)."""
    for seat in seats:
        client.post(url + f"/hands/{seat}/mode", data={"mode": "exact"})


def add(client, url, seat, card):
    return client.post(url + f"/hands/{seat}/cards/{card}", data={"held": "1"})


def stored_rounds(app):
    db = connect(app.config["DATABASE"])
    return list(db.query("SELECT number, revision, status FROM rounds ORDER BY id"))


def exact_round(client, url):
    """A real 52-card deal entered card by card: Ann 25 (the rule book's first example)."""
    exact(client, url)
    client.post(url + "/bid", data={"bidder": "1", "number": "2", "suit": "S"})
    piles = [
        ("10S", "3C 3D 4H 6S 9C 9D JC JD JH QS AH AD"),
        ("QH", "QD QC KD KH KC KS AC AS 10D 10H 10C JS"),
        ("2C", "2D 2H 2S 3H 3S 4D 4C 4S 5D 5H 5C 5S"),
        ("7D", None),
    ]
    for seat, (target, _) in enumerate(piles):
        assert client.post(url + f"/hands/{seat}/target", data={"target": target}).status_code == 200
    for seat, (_, cards) in enumerate(piles):
        if cards:
            for card in cards.split():
                assert add(client, url, seat, card).status_code == 200
    return client.post(url + "/hands/3/remaining")


def save_quick_round(app, game_url, targets, counts, bid=("0", "1", "D"), save=True):
    """Enter a round in quick mode through the round service, as the round page's taps would
    (the engine refuses what it would refuse there), and save it; returns the round's URL.

    targets: a target card per seat; counts: {rank: count} per seat; bid: (seat, number, suit)."""
    token, game_id = _ids(game_url)
    with app.app_context():
        game = game_store.game(crew_store.crew_by_token(token)["id"], game_id)
        number = round_service.start_next(game, BUILDER)
        assert number is not None, "the game is over"
        seat, bid_number, suit = bid
        round_service.set_bid(game, number, int(seat), int(bid_number), suit)
        for s, target in enumerate(targets):
            taps.set_target(game, BUILDER, number, s, parse_card(target).code)
        for s, pile in enumerate(counts):
            for rank, n in pile.items():
                taps.set_count(game, BUILDER, number, s, parse_rank(rank), int(n))
        if save:
            entry = round_service.shown_revision(game, number)
            # The cards quick entry left out are confirmed as singles, as the page's box does.
            view = round_service.round_view(game, entry, BUILDER)
            problems = round_service.save(game, BUILDER, number, entry["version"], view.left_out_count or None)
            assert not problems, [problem.message for problem in problems]
    return f"{game_url}/rounds/{number}"


def _ids(game_url):
    """("/c/<token>/games/<id>") -> (token, id)."""
    parts = game_url.strip("/").split("/")
    assert parts[0] == "c" and parts[2] == "games", game_url
    return parts[1], int(parts[3])
