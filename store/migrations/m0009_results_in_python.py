"""m0009: Derived data without triggers: `seat_results` is worked out in Python once per game at the"""
from . import migrations


@migrations(transactional=False)
def m0009_results_in_python(db):
    """Derived data without triggers: `seat_results` is worked out in Python once per game at the
    end of each write that changes it (store/results.py), and marks the crew's ratings stale
    there too; who won is a flag on each seat instead of a comma-separated list on the game; the
    status and mode columns refuse values the app does not know.

    Adding a CHECK constraint means building the table again, which SQLite allows only with
    foreign keys off, and that pragma cannot change inside a transaction: so this migration runs
    its own transaction, checks the keys itself before it commits, and does nothing when an
    earlier run committed but was cut off before it was recorded."""
    if "winner_seats" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}:
        return
    if db.conn.in_transaction:
        db.conn.commit()
    db.execute("PRAGMA foreign_keys = OFF")
    try:
        db.execute("BEGIN IMMEDIATE")
        for name in ("seat_results_round_added", "seat_results_round_changed", "seat_results_round_removed",
                     "seat_results_hand_added", "seat_results_hand_scored", "seat_results_seat_changed",
                     "seat_results_game_changed", "ratings_stale_result_added",
                     "ratings_stale_result_removed", "ratings_stale_result_changed"):
            db.execute(f"DROP TRIGGER IF EXISTS {name}")

        db.execute("ALTER TABLE seats ADD COLUMN won INTEGER NOT NULL DEFAULT 0")
        db.execute("UPDATE seats SET won = 1 WHERE EXISTS (SELECT 1 FROM games WHERE games.id = seats.game_id"
                   " AND instr(',' || games.winner_seats || ',', ',' || seats.seat || ',') > 0)")
        # A game an earlier version's restore was writing when the process died belongs to a crew
        # with no link, which store/restore.py removes; until then it counts as abandoned.
        db.execute("UPDATE games SET status = 'abandoned' WHERE status = 'restoring'")

        columns = {
            "games": """
                id INTEGER PRIMARY KEY,
                crew_id INTEGER NOT NULL REFERENCES crews(id),
                created TEXT NOT NULL,
                finished TEXT,
                goal INTEGER NOT NULL,
                first_dealer INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
                rematch_of INTEGER REFERENCES games(id),
                tie_rule TEXT NOT NULL DEFAULT 'play-on',
                min_bid INTEGER NOT NULL DEFAULT 1,
                redeal_moves_deal INTEGER NOT NULL DEFAULT 0,
                version INTEGER NOT NULL DEFAULT 1""",
            "rounds": """
                id INTEGER PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES games(id),
                number INTEGER NOT NULL,
                revision INTEGER NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('entering', 'scored', 'replaced', 'deleted', 'discarded')),
                mode TEXT NOT NULL CHECK (mode IN ('quick', 'exact')),
                dealer INTEGER NOT NULL,
                redeals INTEGER DEFAULT 0,
                bid_seat INTEGER,
                bid_number INTEGER,
                bid_suit TEXT,
                version INTEGER NOT NULL DEFAULT 1,
                created TEXT,
                updated TEXT""",
            "hands": """
                round_id INTEGER REFERENCES rounds(id),
                seat INTEGER,
                target TEXT,
                won TEXT,
                counts TEXT,
                score INTEGER,
                entered_by TEXT,
                done TEXT,
                target_bonus INTEGER,
                mode TEXT CHECK (mode IS NULL OR mode IN ('quick', 'exact')),
                version INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (round_id, seat)""",
        }
        for table, definition in columns.items():
            names = ", ".join(line.split()[0] for line in definition.strip().splitlines()
                              if line.split()[0].islower())
            db.execute(f"CREATE TABLE {table}_checked ({definition})")
            db.execute(f"INSERT INTO {table}_checked ({names}) SELECT {names} FROM {table}")
            db.execute(f"DROP TABLE {table}")
            db.execute(f"ALTER TABLE {table}_checked RENAME TO {table}")
        db.execute("CREATE INDEX idx_games_crew_id_created ON games (crew_id, created)")
        db.execute("CREATE UNIQUE INDEX idx_rounds_game_id_number_revision ON rounds (game_id, number, revision)")
        db.execute("CREATE UNIQUE INDEX idx_rounds_scored ON rounds (game_id, number) WHERE status = 'scored'")
        db.execute("CREATE UNIQUE INDEX idx_rounds_entering ON rounds (game_id, number) WHERE status = 'entering'")

        # Every game's results worked out once more, as store/results.py does it from now on.
        db.execute("DELETE FROM seat_results")
        db.execute("""
            INSERT INTO seat_results (game_id, seat, player_id, created, status, won, total, rounds,
                best_round, worst_round, target_triples, target_fours, bids_won, bids_diamonds,
                bids_hearts, bids_clubs, bids_spades, place)
            SELECT games.id, seats.seat, seats.player_id, games.created, games.status,
                games.status = 'finished' AND seats.won, sums.total, sums.hands, sums.best, sums.worst,
                sums.triples, sums.fours, sums.bids, sums.d, sums.h, sums.c, sums.s,
                rank() OVER (PARTITION BY games.id ORDER BY sums.total DESC)
            FROM (
                SELECT rounds.game_id, hands.seat, coalesce(sum(hands.score), 0) AS total,
                    count(*) AS hands, max(hands.score) AS best, min(hands.score) AS worst,
                    coalesce(sum(hands.target_bonus = 3), 0) AS triples,
                    coalesce(sum(hands.target_bonus = 4), 0) AS fours,
                    coalesce(sum(rounds.bid_seat = hands.seat), 0) AS bids,
                    coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'D'), 0) AS d,
                    coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'H'), 0) AS h,
                    coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'C'), 0) AS c,
                    coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'S'), 0) AS s
                FROM rounds JOIN hands ON hands.round_id = rounds.id
                WHERE rounds.status = 'scored' GROUP BY rounds.game_id, hands.seat
            ) AS sums
            JOIN seats ON seats.game_id = sums.game_id AND seats.seat = sums.seat
            JOIN games ON games.id = sums.game_id
        """)
        db.execute("DELETE FROM rating_state")  # rebuilt on the next read
        broken = db.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"m0009: rows point at rows that do not exist: {broken[:5]}")
        db.conn.commit()
    except BaseException:
        db.conn.rollback()
        raise
    finally:
        db.execute("PRAGMA foreign_keys = ON")
    db.execute("VACUUM")  # the pages of the tables built again go back to the file system
