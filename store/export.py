"""A crew's history out: CSV for spreadsheets (one row per player per round) and JSON with
everything that was entered, for a restore.

The JSON holds the crew's name and house rules, its players, every game with its seats and rules,
every revision of every round (corrections, undone rounds and drafts included) with its hands,
change log and sign-offs, and the notes. It holds no ids and no crew link: games are numbered in
the order they started, players are named. Cached values (hand scores, target bonuses, who won)
are written out for readers; a restore recomputes them with the rule engine.
"""
import csv
import datetime
import io
import json
import re

from scoring import SUIT_NAMES

from . import club_night_transfer, columns, get_db, season_transfer
from .lists import AMONG, listed
from .rounds import hand_from_row

FORMAT = "orchard-crew-export"
VERSION = 1
CSV_COLUMNS = [
    "game_id", "game_date", "game_started", "goal", "game_status", "round", "player", "seat",
    "dealer", "bid_winner", "bid", "trump", "target", "mode", "won_cards_or_counts",
    "target_bonus", "score", "running_total", "winner",
]



def csv_rows(crew_id, game_id=None):
    """One row per player per counted round, oldest game first, as CSV_COLUMNS values."""
    rows = get_db().query(
        f"""
        SELECT games.id AS game_id, games.created, games.goal, games.status, rounds.number,
            players.name AS player, hands.seat, dealer.name AS dealer, bidder.name AS bid_winner,
            rounds.bid_number, rounds.bid_suit, coalesce(hands.mode, rounds.mode) AS mode, hands.target, hands.won, hands.counts,
            hands.target_bonus, hands.score,
            sum(hands.score) OVER (PARTITION BY games.id, hands.seat ORDER BY rounds.number)
                AS running_total,
            games.status = 'finished' AND seats.won AS winner
        FROM games
        JOIN rounds ON rounds.game_id = games.id AND rounds.status = 'scored'
        JOIN hands ON hands.round_id = rounds.id
        JOIN seats ON seats.game_id = games.id AND seats.seat = hands.seat
        JOIN players ON players.id = seats.player_id
        JOIN seats AS dealer_seat ON dealer_seat.game_id = games.id AND dealer_seat.seat = rounds.dealer
        JOIN players AS dealer ON dealer.id = dealer_seat.player_id
        LEFT JOIN seats AS bid_seat ON bid_seat.game_id = games.id AND bid_seat.seat = rounds.bid_seat
        LEFT JOIN players AS bidder ON bidder.id = bid_seat.player_id
        WHERE games.crew_id = :crew {"AND games.id = :game" if game_id else ""}
        ORDER BY games.created, games.id, rounds.number, hands.seat
        """,
        {"crew": crew_id, "game": game_id},
    )
    for row in rows:
        started = datetime.datetime.fromisoformat(row["created"])
        yield [
            row["game_id"], started.astimezone().date().isoformat(), row["created"], row["goal"],
            row["status"], row["number"], row["player"], row["seat"] + 1, row["dealer"],
            row["bid_winner"] or "", row["bid_number"] or "", SUIT_NAMES.get(row["bid_suit"], ""),
            row["target"] or "", row["mode"], _won_text(row), row["target_bonus"] or 0,
            row["score"], row["running_total"], "yes" if row["winner"] else "no",
        ]


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def _csv_cell(value):
    """A value as a spreadsheet should read it: text that could start a formula gets a leading
    apostrophe, so it stays text; numbers (negative scores too) stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def _won_text(row):
    """Exact mode: the won cards; quick mode: each counted rank as often as it was won."""
    hand = hand_from_row(row)
    if hand["mode"] == "exact":
        return " ".join(hand["won"])
    return " ".join(rank for rank, n in hand["counts"].items() for _ in range(n))


def csv_chunks(crew_id, game_id=None):
    """The CSV text in pieces, header first (with a byte-order mark, so spreadsheets read UTF-8)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    yield "\ufeff" + buffer.getvalue()
    for index, row in enumerate(csv_rows(crew_id, game_id)):
        if index % 500 == 0:
            buffer.seek(0)
            buffer.truncate()
        writer.writerow([_csv_cell(value) for value in row])
        if index % 500 == 499:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    if buffer.tell():
        yield buffer.getvalue()



def export(crew_id, game_id=None):
    """The crew's whole history (or one game of it) as plain values ready for JSON."""
    db = get_db()
    crew = next(db.query("SELECT * FROM crews WHERE id = ?", [crew_id]))
    games = list(
        db.query(
            "SELECT * FROM games WHERE crew_id = ? ORDER BY created, id", [crew_id]
        )
    )
    numbers = {game["id"]: n for n, game in enumerate(games, start=1)}
    if game_id is not None:
        games = [game for game in games if game["id"] == game_id]
    ids = [game["id"] for game in games]
    seats = _grouped(db, "SELECT seats.game_id, seats.seat, seats.won, players.name FROM seats"
                     " JOIN players ON players.id = seats.player_id WHERE seats.game_id {among}"
                     " ORDER BY seats.game_id, seats.seat", ids, "game_id")
    # A round being entered is left out until it is saved: its hands may be private to the
    # phones entering them (services/phones.py).
    rounds = _grouped(db, "SELECT * FROM rounds WHERE game_id {among} AND status != 'entering'"
                      " ORDER BY game_id, number, revision", ids, "game_id")
    round_ids = [row["id"] for group in rounds.values() for row in group]
    hands = _grouped(db, "SELECT * FROM hands WHERE round_id {among} ORDER BY round_id, seat",
                     round_ids, "round_id")
    changes = _grouped(db, "SELECT * FROM round_changes WHERE round_id {among} ORDER BY id",
                       round_ids, "round_id")
    signoffs = _grouped(db, "SELECT * FROM signoffs WHERE round_id {among} ORDER BY round_id, seat",
                        round_ids, "round_id")
    notes = {(row["kind"], row["game_id"]): row["text"]
             for row in db.query("SELECT * FROM notes WHERE crew_id = ?", [crew_id])}
    seated = {row["name"] for group in seats.values() for row in group}
    players = [
        {"name": row["name"], "created": row["created"]}
        for row in db.query("SELECT * FROM players WHERE crew_id = ? ORDER BY id", [crew_id])
        if game_id is None or row["name"] in seated
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "crew": {"name": crew["name"], "created": crew["created"], "rules": json.loads(crew["rules"])},
        "players": players,
        "games": [
            {
                "number": numbers[game["id"]],
                "created": game["created"],
                "finished": game["finished"],
                "status": game["status"],
                "winner_seats": [row["seat"] for row in seats.get(game["id"], []) if row["won"]],
                "rules": json.loads(game["rules"]),
                "first_dealer": game["first_dealer"],
                # A one-game export leaves out the game it was a rematch of.
                "rematch_of": numbers.get(game["rematch_of"]) if game["rematch_of"] in ids else None,
                "seats": [row["name"] for row in seats.get(game["id"], [])],
                "note": notes.get(("game", game["id"])),
                "night_note": notes.get(("night", game["id"])),
                "rounds": [_round_out(row, hands, changes, signoffs) for row in rounds.get(game["id"], [])],
            }
            for game in games
        ],
    } | _club_nights(db, crew_id, game_id, numbers)


def _club_nights(db, crew_id, game_id, numbers):
    """The crew's club nights, in a whole crew's export that has any (an export without is as
    it was before club nights)."""
    nights = [] if game_id is not None else club_night_transfer.export(db, crew_id, numbers)
    seasons = [] if game_id is not None else season_transfer.export(db, crew_id, numbers)
    return ({"club_nights": nights} if nights else {}) | ({"seasons": seasons} if seasons else {})


def _grouped(db, sql, ids, key):
    """Rows for the given ids, grouped by `key` (one query, however many ids)."""
    if not ids:
        return {}
    found = {}
    for row in db.query(sql.format(among=AMONG), [listed(ids)]):
        found.setdefault(row[key], []).append(row)
    return found


def _hand_out(hand):
    return {key: hand[key] for key in columns.HAND_FILE}  # a hand is inside its round


def _round_out(row, hands, changes, signoffs):
    return {
        # Its columns as `columns` declares them; one added later is written only when it has a value.
        **{key: row[key] for key, kind in columns.ROUND_FILE.items()
           if not (columns.later(kind) and row[key] is None)},
        "bid": None if row["bid_number"] is None else
        {"seat": row["bid_seat"], "number": row["bid_number"], "suit": row["bid_suit"]},
        "hands": [_hand_out(hand_from_row(hand, row["mode"])) for hand in hands.get(row["id"], [])],
        "changes": [
            {"at": change["at"], "action": change["action"], "detail": change["detail"], "by": change["by"],
             **({"times": change["times"]} if change["times"] > 1 else {})}  # a run of the step, counted
            for change in changes.get(row["id"], [])
        ],
        "signoffs": [
            {"seat": mark["seat"], "device": mark["device"], "at": mark["at"]}
            for mark in signoffs.get(row["id"], [])
        ],
    }
