"""A restore's club nights, checked against the file's players and games and written into the
staging file (in the restore's child process; `club_night_transfer` has the tables and the copy).
A night is accepted only as live entry could have left it: each stage seated as a draw seats
(full tables of four numbered from 1, only the left-over players sitting out), only the last stage
still planned (and naming no game), a started stage's tables each naming a game that seats the
players placed there, and a stage drawn only once the stage before it was over."""
import json

from scoring import PLAYERS, club_night
from scoring import names as name_rule

from .club_nights import ids
from .export_format import RestoreError

def stage(conn, nights, game_ids, player_ids, games=None, seasons=0):
    """Check the nights against the file's players and games and write them into the staging file
    (`game_ids`: game number -> staged id; `player_ids`: name key -> staged id; `games`: game
    number -> the checked game, its seats and status; `seasons`: how many seasons the file holds)."""
    games = games or {}
    used_games = set()
    for night_id, night in enumerate(nights, start=1):
        where = f"The club night {night['name']}"
        try:
            club_night.check_format(night["format"], night["stage_hands"], night["ranking"])
        except club_night.NightError as error:
            raise RestoreError(f"{where}: {error}.") from None
        _need(night["format"] == "hands" or night["stage_hands"] is None,
              f"{where} is one game a table, so it has no number of hands a stage.")
        players = {}
        for player in night["players"]:
            key = name_rule.key(player["name"])
            _need(key in player_ids, f"{where} lists a player the file does not.")
            _need(key not in players, f"{where} lists {player['name']} twice.")
            players[key] = player_ids[key]
        seating = night.get("seating", "mixed")
        _need(seating == "standing" or "season" not in night, f"{where} names a season but is not seated by standing.")
        _need(night.get("season", 1) <= seasons or "season" not in night, f"{where} names a season the file does not hold.")
        conn.execute("INSERT INTO nights VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     [night_id, night["name"], night["created"], night["format"], night["stage_hands"],
                      night["ranking"], night["seed"], seating, night.get("season")])
        conn.executemany("INSERT INTO night_players VALUES (?, ?, ?, ?)",
                         [(night_id, players[name_rule.key(p["name"])], int(p["here"]), p["joined"])
                          for p in night["players"]])
        unfinished = []
        for number, entry in enumerate(night["stages"], start=1):
            here = f"{where}, stage {number}"
            _need(entry["number"] == number, f"{where} has its stages out of order.")
            _need(not unfinished, f"{here} was drawn while table {unfinished[0] if unfinished else ''} of the stage "
                  "before still played; live entry draws a stage once every table's game is over.")
            planned = entry["status"] == "planned"
            _need(not planned or number == len(night["stages"]), f"{here} was never started, yet a stage follows it.")
            _need(planned == (entry["started"] is None), f"{here} has no proper started.")
            _need(seating == "standing" or "made" not in entry, f"{here} says its tables were made by standing, "
                  "but the night mixes its tables.")
            seated = _stage_places(conn, night_id, entry, players, here)
            _need(not planned or not entry["tables"], f"{here} is only drawn, yet names a table's game.")
            _need(planned or sorted(table["table"] for table in entry["tables"]) == sorted(seated),
                  f"{here}: its tables' games are not one for each table it seats.")
            for table in entry["tables"]:
                _need(table["game"] in game_ids and table["game"] not in used_games,
                      f"{here}: a table names a game that is not in the file, or one twice.")
                used_games.add(table["game"])
                game = games.get(table["game"])
                if game is not None:
                    _need(sorted(map(name_rule.key, game["seats"])) == sorted(seated[table["table"]]),
                          f"{here}: table {table['table']}'s game seats other players than the stage placed there.")
                    if game["status"] == "playing":
                        unfinished.append(table["table"])
                conn.execute("INSERT INTO night_tables VALUES (?, ?, ?, ?)",
                             [night_id, number, table["table"], game_ids[table["game"]]])
        conn.executemany("INSERT INTO night_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         [(night_id, *_change(change, player_ids, where)) for change in night["changes"]])


def _stage_places(conn, night_id, entry, players, where):
    """Stage the places after checking them; returns each table's players (name keys) by number."""
    made = entry.get("made")
    conn.execute("INSERT INTO night_stages VALUES (?, ?, ?, ?, ?, ?, ?)",
                 [night_id, entry["number"], entry["status"], entry["drawn"], entry["started"],
                  None if made is None else json.dumps(made), entry.get("ends_at")])
    seen, seats, tables, out = set(), set(), {}, []
    for place in entry["places"]:
        key = name_rule.key(place["player"])
        _need(key in players and key not in seen, f"{where} places a player who is not on the night's list, or twice.")
        _need((place["table"] is None) == (place["seat"] is None), f"{where} has a place without its table or seat.")
        _need(place["table"] is None or (place["table"], place["seat"]) not in seats, f"{where} seats two in one seat.")
        seen.add(key)
        seats.add((place["table"], place["seat"]))
        if place["table"] is None:
            out.append(key)
        else:
            tables.setdefault(place["table"], {})[place["seat"]] = key
        conn.execute("INSERT INTO night_places VALUES (?, ?, ?, ?, ?)",
                     [night_id, entry["number"], players[key], place["table"], place["seat"]])
    _need(sorted(tables) == list(range(1, len(tables) + 1)), f"{where}: its tables are not numbered 1, 2, 3 …")
    _need(made is None or len(made["tables"]) == len(tables), f"{where} says how more or fewer tables were made than it has.")
    seating = club_night.Seating(tuple(tuple(tables[n].get(seat) for seat in range(PLAYERS))
                                       for n in sorted(tables)), tuple(out))
    try:
        club_night.check_seating(seating, [*seen])
        _need(all(len(table) == PLAYERS for table in tables.values()), "")
    except (club_night.NightError, RestoreError):
        raise RestoreError(f"{where} is not seated as a draw seats: full tables of four, and only the players "
                           "left over sitting out.") from None
    return {number: sorted(table.values()) for number, table in tables.items()}


def _need(condition, message):
    if not condition:
        raise RestoreError(message)


def _change(change, players, where):
    """A log line as staged: (at, action, detail, stage, players, count, times), its players the
    staged ids. A line of a file from before m0016 has only its words: they are kept as they are
    (they were written to be read), and the page shows them so."""
    keys = [name_rule.key(name) for name in change.get("players", [])]
    # Any player of the crew: a check-in at the door undone takes its player off the night's list,
    # and the log still says it happened.
    _need(all(key in players for key in keys), f"{where}'s log names a player the file does not list.")
    return (change["at"], change["action"], change["detail"], change.get("stage"),
            ids(players[key] for key in keys), change.get("count"), change.get("times", 1))
