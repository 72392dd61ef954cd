"""m0004: Game-night history: notes, each hand's target bonus, and `seat_results`, one row per"""
import json

from . import migrations


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
