"""The words releases before m0016 stored in a club night's log (`club_night_changes.detail`), read
back as the facts the log holds now (`club_nights.log`): a stage, the players a line names (ids, their
names read from `players` when shown), a count and a run's `times`. A database's migration
(`store/migrations/m0016_night_change_facts.py`) and the restore of an older export
(`club_night_restore`) both read them here. A line's words are dropped only when the page words its
facts exactly so (`web/club_night_changes.py`, which `words` mirrors); any other is kept, and shown
as it is."""
import re

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


def facts(action, detail, names):
    """The facts an old line's words say, as {stage, players, count, times}, when the page words
    those facts exactly as `detail`; else None. `names`: the night's players, id -> name."""
    found = _PATTERNS.get(action) and _PATTERNS[action].fullmatch(detail or "")
    if not found:
        return None
    by_name = {}
    for player_id, name in names.items():
        by_name.setdefault(name, player_id)
    read = _read(action, found, by_name)
    if read is None or words(action, {**read, "names": [names[p] for p in read["players"]]}) != detail:
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
    """The ids of `count` different players named "Ann, Ben, Cy" (names may hold ", "), or None."""
    def walk(rest, taken):
        if len(taken) == count:
            return taken if not rest else None
        for name, player_id in by_name.items():
            if player_id not in taken and (rest == name or rest.startswith(name + ", ")):
                found = walk(rest[len(name) + 2:], taken + [player_id])
                if found:
                    return found
        return None
    return walk(text, []) if count <= len(by_name) else None


def words(action, change):
    """A line's words from its facts: the same as `web/club_night_changes.py` writes them (the
    tests hold the two together), to see whether old words say exactly that."""
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
