"""m0001-m0007: crews, games, rounds and hands, house rules, seats, history, hand modes, hashed links,
restoring games."""
import hashlib
import json

from . import migrations


@migrations()
def m0001_create_tables(db):
    db["crews"].create(
        {"id": int, "name": str, "token": str, "created": str},
        pk="id",
        not_null={"name", "token", "created"},
    )
    db["crews"].create_index(["token"], unique=True)

    db["players"].create(
        {"id": int, "crew_id": int, "name": str, "created": str},
        pk="id",
        foreign_keys=[("crew_id", "crews", "id")],
        not_null={"crew_id", "name", "created"},
    )
    # Names are unique in a crew whatever their letter case.
    db.execute(
        "CREATE UNIQUE INDEX idx_players_crew_name ON players (crew_id, name COLLATE NOCASE)"
    )

    db["games"].create(
        {
            "id": int,
            "crew_id": int,
            "created": str,
            "finished": str,
            "goal": int,
            "first_dealer": int,
            "status": str,  # playing / finished / abandoned
            "winner_seats": str,  # comma-separated seats, a cache of the engine's verdict
            "rematch_of": int,
        },
        pk="id",
        foreign_keys=[("crew_id", "crews", "id"), ("rematch_of", "games", "id")],
        not_null={"crew_id", "created", "goal", "first_dealer", "status"},
    )
    db["games"].create_index(["crew_id", "created"])

    db["seats"].create(
        {"game_id": int, "seat": int, "player_id": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
        not_null={"player_id"},
    )
    db["seats"].create_index(["player_id"])

    # A row per revision of a round: a correction is a new revision, so nothing is lost.
    db["rounds"].create(
        {
            "id": int,
            "game_id": int,
            "number": int,
            "revision": int,
            "status": str,  # entering / scored / replaced / deleted / discarded
            "mode": str,  # quick / exact
            "dealer": int,
            "redeals": int,
            "bid_seat": int,
            "bid_number": int,
            "bid_suit": str,
            "version": int,
            "created": str,
            "updated": str,
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "number", "revision", "status", "mode", "dealer", "version"},
        defaults={"redeals": 0, "version": 1},
    )
    db["rounds"].create_index(["game_id", "number", "revision"], unique=True)
    # At most one saved and one open revision per round number.
    db.execute(
        "CREATE UNIQUE INDEX idx_rounds_scored ON rounds (game_id, number) WHERE status = 'scored'"
    )
    db.execute(
        "CREATE UNIQUE INDEX idx_rounds_entering ON rounds (game_id, number)"
        " WHERE status = 'entering'"
    )

    db["hands"].create(
        {
            "round_id": int,
            "seat": int,
            "target": str,  # card code, e.g. 10S
            "won": str,  # exact mode: card codes separated by spaces
            "counts": str,  # quick mode: JSON object rank -> count
            "score": int,  # cache of the engine's score, set when the round is saved
        },
        pk=("round_id", "seat"),
        foreign_keys=[("round_id", "rounds", "id")],
    )

    db["round_changes"].create(
        {
            "id": int,
            "round_id": int,
            "at": str,
            "action": str,  # started / saved / corrected / deleted / restored / discarded / redeal
            "detail": str,
        },
        pk="id",
        foreign_keys=[("round_id", "rounds", "id")],
        not_null={"round_id", "at", "action"},
    )
    db["round_changes"].create_index(["round_id"])


@migrations()
def m0002_house_rules(db):
    """A crew's house rules, and the rules each game is played under (copied when it starts)."""
    for table in ("crews", "games"):
        if table == "crews":
            db[table].add_column("goal", int, not_null_default=250)
        db[table].add_column("tie_rule", str, not_null_default="play-on")
        db[table].add_column("min_bid", int, not_null_default=1)
        db[table].add_column("redeal_moves_deal", int, not_null_default=0)


@migrations()
def m0003_live_tables_and_seats(db):
    """Live follow (a version per game), seats taken by phones, private entry and sign-off."""
    db["games"].add_column("version", int, not_null_default=1)
    db["seat_claims"].create(
        {"game_id": int, "seat": int, "device": str, "claimed": str, "seen": str},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"device", "claimed", "seen"},
    )
    # One seat per phone in a game.
    db["seat_claims"].create_index(["game_id", "device"], unique=True)
    db["hands"].add_column("entered_by", str)  # the device that last entered this hand
    db["hands"].add_column("done", str)  # when the hand was marked as all in
    db["round_changes"].add_column("by", str)  # who made the change, e.g. "Ann's phone"
    db["signoffs"].create(
        {"round_id": int, "seat": int, "device": str, "at": str},
        pk=("round_id", "seat"),
        foreign_keys=[("round_id", "rounds", "id")],
        not_null={"device", "at"},
    )


@migrations()
def m0004_history(db):
    """Game-night history: notes, each hand's target bonus, and `seat_results`, one row per
    player per game (kept by triggers in the same transaction as every change to the rounds),
    so that stats are SQL over one indexed row per game instead of every round."""
    def target_bonus(mode, hand):
        """3 or 4 when a scored hand made three or four of its target's rank (the target
        included), else 0: the engine's 40 and 80 point groups, as it scored them then."""
        rank = hand["target"][:-1]
        if mode == "exact":
            count = 1 + sum(1 for code in hand["won"] if code[:-1] == rank)
        else:
            count = 1 + hand["counts"].get(rank, 0)
        return count if count in (3, 4) else 0

    # One row per player per game with scored rounds: what `seat_results` holds, worked out again
    # for a whole game whenever anything it is made of changes (see the triggers below).
    seat_results_insert = """
    INSERT INTO seat_results (game_id, seat, player_id, created, status, won, total, rounds,
        best_round, worst_round, target_triples, target_fours, bids_won, bids_diamonds, bids_hearts,
        bids_clubs, bids_spades, place)
    SELECT sums.game_id, sums.seat, seats.player_id, games.created, games.status,
        games.status = 'finished'
            AND instr(',' || games.winner_seats || ',', ',' || sums.seat || ',') > 0,
        total, rounds, best_round, worst_round, target_triples, target_fours,
        bids_won, bids_diamonds, bids_hearts, bids_clubs, bids_spades,
        rank() OVER (PARTITION BY sums.game_id ORDER BY total DESC)
    FROM (
        SELECT rounds.game_id, hands.seat,
            coalesce(sum(hands.score), 0) AS total,
            count(*) AS rounds,
            max(hands.score) AS best_round,
            min(hands.score) AS worst_round,
            coalesce(sum(hands.target_bonus = 3), 0) AS target_triples,
            coalesce(sum(hands.target_bonus = 4), 0) AS target_fours,
            coalesce(sum(rounds.bid_seat = hands.seat), 0) AS bids_won,
            coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'D'), 0) AS bids_diamonds,
            coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'H'), 0) AS bids_hearts,
            coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'C'), 0) AS bids_clubs,
            coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'S'), 0) AS bids_spades
        FROM rounds JOIN hands ON hands.round_id = rounds.id
        WHERE {where} AND rounds.status = 'scored'
        GROUP BY rounds.game_id, hands.seat
    ) AS sums
    JOIN seats ON seats.game_id = sums.game_id AND seats.seat = sums.seat
    JOIN games ON games.id = sums.game_id
    """
    round_game = "(SELECT game_id FROM rounds WHERE id = NEW.round_id)"
    round_scored = "(SELECT status FROM rounds WHERE id = NEW.round_id) = 'scored'"
    seat_results_triggers = {
        # name: (event, condition, the game whose results are worked out again)
        "seat_results_round_added": ("AFTER INSERT ON rounds", "NEW.status = 'scored'", "NEW.game_id"),
        "seat_results_round_changed": (
            "AFTER UPDATE OF status, bid_seat, bid_suit ON rounds",
            "OLD.status = 'scored' OR NEW.status = 'scored'", "NEW.game_id"),
        "seat_results_round_removed": ("AFTER DELETE ON rounds", "OLD.status = 'scored'", "OLD.game_id"),
        "seat_results_hand_added": ("AFTER INSERT ON hands", round_scored, round_game),
        "seat_results_hand_scored": ("AFTER UPDATE OF score, target_bonus ON hands", round_scored, round_game),
        "seat_results_seat_changed": ("AFTER UPDATE OF player_id ON seats", "1", "NEW.game_id"),
        "seat_results_game_changed": (
            "AFTER UPDATE OF status, winner_seats, created ON games", "1", "NEW.id"),
    }

    # 3 or 4 when the hand made three or four of its target's rank (40 or 80 points), else 0.
    db["hands"].add_column("target_bonus", int)
    scored = db.query(
        "SELECT hands.round_id, hands.seat, hands.target, hands.won, hands.counts, rounds.mode"
        " FROM hands JOIN rounds ON rounds.id = hands.round_id WHERE hands.score IS NOT NULL"
    )
    for row in list(scored):
        hand = {"target": row["target"], "won": (row["won"] or "").split(),
                "counts": json.loads(row["counts"] or "{}")}
        db.execute(
            "UPDATE hands SET target_bonus = ? WHERE round_id = ? AND seat = ?",
            [target_bonus(row["mode"], hand), row["round_id"], row["seat"]],
        )

    db["notes"].create(
        {"id": int, "crew_id": int, "kind": str, "game_id": int, "text": str, "updated": str},
        pk="id",
        foreign_keys=[("crew_id", "crews", "id"), ("game_id", "games", "id")],
        not_null={"crew_id", "kind", "game_id", "text", "updated"},
    )
    # kind 'game': a note on one game; kind 'night': on the night that game opened.
    db["notes"].create_index(["kind", "game_id"], unique=True)
    db["notes"].create_index(["crew_id"])

    db["seat_results"].create(
        {
            "game_id": int, "seat": int, "player_id": int,
            "created": str, "status": str, "won": int,  # copied from the game, for the indexes
            "total": int, "rounds": int, "best_round": int, "worst_round": int,
            "target_triples": int, "target_fours": int, "bids_won": int, "bids_diamonds": int,
            "bids_hearts": int, "bids_clubs": int, "bids_spades": int,
            "place": int,  # 1 for the highest total in the game; equal totals share a place
        },
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    # A player's finished games in order, and a game's players, without reading the table.
    db["seat_results"].create_index(
        ["player_id", "status", "created", "game_id", "won", "total", "place", "rounds"],
        index_name="idx_seat_results_player")
    db["seat_results"].create_index(
        ["game_id", "player_id", "total", "won", "place"], index_name="idx_seat_results_game")
    for name, (event, condition, game) in seat_results_triggers.items():
        db.execute(
            f"CREATE TRIGGER {name} {event} WHEN {condition} BEGIN"
            f" DELETE FROM seat_results WHERE game_id = {game};"
            f" {seat_results_insert.format(where=f'rounds.game_id = {game}')}; END"
        )
    db.execute(seat_results_insert.format(where="1"))
    db["seats"].create_index(["player_id", "game_id", "seat"], index_name="idx_seats_player_game")


@migrations()
def m0005_hand_modes(db):
    """Quick or exact is a property of one hand, so a phone switches only the hand it enters; and
    each hand counts its changes, so a tap made on an old view of a hand changed elsewhere shows."""
    db["hands"].add_column("mode", str)
    db.execute("UPDATE hands SET mode = (SELECT mode FROM rounds WHERE rounds.id = hands.round_id)")
    db["hands"].add_column("version", int, not_null_default=0)


@migrations()
def m0006_hash_crew_tokens(db):
    """Crew links are kept only as SHA-256 hashes, so a copy of the database opens no crew."""
    db.execute("ALTER TABLE crews ADD COLUMN token_hash TEXT")
    for crew_id, token in db.execute("SELECT id, token FROM crews").fetchall():
        db.execute(
            "UPDATE crews SET token_hash = ? WHERE id = ?",
            [hashlib.sha256(token.encode("utf-8")).hexdigest(), crew_id],
        )
    db.execute("DROP INDEX idx_crews_token")
    db.execute("ALTER TABLE crews DROP COLUMN token")
    db.execute("CREATE UNIQUE INDEX idx_crews_token_hash ON crews (token_hash)")


@migrations()
def m0007_restoring_games(db):
    """A game a restore is still writing has status 'restoring': the triggers that keep
    `seat_results` leave it alone while its rounds and hands go in, and its results are worked
    out once, when it takes its real status (`seat_results_game_changed`)."""
    # Each trigger as m0004 made it, with one more condition: "CREATE TRIGGER name event WHEN
    # condition BEGIN body END" becomes "... WHEN (condition) AND <not restoring> BEGIN body END".
    round_game = "(SELECT game_id FROM rounds WHERE id = NEW.round_id)"
    for name, game in (("seat_results_round_added", "NEW.game_id"), ("seat_results_round_changed", "NEW.game_id"),
                       ("seat_results_hand_added", round_game), ("seat_results_hand_scored", round_game)):
        (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", [name]).fetchone()
        head, body = sql.split(" BEGIN ", 1)
        head, condition = head.split(" WHEN ", 1)
        db.execute(f"DROP TRIGGER {name}")
        db.execute(f"{head} WHEN ({condition})"
                   f" AND (SELECT status FROM games WHERE id = {game}) IS NOT 'restoring' BEGIN {body}")
