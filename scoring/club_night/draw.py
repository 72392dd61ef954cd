"""Drawing a stage's seating: who sits out, the tables, and each table's seat order."""

from __future__ import annotations

import functools
import itertools
import operator
import random
from collections.abc import Hashable, Sequence
from math import comb

from ..rounds import PLAYERS
from .rules import (DRAW_AGAIN_TRIES, EXHAUSTIVE_LIMIT, LOOKAHEAD_LIMIT, LOOKAHEAD_OPTIONS, RESTARTS, Record,
                    Seating, check_present, sit_out_count)

def draw_seating(present: Sequence[Hashable], earlier: Sequence[Seating] = (), seed: int = 0) -> Seating:
    """Seat the players here for the next stage.

    Sitting out: those who have played the most stages so far sit out (stages missed count as
    sat out), so with the same players all night nobody sits out twice before everyone has sat
    out once. Tables: the split that repeats the fewest earlier meetings at a table, by trying
    every split when there are few (up to EXHAUSTIVE_LIMIT) and by a local search of swaps
    between tables from several seeded starts when there are many. Seat order at each table: the
    order with the fewest repeated left-hand neighbours, and the first deal to whoever has dealt
    first least. The same players, stages and seed always give the same seating."""
    check_present(present)
    record = Record.of(earlier)
    rng = random.Random(seed)
    order = list(present)
    rng.shuffle(order)  # ties are broken by a seeded draw, never by the order names were typed
    choices = _sit_out_choices(order, record)
    playing_count = len(order) - sit_out_count(len(order))
    if _split_count(playing_count) * len(choices) <= EXHAUSTIVE_LIMIT:
        cost, tables, sitting_out = _best_looking_ahead(order, choices, record, earlier)
    else:
        best = None
        for sitting_out in choices:
            playing = [player for player in order if player not in sitting_out]
            tables, cost = _searched_split(playing, record, rng)
            if best is None or cost < best[0]:
                best = (cost, tables, sitting_out)
            if cost == 0:
                break
        cost, tables, sitting_out = best
    seated = tuple(_seat_order(table, record) for table in tables)
    return Seating(tables=seated, sitting_out=tuple(p for p in order if p in sitting_out))


def draw_by_standing(present: Sequence[Hashable], earlier: Sequence[Seating], standing: Sequence[Hashable],
                     seed: int = 0) -> Seating:
    """Seat players of similar standing together (a Swiss draw). Sitting out is decided as in
    `draw_seating` (those who have played most sit out; among them, a seeded pick), so it still
    rotates fairly; then the players left, in the order of `standing` (best first; anyone it does
    not rank after them, in a seeded order), four at a time: table 1 holds the best four, table 2
    the next four, and so on. Seat order at each table as `draw_seating` makes it. The same
    players, stages, standing and seed always give the same seating."""
    check_present(present)
    record = Record.of(earlier)
    rng = random.Random(seed)
    order = list(present)
    rng.shuffle(order)
    rank = {player: n for n, player in enumerate(standing)}
    order.sort(key=lambda player: rank.get(player, len(rank)))  # stable: the unranked keep the seeded order
    sitting_out = rng.choice(_sit_out_choices(order, record))
    playing = [player for player in order if player not in sitting_out]
    tables = [playing[n:n + PLAYERS] for n in range(0, len(playing), PLAYERS)]
    return Seating(tables=tuple(_seat_order(table, record) for table in tables),
                   sitting_out=tuple(player for player in order if player in sitting_out))


def same_seating(a: Seating, b: Seating) -> bool:
    """Whether two seatings put everyone in the same place: the same tables, each in the same seat
    order from the same first dealer, and the same players sitting out (table numbers aside)."""
    return set(a.tables) == set(b.tables) and set(a.sitting_out) == set(b.sitting_out)


def draw_anew(present: Sequence[Hashable], earlier: Sequence[Seating], seeds: Sequence[int],
              shown: Seating) -> Seating:
    """"Draw again": the draw from each seed in turn (at most DRAW_AGAIN_TRIES) until one seats
    the players differently from the seating `shown` and repeats no more earlier meetings or
    left-hand neighbours than the first seed's draw does. When none of the tries finds one, the
    first seed's draw: then the seating shown is as good as it gets, and likely the only one."""
    first = None
    for seed in list(seeds)[:DRAW_AGAIN_TRIES]:
        drawn = draw_seating(present, earlier, seed=seed)
        first = first or drawn
        if not same_seating(drawn, shown) and _repeats(drawn, earlier) <= _repeats(first, earlier):
            return drawn
    return first


def _repeats(seating, earlier):
    """A seating's repeats of the stages before it: (meetings at a table, left-hand neighbours)."""
    record = Record.of(earlier)
    meetings = sum(_table_cost(table, record) for table in seating.tables)
    left = sum(record.left_of.get((table[s], table[(s + 1) % len(table)]), 0)
               for table in seating.tables for s in range(len(table)))
    return (meetings, left)


class _Costs(dict):
    """The repeats of each table under one record, worked out once per set of four. The draw's
    tables list their players in the draw's order, so the same four are always the same tuple."""

    def __init__(self, record):
        super().__init__()
        self.met = _met_with(record)

    def __missing__(self, table):
        a, b, c, d = table  # a split's tables are always of four (PLAYERS)
        met_a, met_b, met_c = (self.met.get(player, ()) for player in (a, b, c))
        cost = self[table] = (b in met_a) + (c in met_a) + (d in met_a) + (c in met_b) + (d in met_b) + (d in met_c)
        return cost


def _met_with(record):
    """Each player: whom they have met at a table before."""
    met = {}
    for pair in record.met:
        a, b = pair
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    return met


@functools.lru_cache(maxsize=None)
def _split_pattern(count):
    """Every split of `count` seats into tables of four, in `_splits`'s order: (each table, as
    a getter of its seats' players; each split's tables, as numbers into that list, one tuple per
    place at the split, so that the costs of every split add up column by column)."""
    tables, number, splits = [], {}, []
    for split in _splits(list(range(count))):
        for table in split:
            if table not in number:
                number[table] = len(tables)
                tables.append(table)
        splits.append([number[table] for table in split])
    return tuple(operator.itemgetter(*table) for table in tables), tuple(zip(*splits))


def _split_costs(order, sitting_out, costs):
    """The tables of the players not sitting out, and the repeats of each split of them."""
    playing = [player for player in order if player not in sitting_out]
    seats, columns = _split_pattern(len(playing))
    tables = [seats_of(playing) for seats_of in seats]
    price = [costs[table] for table in tables]
    return tables, columns, list(map(sum, zip(*(map(price.__getitem__, column) for column in columns))))


def _options(order, choices, record):
    """Every (repeats, split, sitting out) for the stage, fewest repeats first (stable)."""
    options, costs = [], _Costs(record)
    for sitting_out in choices:
        tables, columns, split_costs = _split_costs(order, sitting_out, costs)
        splits = zip(*columns)
        options.extend((cost, [tables[n] for n in split], sitting_out) for cost, split in zip(split_costs, splits))
    options.sort(key=lambda option: option[0])
    return options


def _best_looking_ahead(order, choices, record, earlier):
    """Of the splits with the fewest repeats now (or one more), the one that leaves the next
    stage, with the same players, the fewest repeats: choosing on this stage alone can paint
    the next one into a corner. Only for nights small enough to try every split."""
    options = _options(order, choices, record)
    fewest = options[0][0]
    near = [option for option in options if option[0] <= fewest + 1][:LOOKAHEAD_OPTIONS]
    if len(near) * len(options) > LOOKAHEAD_LIMIT:
        return options[0]
    best = None
    for option in near:
        cost, split, sitting_out = option
        after = Record.of([*earlier, Seating(tuple(split), tuple(sitting_out))])
        score = (cost + _fewest_repeats(order, after), cost)
        if best is None or score < best[0]:
            best = (score, option)
    return best[1]


def _fewest_repeats(order, record):
    """The fewest repeats any next stage can have, with these players."""
    costs, fewest = _Costs(record), None
    for sitting_out in _sit_out_choices(order, record):
        lowest = min(_split_costs(order, sitting_out, costs)[2])
        fewest = lowest if fewest is None else min(fewest, lowest)
        if fewest == 0:
            break
    return fewest


def _sit_out_choices(order, record):
    """The fair sets of players to sit out: the ones who have played most, and when more of
    them tie than must sit out, a few of the possible sets (all of them when there are few)."""
    count = sit_out_count(len(order))
    if not count:
        return [frozenset()]
    by_played = sorted(order, key=lambda player: -record.played.get(player, 0))
    cut = record.played.get(by_played[count - 1], 0)
    sure = [p for p in by_played if record.played.get(p, 0) > cut]
    tied = [p for p in by_played if record.played.get(p, 0) == cut]
    need = count - len(sure)
    combos = itertools.islice(itertools.combinations(tied, need), 12)
    return [frozenset(sure) | frozenset(combo) for combo in combos]


def _table_cost(table, record):
    """The table's repeat meetings: pairs at it who have met at a table before."""
    return sum(frozenset(pair) in record.met for pair in itertools.combinations(table, 2))


def _searched_split(playing, record, rng):
    """Tables of four with few repeated meetings, and that number: from several seeded starts,
    swaps of two players between tables while a swap lowers the repeats."""
    tables = len(playing) // PLAYERS
    best = None
    for _ in range(RESTARTS):
        start = playing[:]
        rng.shuffle(start)
        split = [start[i * PLAYERS:(i + 1) * PLAYERS] for i in range(tables)]
        cost = _improve(split, record)
        if best is None or cost < best[1]:
            best = ([tuple(table) for table in split], cost)
        if cost == 0:
            break
    return best


def _split_count(players):
    """How many ways `players` (a multiple of four) split into unordered tables of four."""
    count, left = 1, players
    while left > PLAYERS:
        count *= comb(left - 1, PLAYERS - 1)
        left -= PLAYERS
    return count


def _splits(playing):
    """Every split into tables of four, each once (the first player left always opens a table)."""
    if not playing:
        yield []
        return
    first, rest = playing[0], playing[1:]
    for mates in itertools.combinations(rest, PLAYERS - 1):
        left = [player for player in rest if player not in mates]
        for split in _splits(left):
            yield [(first, *mates), *split]


def _improve(split, record):
    """Swap players between tables while a swap lowers the repeats; returns the final count."""
    met, nobody = _met_with(record), ()
    cost = sum(_table_cost(table, record) for table in split)
    improved = True
    while improved and cost:
        improved = False
        for a_index, b_index in itertools.combinations(range(len(split)), 2):
            table_a, table_b = split[a_index], split[b_index]
            for i, a in enumerate(table_a):
                for j, b in enumerate(table_b):
                    met_a, met_b = met.get(a, nobody), met.get(b, nobody)
                    delta = 0
                    for k, x in enumerate(table_a):
                        if k != i:
                            delta += (x in met_b) - (x in met_a)
                    for k, y in enumerate(table_b):
                        if k != j:
                            delta += (y in met_a) - (y in met_b)
                    if delta < 0:
                        table_a[i], table_b[j] = b, a
                        a = b
                        cost += delta
                        improved = True
    return cost


def _seat_order(table, record):
    """The table's seat order: fewest repeated left-hand neighbours, then the first deal to whoever
    has dealt first least (earliest in the draw when equal)."""
    first, *others = table
    best = None
    for rest in itertools.permutations(others):
        ring = (first, *rest)
        cost = sum(record.left_of.get((ring[s], ring[(s + 1) % PLAYERS]), 0) for s in range(PLAYERS))
        if best is None or cost < best[0]:
            best = (cost, ring)
    ring = best[1]
    dealer = min(range(PLAYERS), key=lambda s: (record.first_deals.get(ring[s], 0), table.index(ring[s])))
    return ring[dealer:] + ring[:dealer]
