"""m0016: a club night's log holds facts, the web words them (issue 37).

A migration stands alone: the words the releases before it wrote are read here, as the page then
wrote them, so a later change elsewhere does not change what this step does. Each line is read in
time linear in its length and the night's players: a list of names is split at its commas, and a
line a name with a comma in it makes ambiguous keeps its words (and reads as before)."""
import json
import re

from . import migrations


@migrations()
def m0016_night_change_facts(db):
    """A night's log line keeps its facts in columns: the stage it is about, the players it names
    (`players`, their ids as a JSON list: a swap's two, the night's first players, who joined, left
    or came back), a count (players drawn, tables started, stages played) and a run's `times`. Its
    words in `detail` are dropped where the page words those facts exactly so; any other line keeps
    them, and reads as before."""
    table = db["club_night_changes"]
    table.add_column("stage", int)
    table.add_column("players", str)
    table.add_column("count", int)
    table.add_column("times", int, not_null_default=1)
    names = {}
    for night_id, player_id, name in db.execute(
            "SELECT night_id, players.id, players.name FROM club_night_players"
            " JOIN players ON players.id = club_night_players.player_id").fetchall():
        names.setdefault(night_id, {})[player_id] = name
    for change_id, night_id, action, detail in db.execute(
            "SELECT id, night_id, action, detail FROM club_night_changes WHERE detail != ''").fetchall():
        found = _facts(action, detail, names.get(night_id, {}))
        if found is not None:
            db.execute("UPDATE club_night_changes SET detail = '', stage = ?, players = ?, count = ?, times = ?"
                       " WHERE id = ?", [found["stage"], _ids(found["players"]), found["count"],
                                         found["times"], change_id])


def _ids(players):
    """The players a log line names, as the `players` column holds them (a JSON list of ids), or None."""
    return json.dumps(list(players), separators=(",", ":")) if players else None


_STAGE = r"([1-9][0-9]{0,5})"
_TIMES = r"(?: · ([1-9][0-9]{{0,8}}) {unit})?"
_PATTERNS = {
    "drawn": re.compile(rf"Stage {_STAGE} drawn for ([1-9][0-9]{{0,5}}) players{_TIMES.format(unit='draws')}"),
    "swapped": re.compile(rf"Stage {_STAGE}: (.+) swapped places{_TIMES.format(unit='swaps')}"),
    "started": re.compile(rf"Stage {_STAGE} started at ([1-9][0-9]{{0,5}}) tables?"),
    "finished": re.compile(rf"The night finished after ([0-9]{{1,6}}) stages?"
                           rf"(?: \(stage {_STAGE}, drawn but not started, dropped\))?"),
    "arrived": re.compile(r"(.+) joined"),
    "left": re.compile(rf"(.+) left{_TIMES.format(unit='changes')}"),
    "back": re.compile(rf"(.+) is back{_TIMES.format(unit='changes')}"),
    "created": re.compile(r"([1-9][0-9]{0,5}) players: (.+)"),
}


def _facts(action, detail, names):
    """The facts an old line's words say, as {stage, players, count, times}, when the page words
    those facts exactly as `detail`; else None. `names`: the night's players, id -> name."""
    found = _PATTERNS.get(action) and _PATTERNS[action].fullmatch(detail or "")
    if not found:
        return None
    by_name = {}
    for player_id, name in names.items():
        by_name.setdefault(name, player_id)
    read = _read(action, found, by_name)
    if read is None or _words(action, {**read, "names": [names[p] for p in read["players"]]}) != detail:
        return None
    return read


def _read(action, found, by_name):
    read = {"stage": None, "players": [], "count": None, "times": 1}
    group = found.group
    if action in ("drawn", "started"):
        read.update(stage=int(group(1)), count=int(group(2)))
    if action == "drawn":
        read["times"] = int(group(3) or 1)
    elif action == "finished":
        read.update(count=int(group(1)), stage=int(group(2)) if group(2) else None)
    elif action == "swapped":
        read.update(stage=int(group(1)), times=int(group(3) or 1), players=_pair(group(2), by_name))
    elif action in ("arrived", "left", "back"):
        read["players"] = [by_name[group(1)]] if group(1) in by_name else None
        read["times"] = int(group(2) or 1) if action != "arrived" else 1
    elif action == "created":
        read["players"] = _listed(group(2), by_name, int(group(1)))
    return None if read["players"] is None else read


def _pair(text, by_name):
    """Two players' ids from "Ann and Ben" (names may hold " and "), or None."""
    for name, player_id in by_name.items():
        other = text[len(name) + 5:] if text.startswith(name + " and ") else None
        if other in by_name and by_name[other] != player_id:
            return [player_id, by_name[other]]
    return None


def _listed(text, by_name, count):
    """The ids of `count` different players named "Ann, Ben, Cy", or None (a name holding ", "
    too: such a line keeps its words)."""
    parts = text.split(", ")
    found = [by_name.get(part) for part in parts]
    if len(parts) != count or None in found or len(set(found)) != count:
        return None
    return found


def _words(action, change):
    """A line's words from its facts, as the page wrote them when this migration was made."""
    names, stage, count, times = change["names"], change["stage"], change["count"], change["times"]
    said = {
        "created": lambda: f"{len(names)} players: {', '.join(names)}",
        "drawn": lambda: f"Stage {stage} drawn for {count} players",
        "swapped": lambda: f"Stage {stage}: {' and '.join(names)} swapped places",
        "started": lambda: f"Stage {stage} started at {count} table{'' if count == 1 else 's'}",
        "finished": lambda: f"The night finished after {count} stage{'' if count == 1 else 's'}"
                            + (f" (stage {stage}, drawn but not started, dropped)" if stage else ""),
        "arrived": lambda: f"{names[0]} joined",
        "left": lambda: f"{names[0]} left",
        "back": lambda: f"{names[0]} is back",
    }[action]()
    unit = {"drawn": "draws", "swapped": "swaps", "left": "changes", "back": "changes"}.get(action)
    return f"{said} · {times} {unit}" if unit and times > 1 else said
