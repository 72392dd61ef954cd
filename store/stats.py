"""Players' numbers, read in SQL from `seat_results`: one cached row per player per game.

Only finished games count: an abandoned or unfinished game is in the history, not in the stats.
Every query here is a fixed number of SQL statements whatever the length of the history.
"""
from scoring import entered_hand, score_hand

from . import get_db
from .lists import AMONG, listed

SUITS = (("S", "bids_spades"), ("C", "bids_clubs"), ("H", "bids_hearts"), ("D", "bids_diamonds"))
FORM_GAMES = 10
CHART_GAMES = 50


def target_bonus(mode, hand):
    """3 or 4 when the hand made three or four of its target's rank (the 40 and 80 point
    groups), else 0, as the engine scores it."""
    return bonus_of(score_hand(entered_hand(mode, hand["target"], hand["won"], hand["counts"])))


def bonus_of(pile):
    """The target bonus (0, 3 or 4) in a score the engine already worked out."""
    return pile.target_bonus if pile else 0


def overview(crew_id):
    """Every player of the crew with finished games played and won, most games first."""
    return list(
        get_db().query(
            """
            SELECT players.id, players.name,
                coalesce(finished.played, 0) AS played, coalesce(finished.won, 0) AS won
            FROM players
            LEFT JOIN (
                SELECT player_id, count(*) AS played, sum(won) AS won FROM seat_results
                WHERE status = 'finished'
                    AND player_id IN (SELECT id FROM players WHERE crew_id = :crew)
                GROUP BY player_id
            ) AS finished ON finished.player_id = players.id
            WHERE players.crew_id = :crew
            ORDER BY played DESC, players.name COLLATE NOCASE
            """,
            {"crew": crew_id},
        )
    )


def summary(player_id):
    """The player's totals over finished games: played, won, rates and averages, best and
    worst round, bids won by suit, target bonuses, longest winning streak."""
    db = get_db()
    row = next(
        db.query(
            """
            SELECT count(*) AS played, coalesce(sum(won), 0) AS won,
                coalesce(sum(total), 0) AS points, coalesce(sum(rounds), 0) AS rounds,
                max(best_round) AS best_round, min(worst_round) AS worst_round,
                avg(total) AS average_total,
                coalesce(sum(target_triples), 0) AS target_triples,
                coalesce(sum(target_fours), 0) AS target_fours,
                coalesce(sum(bids_won), 0) AS bids_won,
                coalesce(sum(bids_spades), 0) AS bids_spades,
                coalesce(sum(bids_clubs), 0) AS bids_clubs,
                coalesce(sum(bids_hearts), 0) AS bids_hearts,
                coalesce(sum(bids_diamonds), 0) AS bids_diamonds
            FROM seat_results WHERE player_id = ? AND status = 'finished'
            """,
            [player_id],
        )
    )
    played, rounds = row["played"], row["rounds"]
    row["win_rate"] = row["won"] / played if played else None
    row["average_round"] = row["points"] / rounds if rounds else None
    row["bid_rate"] = row["bids_won"] / rounds if rounds else None
    row["bids_by_suit"] = [(suit, row[column]) for suit, column in SUITS]
    row["longest_streak"] = longest_streak(player_id)
    return row


def longest_streak(player_id):
    """The most finished games in a row the player won (games in the order they started).

    The run is counted here over rows in that order: SQLite does not promise the order
    group_concat would join them in."""
    rows = get_db().query(
        "SELECT won FROM seat_results WHERE player_id = ? AND status = 'finished'"
        " ORDER BY created, game_id",
        [player_id],
    )
    longest = run = 0
    for row in rows:
        run = run + 1 if row["won"] else 0
        longest = max(longest, run)
    return longest


def recent_games(player_id, limit=CHART_GAMES):
    """The player's last finished games, oldest first: total, place and whether they won."""
    rows = list(
        get_db().query(
            """
            SELECT results.game_id, results.created, games.goal, results.total, results.rounds,
                results.place, results.won
            FROM seat_results AS results JOIN games ON games.id = results.game_id
            WHERE results.player_id = ? AND results.status = 'finished'
            ORDER BY results.created DESC, results.game_id DESC LIMIT ?
            """,
            [player_id, limit],
        )
    )
    return rows[::-1]


def game_dates(game_ids):
    """game id -> when it started, for the given games."""
    if not game_ids:
        return {}
    rows = get_db().query(f"SELECT id, created FROM games WHERE id {AMONG}", [listed(game_ids)])
    return {row["id"]: row["created"] for row in rows}


def extreme_rounds(player_id, best, worst):
    """Where the player's best and worst rounds were scored: {'best': row, 'worst': row}, each
    the most recent finished game and round with that score."""
    if best is None:
        return {}
    rows = get_db().query(
        """
        SELECT which, game_id, number, created FROM (
            SELECT 'best' AS which, rounds.game_id, rounds.number, results.created
            FROM seat_results AS results
            JOIN rounds ON rounds.game_id = results.game_id AND rounds.status = 'scored'
            JOIN hands ON hands.round_id = rounds.id AND hands.seat = results.seat
            WHERE results.player_id = :player AND results.status = 'finished'
                AND results.best_round = :best AND hands.score = :best
            ORDER BY results.created DESC, rounds.number LIMIT 1
        )
        UNION ALL
        SELECT * FROM (
            SELECT 'worst', rounds.game_id, rounds.number, results.created
            FROM seat_results AS results
            JOIN rounds ON rounds.game_id = results.game_id AND rounds.status = 'scored'
            JOIN hands ON hands.round_id = rounds.id AND hands.seat = results.seat
            WHERE results.player_id = :player AND results.status = 'finished'
                AND results.worst_round = :worst AND hands.score = :worst
            ORDER BY results.created DESC, rounds.number LIMIT 1
        )
        """,
        {"player": player_id, "best": best, "worst": worst},
    )
    return {row["which"]: row for row in rows}


def head_to_head(first_id, second_id, recent=10):
    """Two players over the finished games they both played: how many, who finished higher how
    often, their wins and average totals, and the last few of those games."""
    db = get_db()
    params = {"first": first_id, "second": second_id}
    shared = """
        FROM seat_results AS a
        JOIN seat_results AS b ON b.game_id = a.game_id AND b.player_id = :second
        WHERE a.player_id = :first AND a.status = 'finished'
    """
    row = next(
        db.query(
            f"""
            SELECT count(*) AS together,
                coalesce(sum(a.total > b.total), 0) AS first_ahead,
                coalesce(sum(a.total < b.total), 0) AS second_ahead,
                coalesce(sum(a.total = b.total), 0) AS level,
                coalesce(sum(a.won), 0) AS first_won, coalesce(sum(b.won), 0) AS second_won,
                avg(a.total) AS first_average, avg(b.total) AS second_average
            {shared}
            """,
            params,
        )
    )
    row["games"] = list(
        db.query(
            f"""
            SELECT a.game_id, a.created, a.total AS first_total, b.total AS second_total,
                a.place AS first_place, b.place AS second_place
            {shared}
            ORDER BY a.created DESC, a.game_id DESC LIMIT :recent
            """,
            {**params, "recent": recent},
        )
    )
    return row
