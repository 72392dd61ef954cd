"""A crew's records over its finished games, each with the game and round it came from.

SQL picks the candidates; Python orders them (earliest game first on a tie), since SQLite
promises no order for rows that compare equal.
"""
from . import get_db

RECENT_FOURS = 10  # four-of-the-target hands listed under their count

_FINISHED_HANDS = """
    SELECT games.id AS game_id, games.created, rounds.number, hands.seat, hands.score,
        hands.target_bonus, players.name
    FROM games
    JOIN rounds ON rounds.game_id = games.id AND rounds.status = 'scored'
    JOIN hands ON hands.round_id = rounds.id
    JOIN seats ON seats.game_id = games.id AND seats.seat = hands.seat
    JOIN players ON players.id = seats.player_id
    WHERE games.crew_id = :crew AND games.status = 'finished'
"""


def _first(rows):
    """The earliest of equal records: by game start, game, round, seat."""
    rows = sorted(rows, key=lambda r: (r["created"], r["game_id"], r.get("number", 0), r.get("seat", 0)))
    return rows[0] if rows else None


def records(crew_id):
    """{'highest_round', 'lowest_round', 'most_bonuses', 'comeback', 'streak': a row or None,
    'fours': {'count', 'hands'}}; each row names the player, the game and the round."""
    db = get_db()
    crew = {"crew": crew_id}
    extremes = {}
    for key, pick in (("highest_round", "max"), ("lowest_round", "min")):
        extremes[key] = _first(db.query(
            f"SELECT * FROM ({_FINISHED_HANDS}) WHERE score = (SELECT {pick}(score) FROM ({_FINISHED_HANDS}))",
            crew))
    fours = sorted(db.query(f"SELECT * FROM ({_FINISHED_HANDS}) WHERE target_bonus = 4", crew),
                   key=lambda r: (r["created"], r["game_id"], r["number"], r["seat"]), reverse=True)
    return {
        **extremes,
        "most_bonuses": _most_bonuses(db, crew),
        "comeback": _comeback(db, crew),
        "streak": _streak(db, crew_id),
        "fours": {"count": len(fours), "hands": fours[:RECENT_FOURS]},
    }


def _most_bonuses(db, crew):
    """The most target bonuses (three or four of the target) one player made in one game; the
    round is the one that made the last of them."""
    rows = list(db.query(
        f"""
        SELECT game_id, created, seat, name, count(*) AS bonuses, max(number) AS number
        FROM ({_FINISHED_HANDS}) WHERE target_bonus IN (3, 4)
        GROUP BY game_id, seat
        """, crew))
    most = max((row["bonuses"] for row in rows), default=0)
    return _first([row for row in rows if row["bonuses"] == most])


def _comeback(db, crew):
    """The largest deficit a winner overcame: how far behind the leader they were after a round
    (the round where they were furthest behind)."""
    rows = list(db.query(
        f"""
        WITH running AS (
            SELECT game_id, created, number, seat, name,
                sum(score) OVER (PARTITION BY game_id, seat ORDER BY number) AS total
            FROM ({_FINISHED_HANDS})
        ), leads AS (SELECT game_id, number, max(total) AS lead FROM running GROUP BY game_id, number)
        SELECT running.*, leads.lead - running.total AS deficit
        FROM running JOIN leads USING (game_id, number)
        JOIN seats ON seats.game_id = running.game_id AND seats.seat = running.seat
        WHERE seats.won
        """, crew))
    deepest = max((row["deficit"] for row in rows), default=0)
    return _first([row for row in rows if row["deficit"] == deepest]) if deepest > 0 else None


def _streak(db, crew_id):
    """The most finished games in a row one player won (their games, in the order they started);
    the round is the last round of the game that ended the run."""
    rows = sorted(db.query(
        """
        SELECT results.player_id, results.game_id, results.created, results.won, results.rounds,
            players.name
        FROM seat_results AS results JOIN players ON players.id = results.player_id
        WHERE players.crew_id = ? AND results.status = 'finished'
        """, [crew_id]), key=lambda r: (r["player_id"], r["created"], r["game_id"]))
    best, run, previous = None, 0, None
    for row in rows:
        run = run + 1 if row["won"] and previous == row["player_id"] and run else int(bool(row["won"]))
        previous = row["player_id"]
        # A tie goes to the run that was made first.
        if run and (best is None or (run, best["created"]) > (best["streak"], row["created"])):
            best = {**row, "streak": run, "number": row["rounds"]}
    return best
