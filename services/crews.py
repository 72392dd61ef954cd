"""Crews: starting one, finding one by its link, a new link, its house rules, and what its home
page lists (games, players, the version its live list polls)."""
from dataclasses import dataclass

from store import crews as crew_store
from store import games as game_store
from store import write


@dataclass(frozen=True)
class CrewHome:
    games: list
    games_version: str
    players: list


def by_link(token):
    """The crew behind a link, or None: the store keeps only the link's hash."""
    return crew_store.crew_by_token(token)


def start(name):
    """A new crew with a new link (the returned row carries its token)."""
    with write() as db:
        token = crew_store.create_crew(db, name)
    return crew_store.crew_by_token(token)


def new_link(crew_id):
    """A new link for the crew; the old one stops working at once. Returns the new token."""
    with write() as db:
        return crew_store.rotate_token(db, crew_id)


def set_house_rules(crew_id, rules):
    """The crew's house rules for its next games; games already started keep theirs."""
    with write() as db:
        crew_store.set_house_rules(db, crew_id, rules)


def players(crew_id):
    """The crew's players, as the new-game form offers them."""
    return crew_store.players(crew_id)


def games_version(crew_id):
    """The version of the crew's list of games: its live poll answers 204 while it is the same."""
    return game_store.games_version(crew_id)


def home(crew_id):
    """What the crew's page lists."""
    version = game_store.games_version(crew_id)  # before the list: a game started between the reads is fetched by the next poll
    return CrewHome(game_store.games(crew_id), version, crew_store.players(crew_id))
