"""Finding a crew by its link and a game inside it; anything else is a plain 404."""
from flask import abort, g, session

from services import crews as crew_service
from services import games as game_service

REMEMBERED_MAX = 12


def load_crew(token):
    """The crew behind a link, kept on g; a wrong token is a plain 404. The link was found (and
    its kind checked) before the view (web/access.py): this reads nothing again."""
    link = g.get("link")
    if link is not None and link.crew["token"] == token:
        crew = link.crew
    else:
        crew = crew_service.by_link(token)
        if crew is None:
            abort(404)
    g.crew = crew
    if link is None or link.kind == "crew":
        _remember(crew)
    return crew


def _remember(crew):
    """Keep the crews this browser opened, newest first, so the home page offers them again."""
    remembered = [entry for entry in session.get("crews", []) if entry[0] != crew["token"]]
    remembered.insert(0, [crew["token"], crew["name"]])
    if session.get("crews") != remembered[:REMEMBERED_MAX]:
        session["crews"] = remembered[:REMEMBERED_MAX]
        session.permanent = True


def load_game(token, game_id):
    crew = load_crew(token)
    game = game_service.find(crew["id"], game_id)
    if game is None:
        abort(404)
    return crew, game


def forget_crew(token):
    """Drop a crew link this browser remembered (after the crew moved to a new link)."""
    session["crews"] = [entry for entry in session.get("crews", []) if entry[0] != token]
