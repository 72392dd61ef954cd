"""A restore's seasons, checked against the file's games and club nights and written into the
staging file (`season_transfer` has the tables and the copy): a season's name, days and rule as
the form would take them, each event it leaves out one the file holds, once, with a reason."""
import datetime
import json

from scoring import names as name_rule
from scoring import notes as note_rule
from scoring.season import SeasonError, SeasonRule, check_days

from .export_format import RestoreError


def stage(conn, seasons, game_ids, nights):
    """Check the seasons against the file's games (`game_ids`: number -> staged id) and its count of
    club nights, and write them into the staging file."""
    for season_id, season in enumerate(seasons, start=1):
        where = f"The season {str(season['name'])[:40]}"
        _need(not name_rule.problem(name_rule.clean(season["name"])), "A season has no proper name.")
        try:
            first = datetime.date.fromisoformat(season["first_day"])
            last = season["last_day"] and datetime.date.fromisoformat(season["last_day"])
            check_days(first, last)
            SeasonRule(best=season["best"], minimum=season["minimum"])
        except (ValueError, TypeError) as error:  # SeasonError is a ValueError
            raise RestoreError(f"{where}: {error if isinstance(error, SeasonError) else 'its days are not dates.'}") from None
        conn.execute("INSERT INTO seasons VALUES (?, ?, ?, ?, ?, ?, ?)",
                     [season_id, name_rule.clean(season["name"]), season["created"], first.isoformat(),
                      last and last.isoformat(), season["best"], season["minimum"]])
        seen = set()
        for out in season["left_out"]:
            game, night = out.get("game"), out.get("night")
            _need((game is None) != (night is None), f"{where} leaves out an event that is neither a game nor a night.")
            _need(game is None or game in game_ids, f"{where} leaves out a game the file does not hold.")
            _need(night is None or 1 <= night <= nights, f"{where} leaves out a club night the file does not hold.")
            _need((game, night) not in seen, f"{where} leaves one event out twice.")
            _need(bool(out["reason"]) and not note_rule.problem(out["reason"]), f"{where} leaves an event out without a proper reason.")
            seen.add((game, night))
            conn.execute("INSERT INTO season_left_out VALUES (?, ?, ?, ?, ?)",
                         [season_id, game_ids.get(game), night, out["reason"], out["at"]])
        for change in season["changes"]:  # each line as the live log writes it, so every page of it draws
            _need((change["action"] == "rule") == (change["before"] is not None and change["after"] is not None),
                  f"{where}'s log has a line whose standings before and after do not go with it.")
            _need((change["action"] == "opened") == (change["detail"] is None), f"{where}'s log has a line without its words.")
        conn.executemany("INSERT INTO season_changes VALUES (?, ?, ?, ?, ?, ?)",
                         [(season_id, change["at"], change["action"], change["detail"],
                           None if change["before"] is None else json.dumps(change["before"]),
                           None if change["after"] is None else json.dumps(change["after"]))
                          for change in season["changes"]])


def _need(condition, message):
    if not condition:
        raise RestoreError(message)
