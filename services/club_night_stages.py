"""A club night's stages: drawing one (and drawing it again), swapping two players before it
starts, starting it (a game a table), and finishing the night. Every refusal is a `Refused` with
the sentence to show.

A draw searches outside the write transaction (a big night's search would otherwise hold every
crew's saves behind the server-wide write lock): it reads the night, draws, and then writes in a
short transaction only if what it read is still so; if the night changed meanwhile it draws once
more from the new night, and after a second change it is refused (409, "draw it again")."""
import dataclasses
import json

from scoring import club_night
from scoring.club_night import NightError
from store import club_nights as night_store
from store import games as game_store
from store import write

from . import seasons as season_service
from .club_nights import _names, _present, _unfinished, log_has_room, ranked_players
from .club_nights import seating as seating_of
from .refusals import Refused
from .games import house_rules


def _read(night):
    """The night as a draw reads it, outside any transaction, after its mark (read first: a change
    landing in between leaves the mark older than the night read, so the write is refused and the
    stage drawn again, never written from a night that has moved on)."""
    mark = night_store.draw_mark(night["id"])
    return mark, night_store.night(night["crew_id"], night["id"]), night_store.stages(night["id"])


def _open(found):
    if found["finished"]:
        raise Refused("The night is over: it takes no more stages, and its standings stay as they are.")


def _tables(numbers):
    numbers = [str(n) for n in numbers]
    return f"tables {', '.join(numbers[:-1])} and {numbers[-1]}" if len(numbers) > 1 else f"table {numbers[0]}"


def _drawable(found, stages):
    """Refuse a draw the night cannot take now (over, a stage drawn or playing, no stages left)."""
    _open(found)
    if stages and stages[-1]["status"] == "planned":
        raise Refused(f"Stage {stages[-1]['number']} is drawn already: start it, or swap players in it.")
    if stages and _unfinished(stages[-1]):
        raise Refused(f"Stage {stages[-1]['number']} is still being played at {_tables(_unfinished(stages[-1]))}: "
                      "draw the next stage when every table's game is over.")
    if len(stages) >= club_night.MAX_STAGES:
        raise Refused(f"A night has at most {club_night.MAX_STAGES} stages.")


def _searched(night, plan, write_it):
    """Read, search with `plan(found, stages)` outside any transaction, then `write_it(db, found,
    stages, seating)` in one if the night is as it was read; once more if it changed."""
    for _ in range(2):
        mark, found, stages = _read(night)
        seating = plan(found, stages)
        with write() as db:  # one short statement, then the stage's rows
            if night_store.draw_mark(night["id"], db) == mark:
                return write_it(db, found, stages, seating)
    raise Refused(f"The night changed while stage {_drawing_number(stages)} was being drawn: draw it again.")


def _drawing_number(stages):
    return stages[-1]["number"] if stages and stages[-1]["status"] == "planned" else len(stages) + 1


def _draw(found, present, earlier, seeds, shown=None):
    """A stage's seating and, for a night seated by standing, how its tables were made (JSON):
    the night's own way (`draw_seating`, or `draw_anew` when drawing `shown` again), or players of
    similar standing together, by the standings `_standing` picks."""
    try:
        if found["seating"] != "standing":
            if shown is None:
                return club_night.draw_seating(present, earlier, seed=seeds[0]), None
            return club_night.draw_anew(present, earlier, seeds, shown), None
        order, by = _standing(found, played=bool(earlier))
        drawn = [club_night.draw_by_standing(present, earlier, order, seed) for seed in seeds[:1 if shown is None else 4]]
        seating = next((s for s in drawn if shown is None or not club_night.same_seating(s, shown)), drawn[0])
    except NightError as error:
        raise Refused(f"{error}: add players who are here, or mark them back.", field="players") from None
    at = {player: n for n, player in enumerate(order, start=1)}
    return seating, json.dumps({"by": by, "tables": [[at.get(p) for p in table] for table in seating.tables]})


def _standing(found, played):
    """Who is best, for seating by standing: before any stage is played, the night's season's
    standings (ranked players, best first; none without a season); after, tonight's own."""
    if played:
        return ranked_players(found), "tonight"
    season = found["season_id"] and season_service.find(found["crew_id"], found["season_id"])
    if not season:
        return [], "season"
    return [line.player for line in season_service.standings_of(season).lines if line.place is not None], "season"


@log_has_room
def draw_stage(night):
    """Draw the next stage's seating from who is here now; returns its number. The first draw of a
    stage is seeded by the night and the stage's number, so it is reproducible."""
    def plan(found, stages):
        _drawable(found, stages)
        return _draw(found, _present(found), [seating_of(stage) for stage in stages], [night["seed"] * 1000 + len(stages) + 1])

    def write_it(db, found, stages, drawn):
        number = len(stages) + 1
        seating, made = drawn
        night_store.add_stage(db, night["id"], number, seating, made)
        _log_drawn(db, night["id"], number, len(seating.players))
        night_store.bump(db, night["id"])
        return number
    return _searched(night, plan, write_it)


def _log_drawn(db, night_id, number, players):
    night_store.log_again(db, night_id, ("drawn",), "stage", stage=number, count=players)


@log_has_room
def redraw(night, number):
    """Draw a stage that has not started again, from who is here now: another seating than the one
    shown when another as good exists (each draw again is seeded by the night's version, which
    every change moves on)."""
    def plan(found, stages):
        _open(found)
        stage = _planned_in(stages, number)
        seeds = [((night["seed"] * 1000 + number) * 100_003 + found["version"]) * 7 + k for k in range(4)]
        return _draw(found, _present(found), [seating_of(s) for s in stages if s["number"] < number], seeds,
                     seating_of(stage))

    def write_it(db, found, stages, drawn):
        seating, made = drawn
        night_store.redraw_stage(db, night["id"], number, seating, made)
        _log_drawn(db, night["id"], number, len(seating.players))
        night_store.bump(db, night["id"])
        return number
    return _searched(night, plan, write_it)


@log_has_room
def swap(night, number, a, b, version):
    """Swap two players' places in a drawn stage that has not started; refused (409) from a page
    older than the night, as two organisers tapping the same swap would otherwise undo it."""
    names = _names(night)
    with write() as db:
        found = night_store.night(night["crew_id"], night["id"], db)
        _open(found)
        stage = _planned_in(night_store.stages(night["id"], db), number)
        if found["version"] != version:
            raise Refused("The night changed since this page was drawn: look at the seating again, then swap.", field="swap")
        try:
            seating = club_night.swap(seating_of(stage), a, b)
        except NightError as error:
            raise Refused(f"{error}.", 422, field="swap") from None
        night_store.put_places(db, night["id"], number, seating)
        text = f"Stage {number}: {names[a]} and {names[b]} swapped places"
        night_store.log_again(db, night["id"], ("swapped",), "stage", stage=number, players=(a, b))
        night_store.bump(db, night["id"])
    return text


@log_has_room
def start_stage(night, crew, number):
    """Start a drawn stage: one ordinary game per table, seated as drawn, seat 1 dealing first.
    A stage of hands is a game cut to that many hands (whichever comes first with the goal).
    Refused while a player of it sits at another night's table still being played."""
    rules = house_rules(crew)
    if night["format"] == "hands":
        rules = dataclasses.replace(rules, hand_limit=night["stage_hands"])
    names = _names(night)
    with write() as db:
        found = night_store.night(night["crew_id"], night["id"], db)
        _open(found)
        stage = _planned_in(night_store.stages(night["id"], db), number)
        here = set(_present(found))
        seating = seating_of(stage)
        gone = [names[p] for p in seating.players if p not in here]
        if gone:
            raise Refused(f"{', '.join(gone)} left after the draw: draw the stage again.")
        _refuse_two_tables(db, night, [p for table in seating.tables for p in table], names)
        games = {}
        for table_no, table in enumerate(seating.tables, start=1):
            games[table_no] = game_store.insert_game(db, crew["id"], [names[p] for p in table], 0, rules)
        night_store.start_stage(db, night["id"], number, games)
        night_store.log(db, night["id"], "started", stage=number, count=len(games))
        night_store.bump(db, night["id"])
    return games


def _refuse_two_tables(db, night, players, names):
    """Nobody sits at two running tables: a player of this stage still at another night's table."""
    busy = night_store.running_tables(db, night["id"], players)
    if not busy:
        return
    first = busy[0]
    who = list(dict.fromkeys(names[row["player_id"]] for row in busy))
    named = " and ".join([", ".join(who[:-1]), who[-1]]) if len(who) > 1 else who[0]
    where = f"table {first['table_no']} of {first['name']} (stage {first['stage']})"
    if len(who) == 1:
        raise Refused(f"{named} is playing at {where}: start this stage once that game is over, "
                      f"or mark {named} as left and draw the stage again.")
    raise Refused(f"{named} are playing at another night's tables ({names[first['player_id']]} at {where}): "
                  "start this stage once those games are over, or mark them as left and draw the stage again.")


def _planned_in(stages, number):
    stage = {stage["number"]: stage for stage in stages}.get(number)
    if stage is None:
        raise Refused(f"There is no stage {number} yet.", status=404)
    if stage["status"] != "planned":
        raise Refused(f"Stage {number} has started: its seats are its games' now "
                      "(a table that sat wrong can swap seats on its scoreboard).")
    return stage


@log_has_room
def finish(night):
    """Finish the night once no table plays: its standings are final and it takes no more stages.
    A stage drawn but not started is thrown away (nobody played it)."""
    with write() as db:
        found = night_store.night(night["crew_id"], night["id"], db)
        if found["finished"]:
            raise Refused("The night is over already: its standings are final.")
        stages = night_store.stages(night["id"], db)
        played = len(stages)
        dropped = None
        if stages and stages[-1]["status"] == "planned":
            dropped = stages[-1]["number"]
            night_store.drop_stage(db, night["id"], dropped)
            played -= 1
        elif stages and _unfinished(stages[-1]):
            raise Refused(f"Stage {stages[-1]['number']} is still being played at {_tables(_unfinished(stages[-1]))}: "
                          "finish the night when every table's game is over.")
        night_store.log(db, night["id"], "finished", stage=dropped, count=played)
        night_store.bump(db, night["id"])


@log_has_room
def reopen(night):
    """Open a finished night again: its games can be changed and stages drawn, until it is
    finished again. The log says so ("reopened"), and the standings stop being final."""
    with write() as db:
        found = night_store.night(night["crew_id"], night["id"], db)
        if not found["finished"]:
            raise Refused("The night is still open: there is nothing to reopen.")
        night_store.log(db, night["id"], "reopened")
        night_store.bump(db, night["id"])
