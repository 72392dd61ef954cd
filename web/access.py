"""Who may use each route: the kinds of link, declared once beside the route, checked here once.

A route says which links may use it with `@allow(...)` under its route decorator: `PUBLIC` (no
link in its address), `CREW` (the crew link), `TABLE` (a table link, for its own game only) and
`WATCH` (a watch link, for its own game or night only) and `DOOR` (a night's door link, for its
own night's door only). A route that declares nothing is the crew
link's alone, and tests/test_link_kinds.py fails until it declares. Anything a link may not use is
a plain 404, the same as a wrong link, and changes nothing; a table or watch link that was
replaced answers 410 with a page saying so (it is no guess: the app gave it out). A table link whose game is over is sent
to how its game ended, through the game's watch link, whatever its phone asks of that game.

A game's live poll also says so under its `@allow(...)`, with `@live_poll()` (the scoreboard's:
`@live_poll(board=True)`): the link's one read then brings the game's version and this phone's
seat claim with it, and a poll that finds nothing changed reads nothing more (web/viewer.py). A
club night's live poll (the organiser's page and the big screen) declares `@live_poll(night=True)`:
the same read brings the night's live mark (web/club_nights.py)."""
from flask import abort, current_app, g, request, session, url_for

from services import health
from services import links as link_service
from services.links import CREW, DOOR, TABLE, WATCH

from .render import see_other

PUBLIC = "public"
OVER = "over"  # a table link whose game is over (`refusal`)
__all__ = ["PUBLIC", "CREW", "TABLE", "WATCH", "DOOR", "OVER", "allow", "live_poll", "live_poll_of", "kinds_of",
           "allowed_kinds", "check_link", "refusal", "is_crew"]


def allow(*kinds):
    """Declare the kinds of link that may use the route below (`@bp.get(...)` then `@allow(...)`)."""
    unknown = set(kinds) - {PUBLIC, CREW, TABLE, WATCH, DOOR}
    assert kinds and not unknown, f"unknown kinds of link: {unknown}"

    def declare(view):
        view.link_kinds = frozenset(kinds)
        return view
    return declare


def live_poll(board=False, night=False):
    """Declare the route below a live poll, under its `@allow(...)`: a game's (`board`: the
    scoreboard's version, else the game's), which names its game with `game_id`, or with `night`
    a club night's (its live mark), which names its night with `night_id`."""
    assert not (board and night), "a night's poll has no scoreboard of its own"

    def declare(view):
        view.live_poll = "night" if night else bool(board)
        return view
    return declare


def live_poll_of(endpoint):
    """What `endpoint`'s route declared with `live_poll`: True (the scoreboard's) or False (a
    game's), "night" (a club night's), or None when it is no live poll."""
    return getattr(current_app.view_functions.get(endpoint), "live_poll", None)


def _poll(endpoint, values):
    """The keyword arguments of `link_service.resolve` that ask a route's live poll's question:
    `poll`, (game id, this phone's id, board), for a game's; `night`, its id, for a night's."""
    board = live_poll_of(endpoint)
    if board == "night":
        return {} if values.get("night_id") is None else {"night": values["night_id"]}
    if board is None or values.get("game_id") is None:
        return {}
    return {"poll": (values["game_id"], session.get("device"), board)}


def kinds_of(endpoint):
    """The kinds of link declared for `endpoint`'s view, or None when it declares none."""
    view = current_app.view_functions.get(endpoint)
    return getattr(view, "link_kinds", None)


def allowed_kinds(endpoint):
    """The kinds of link that may use `endpoint`'s route: those it declares, else the crew link's alone."""
    return kinds_of(endpoint) or frozenset({CREW})


def check_link(endpoint, values):
    """Before any view (and any blueprint's own loading): the link in the address, if any, is
    found in one read and must be of a kind the route allows, for the game or night it names. A
    live poll's question is asked in that read too (`live_poll`)."""
    if not values or "token" not in values:
        return
    link = link_service.resolve(values["token"], **_poll(endpoint, values))
    if link is None:
        # A link the app gave out and later replaced is said so (410), never counted as a guess.
        if link_service.was_replaced(values["token"]):
            abort(410)
        if link_service.lost_by_an_index(values["token"]):  # there, but its index lost it: damage
            raise health.index_lost_a_link()
        abort(404)
    kinds = allowed_kinds(endpoint)
    why = refusal(link, kinds, values, request.method)
    if why == OVER:
        abort(_to_the_result(endpoint, values, link, kinds))
    if why is not None:
        abort(why)
    g.link = link


def refusal(link, kinds, values, method):
    """Why `link` may not use a route that allows `kinds` with the address's `values` (its
    `game_id`, `night_id` or `season_id`), asked with `method`: None when it may, OVER for a table
    link whose game is over (its phone is sent to how the game ended), else 404."""
    if link.kind != CREW:
        game_id, night_id, season_id = values.get("game_id"), values.get("night_id"), values.get("season_id")
        if link.game_id is not None and (night_id is not None or season_id is not None
                                         or game_id not in (None, link.game_id)):
            return 404
        if link.night_id is not None and (game_id is not None or season_id is not None or night_id != link.night_id):
            return 404
        if link.season_id is not None and (game_id is not None or night_id is not None or season_id != link.season_id):
            return 404
        if link.kind in (WATCH, DOOR) and game_id is None and night_id is None and season_id is None:
            return 404
        if link.table_over:
            if game_id is not None and (TABLE in kinds or method == "GET" and WATCH in kinds):
                return OVER
            return 404
    if link.kind not in kinds:
        return 404
    return None


def _to_the_result(endpoint, values, link, kinds):
    """A table link whose game is over: the phones at that table are sent to how it ended (the
    same page by the game's watch link when a watch link may read it, else the scoreboard), never
    answered as a guessed link, whatever they asked (a poll, a tap made before the end). A club
    night's table sees its outcome there first, with one tap back to the night's board."""
    watch = link_service.token_for(current_app.secret_key, link.crew["id"], WATCH, game_id=link.game_id)
    if request.method == "GET" and WATCH in kinds:
        target = url_for(endpoint, **{**values, "token": watch})
        if request.query_string:  # "?saved=2": the save that ended the game is still said
            target += "?" + request.query_string.decode("latin-1")
    else:
        target = url_for("games.game_show", token=watch, game_id=link.game_id)
    return see_other(target)


def is_crew():
    """Whether this request came by the crew link (templates show crew-wide links only then)."""
    link = g.get("link")
    return link is None or link.kind == CREW


def init_app(app):
    app.url_value_preprocessor(check_link)
    app.jinja_env.globals.update(is_crew=is_crew, link_kind=lambda: (g.get("link").kind if g.get("link") else None))
