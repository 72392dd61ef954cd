"""`seat_results`: one row per player per game with saved rounds, the cache the stats, the
history, the records and the ratings read.

It is worked out here and only here, in Python, from the game's saved rounds: once per game, at
the end of each write that changes what it is made of (a round saved, corrected, undone or
brought back, a game's verdict, an abandon or a resume, two players merged, a restore). No
trigger keeps it: a save reads the game once and, when its results changed, replaces its rows.
A change to a finished game's results also marks the crew's ratings stale (store/ratings.py).
"""
from .lists import AMONG, listed

COLUMNS = ("game_id", "seat", "player_id", "created", "status", "won", "total", "rounds",
           "best_round", "worst_round", "target_triples", "target_fours", "bids_won",
           "bids_diamonds", "bids_hearts", "bids_clubs", "bids_spades", "place")
BID_SUITS = ("D", "H", "C", "S")  # the order of the bids_* columns
INSERT = f"INSERT INTO seat_results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"


def seat_rows(game_id, created, status, seats, rounds):
    """A game's `seat_results` rows, as tuples in COLUMNS order (pure: no SQL).

    seats: seat -> (player id, whether the engine named the seat a winner); rounds: the game's
    saved rounds, each (bid seat, bid suit, hands), hands: seat -> (score, target bonus). A seat
    gets a row once it has a hand in a saved round; equal totals share a place."""
    empty = {seat: {"scores": [], "hands": 0, 3: 0, 4: 0, "bids": 0, **{suit: 0 for suit in BID_SUITS}}
             for seat in seats}
    for bid_seat, bid_suit, hands in rounds:
        for seat, (score, bonus) in hands.items():
            found = empty.get(seat)
            if found is None:
                continue
            found["hands"] += 1
            if score is not None:
                found["scores"].append(score)
            if bonus in (3, 4):
                found[bonus] += 1
            if bid_seat == seat:
                found["bids"] += 1
                if bid_suit in BID_SUITS:
                    found[bid_suit] += 1
    sums = {seat: found for seat, found in empty.items() if found["hands"]}
    totals = {seat: sum(found["scores"]) for seat, found in sums.items()}
    rows = []
    for seat in sorted(sums):
        found, (player_id, won) = sums[seat], seats[seat]
        scores = found["scores"]
        rows.append((
            game_id, seat, player_id, created, status, int(status == "finished" and bool(won)),
            totals[seat], found["hands"], max(scores, default=None), min(scores, default=None),
            found[3], found[4], found["bids"], *(found[suit] for suit in BID_SUITS),
            1 + sum(1 for total in totals.values() if total > totals[seat]),
        ))
    return rows


def refresh_game_results(db, game_id, saved=None):
    """Work out one game's `seat_results` again (inside the caller's write transaction);
    `saved`: its saved rounds as `rounds.scored` read them in this transaction, when the caller
    has them already (they are not read again)."""
    refresh_results(db, [game_id], None if saved is None else {game_id: saved})


def refresh_results(db, game_ids, saved=None):
    """Work out these games' `seat_results` again, reading each table once for all of them;
    rows are replaced only for games whose results changed. `saved`: game id -> its saved
    rounds, for games whose rounds the caller has read already."""
    conn = getattr(db, "conn", db)
    saved = saved or {}
    ids, among = listed(sorted(set(game_ids))), AMONG
    games = conn.execute(f"SELECT id, crew_id, created, status FROM games WHERE id {among}", [ids]).fetchall()
    seats, stored = {}, {}
    rounds = {game_id: {row["id"]: (row["bid_seat"], row["bid_suit"],
                                    dict(enumerate(zip(row["scores"], row["bonuses"]))))
                        for row in rows}
              for game_id, rows in saved.items()}
    for game_id, seat, player_id, won in conn.execute(
            f"SELECT game_id, seat, player_id, won FROM seats WHERE game_id {among}", [ids]):
        seats.setdefault(game_id, {})[seat] = (player_id, won)
    unread = set(game_ids) - set(saved)
    if unread:
        for game_id, round_id, bid_seat, bid_suit, seat, score, bonus in conn.execute(
                "SELECT rounds.game_id, rounds.id, rounds.bid_seat, rounds.bid_suit, hands.seat, hands.score,"
                " hands.target_bonus FROM rounds JOIN hands ON hands.round_id = rounds.id"
                f" WHERE rounds.game_id {among} AND rounds.status = 'scored'", [listed(sorted(unread))]):
            rounds.setdefault(game_id, {}).setdefault(round_id, (bid_seat, bid_suit, {}))[2][seat] = (score, bonus)
    for row in conn.execute(
            f"SELECT {', '.join(COLUMNS)} FROM seat_results WHERE game_id {among} ORDER BY game_id, seat", [ids]):
        stored.setdefault(row[0], []).append(tuple(row))
    stale_crews = set()
    for game_id, crew_id, created, status in games:
        rows = seat_rows(game_id, created, status, seats.get(game_id, {}),
                         rounds.get(game_id, {}).values())
        before = stored.get(game_id, [])
        if rows == before:
            continue
        conn.execute("DELETE FROM seat_results WHERE game_id = ?", [game_id])
        conn.executemany(INSERT, rows)
        if any(row[COLUMNS.index("status")] == "finished" for row in before + rows):
            stale_crews.add(crew_id)
    for crew_id in stale_crews:
        conn.execute("DELETE FROM rating_state WHERE crew_id = ?", [crew_id])
