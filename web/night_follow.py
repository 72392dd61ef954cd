"""The night's board on a phone that sat at one of the night's tables: where its player sits in the
latest stage, and that table's own link to open (services/night_follow.py). The board's poll answer
is the same for every phone (drawn once per change); this part is each phone's own, added to it."""
from flask import current_app, render_template, session, url_for

from services import links as link_service
from services import night_follow
from web.access import TABLE


def my_table(crew, night, stages):
    """What the panel shows this phone: its player's place and the table link, or None."""
    mine = night_follow.my_table(night, stages, session.get("device"))
    if mine is None:
        return None
    url = None
    if mine.state == "playing":
        token = link_service.token_for(current_app.secret_key, crew["id"], TABLE, game_id=mine.game_id)
        url = url_for("games.game_show", token=token, game_id=mine.game_id)
    return {"mine": mine, "url": url}


def with_my_table(response, crew, night, stages):
    """The board's poll answer with this phone's panel after it, swapped in by its id."""
    if response.status_code == 200:  # the slot comes every time: a check-in undone takes the box away
        follow = my_table(crew, night, stages)
        panel = render_template("club_nights/_my_table.html", follow=follow, oob=True)
        response.set_data(response.get_data() + panel.encode())
    return response
