"""Seasons: opening one, its standings (the engine's, from the crew's finished games and club
nights between its days, worked out on every read), its rule changed (logged with the standings
before and after), and an event left out by hand or counted again (logged with its reason)."""
import dataclasses
import datetime
from dataclasses import dataclass

from scoring import names as name_rule
from scoring import notes as note_rule
from scoring.season import MAX_SEASONS, Event, SeasonError, SeasonRule, check_days, percent, standings
from store import seasons as season_store
from store import write
from store.history import local_start

from . import club_nights as night_service
from .refusals import Refused


@dataclass(frozen=True)
class Standings:
    season: dict
    rule: SeasonRule
    lines: list  # the engine's Lines, ranked first
    names: dict  # player id -> name
    events: list  # the engine's Events, oldest first (left out ones too)
    closed: bool  # its last day is past
    changed_after_close: datetime.date | None  # the last day an event changed after the season closed


def rule_of(season):
    return SeasonRule(best=season["best"], minimum=season["minimum"])


def days_of(season):
    first = datetime.date.fromisoformat(season["first_day"])
    return first, season["last_day"] and datetime.date.fromisoformat(season["last_day"])


def open_season(crew_id, name, first_day, last_day, rule):
    """A new season of the crew; returns its id."""
    try:
        name = name_rule.checked(name)
    except name_rule.NameRefused as refused:
        raise Refused(str(refused), 422, "name") from None
    try:
        check_days(first_day, last_day)
    except SeasonError as refused:
        raise Refused(str(refused), 422, "last_day") from None
    with write() as db:
        if len(season_store.seasons(crew_id)) >= MAX_SEASONS:
            raise Refused(f"A crew keeps at most {MAX_SEASONS} seasons.", 409, "name")
        return season_store.create(db, crew_id, name, first_day, last_day, rule.best, rule.minimum)


def find(crew_id, season_id):
    return season_store.season(crew_id, season_id)


def seasons(crew_id):
    return season_store.seasons(crew_id)


def changes(season):
    return season_store.changes(season["id"])


def events(season, db=None, names=None):
    """The season's events as the engine takes them, oldest first, each with when it last changed;
    a game is named by its players in the order they finished."""
    names = names or season_store.names(season["crew_id"], db)
    first, last = days_of(season)
    crew_id = season["crew_id"]
    left = season_store.left_out(season["id"], db)
    found = []
    for game in season_store.finished_games(crew_id, first, last, db):
        started = local_start(game["created"])
        players = ", ".join(names.get(p, "?") for p in sorted(game["places"], key=game["places"].get))
        found.append((Event(("game", game["id"]), started.date(), f"Game: {players}", game["places"],
                            left.get(("game", game["id"]), (None,))[0]), game["changed"]))
    nights = season_store.finished_nights(crew_id, first, last, db)
    places = night_service.places_of(nights, db)
    for row in nights:
        found.append((Event(("night", row["id"]), local_start(row["created"]).date(), row["name"],
                            places[row["id"]], left.get(("night", row["id"]), (None,))[0]), row["changed"]))
    found.sort(key=lambda pair: (pair[0].day, pair[0].key))
    return found


def standings_of(season, db=None):
    """Where the season stands now."""
    rule = rule_of(season)
    names = season_store.names(season["crew_id"], db)
    found = events(season, db, names)
    lines = standings([event for event, _ in found], rule, names)
    _, last = days_of(season)
    closed = last is not None and last < datetime.date.today()
    changed = None
    if closed:
        late = [local_start(when).date() for _, when in found if when and local_start(when).date() > last]
        changed = max(late, default=None)
    return Standings(season, rule, lines, names, [event for event, _ in found], closed, changed)


def summary(standing):
    """The ranked lines as the log keeps them: place, name, average."""
    return [[line.place, standing.names.get(line.player, "?"), percent(line.average)]
            for line in standing.lines if line.place is not None]


def set_rule(season, rule):
    """Change which results count; logged with the standings before and after."""
    with write() as db:
        season = season_store.season(season["crew_id"], season["id"], db)
        before = standings_of(season, db)
        if rule == before.rule:
            return
        season_store.set_rule(db, season["id"], rule.best, rule.minimum)
        # The same events under the new rule: nothing is read twice.
        after = dataclasses.replace(before, rule=rule, lines=standings(before.events, rule, before.names))
        season_store.log(db, season["id"], "rule", f"{before.rule.sentence()} → {rule.sentence()}",
                         summary(before), summary(after))


def _event(season, kind, event_id, db):
    for event, _ in events(season, db):
        if event.key == (kind, event_id):
            return event
    raise Refused("That game or night is not one of this season's.", 404)


def leave_out(season, kind, event_id, reason):
    """Leave one event out of the season (a friendly), with the reason the log and its players see."""
    reason = note_rule.clean(reason)
    problem = note_rule.problem(reason) or (None if reason else "Say why it does not count (a friendly, …).")
    with write() as db:
        event = _event(season, kind, event_id, db)  # first: a game that is no event is not found, whatever was typed
        if problem:
            raise Refused(problem, 422, "reason")
        if event.left_out is not None:
            raise Refused(f"{event.name} is already left out.", 409, "reason")
        season_store.leave_out(db, season["id"], kind, event_id, reason)
        season_store.log(db, season["id"], "left out", f"{event.name} ({event.day:%-d %b %Y}): {reason}")


def count_again(season, kind, event_id):
    with write() as db:
        event = _event(season, kind, event_id, db)
        if event.left_out is None:
            raise Refused(f"{event.name} counts already.", 409)
        season_store.count_again(db, season["id"], kind, event_id)
        season_store.log(db, season["id"], "counted again", f"{event.name} ({event.day:%-d %b %Y})")
