"""A restore's club nights, checked against the file's players and games and written into the
staging file (in the restore's child process; `club_night_transfer` has the tables and the copy)."""
from scoring import club_night
from scoring import names as name_rule

from .export_format import RestoreError


def stage(conn, nights, game_ids, player_ids):
    """Check the nights against the file's players and games and write them into the staging file
    (`game_ids`: game number -> staged id; `player_ids`: name key -> staged id)."""
    used_games = set()
    for night_id, night in enumerate(nights, start=1):
        where = f"The club night {night['name']}"
        try:
            club_night.check_format(night["format"], night["stage_hands"], night["ranking"])
        except club_night.NightError as error:
            raise RestoreError(f"{where}: {error}.") from None
        players = {}
        for player in night["players"]:
            key = name_rule.key(player["name"])
            _need(key in player_ids, f"{where} lists a player the file does not.")
            _need(key not in players, f"{where} lists {player['name']} twice.")
            players[key] = player_ids[key]
        conn.execute("INSERT INTO nights VALUES (?, ?, ?, ?, ?, ?, ?)",
                     [night_id, night["name"], night["created"], night["format"], night["stage_hands"],
                      night["ranking"], night["seed"]])
        conn.executemany("INSERT INTO night_players VALUES (?, ?, ?, ?)",
                         [(night_id, players[name_rule.key(p["name"])], int(p["here"]), p["joined"])
                          for p in night["players"]])
        for number, entry in enumerate(night["stages"], start=1):
            _need(entry["number"] == number, f"{where} has its stages out of order.")
            _stage_places(conn, night_id, entry, players, f"{where}, stage {number}")
            for table in entry["tables"]:
                _need(table["game"] in game_ids and table["game"] not in used_games,
                      f"{where}, stage {number}: a table names a game that is not in the file, or one twice.")
                used_games.add(table["game"])
                conn.execute("INSERT INTO night_tables VALUES (?, ?, ?, ?)",
                             [night_id, number, table["table"], game_ids[table["game"]]])
        conn.executemany("INSERT INTO night_changes VALUES (?, ?, ?, ?)",
                         [(night_id, c["at"], c["action"], c["detail"]) for c in night["changes"]])


def _stage_places(conn, night_id, entry, players, where):
    conn.execute("INSERT INTO night_stages VALUES (?, ?, ?, ?, ?)",
                 [night_id, entry["number"], entry["status"], entry["drawn"], entry["started"]])
    seen, seats = set(), set()
    for place in entry["places"]:
        key = name_rule.key(place["player"])
        _need(key in players and key not in seen, f"{where} places a player who is not on the night's list, or twice.")
        _need((place["table"] is None) == (place["seat"] is None), f"{where} has a place without its table or seat.")
        _need(place["table"] is None or (place["table"], place["seat"]) not in seats, f"{where} seats two in one seat.")
        seen.add(key)
        seats.add((place["table"], place["seat"]))
        conn.execute("INSERT INTO night_places VALUES (?, ?, ?, ?, ?)",
                     [night_id, entry["number"], players[key], place["table"], place["seat"]])


def _need(condition, message):
    if not condition:
        raise RestoreError(message)
