"""The round page's blueprint and what every round view shares: loading the crew, game and phone
once per request, the round as this phone may see it, and the two ways an answer is drawn: the
whole page (or its main region for htmx), or display regions swapped out of band around the
control a phone just used."""
from flask import Blueprint, abort, g, make_response, render_template, request, url_for
from jinja2_fragments.flask import render_blocks

from scoring import MAX_BID, PLAYERS, SUIT_SYMBOLS
from services import club_nights as night_service
from services import rounds as service
from services.refusals import NotOpen
from .forms import BidForm

from ..lookup import load_game
from ..render import wants_fragment
from ..viewer import viewer_for

PAGE = "rounds/show.html"  # the page and every region of it, a named block each

bp = Blueprint("rounds", __name__, url_prefix="/c/<token>/games/<int:game_id>/rounds/<int:number>")


@bp.url_value_preprocessor
def load_round_context(endpoint, values):
    """Load the crew, the game and this phone's place at it once per request (a live poll first
    asks whether anything changed, and loads them only when something did)."""
    g.token = values.pop("token")
    game_id = values.pop("game_id")
    if endpoint == "rounds.round_live":
        g.game_id = game_id
        return
    load(game_id)


def load(game_id):
    g.crew, g.game = load_game(g.token, game_id)
    g.viewer = viewer_for(g.game)


@bp.url_defaults
def fill_round_ids(endpoint, values):
    if "game" in g:
        values.setdefault("token", g.token)
        values.setdefault("game_id", g.game["id"])


def view_of(number, seat=None, problems=None):
    """The round as this request reads it, after its game. A round newer than the game as read
    (a save that ended the game landed between the reads) has its game read again, so the page
    is drawn, and the table's next step found, from a game at least as new as its round. The page
    carries the older of the two versions: a change landing between those reads too is fetched by
    the page's next poll, never hidden behind the newer version."""
    entry = service.shown_revision(g.game, number)
    if entry is None:
        abort(404)
    if entry["live_version"] > g.game["version"]:
        load(g.game["id"])
    entry["live_version"] = min(entry["live_version"], g.game["version"])
    return service.round_view(g.game, entry, g.viewer, seat, problems)


def template_context(view, with_bid_form=True, **extra):
    """What the round's templates read; the bid form only when the bid region is drawn."""
    entry = view.entry
    extra.setdefault("bid_form", None)
    if extra["bid_form"] is None and with_bid_form:
        extra["bid_form"] = BidForm(formdata=None)
        if entry["bid_number"] is not None:
            extra["bid_form"].bidder.data = str(entry["bid_seat"])
            extra["bid_form"].number.data = entry["bid_number"]
            extra["bid_form"].suit.data = entry["bid_suit"]
    return {
        "crew": g.crew, "token": g.token, "game": g.game, "view": view, "entry": entry,
        "names": view.names, "suit_symbols": SUIT_SYMBOLS, "bid_numbers": range(1, MAX_BID + 1),
        "round_url": url_for("rounds.round_show", number=entry["number"]),
        # A club night's table: read only where the whole page is drawn (its stage clock).
        "club_table": lambda: night_service.table_of_game(g.game["id"]),
        # The game's version read with the round it shows (store/rounds.py, ROUND_SELECT; never
        # newer than the game the page was drawn from, see view_of), or after this request's own
        # change (services/taps.py), so the poll does not fetch it again.
        "live_version": entry["live_version"],
        **extra,
    }


def page(view, status=200, **extra):
    """The whole page, or the whole round region for htmx."""
    context = template_context(view, **extra)
    if wants_fragment():
        # A notice is said in the bar that stays in view, too.
        blocks = ["main", "bar_message"] if extra.get("notice") else ["main"]
        response = make_response(render_blocks(PAGE, blocks, bar_text=extra.get("notice"), **context), status)
        response.headers["HX-Retarget"] = "#round-main"
        # A round just saved (or otherwise replaced) opens at the top, where the new totals and
        # this phone's "I agree" are; a round still being entered keeps the player's place.
        response.headers["HX-Reswap"] = "outerHTML" if view.entering else "outerHTML show:window:top"
    else:
        response = make_response(render_template(PAGE, **context), status)
    return response


def regions(view, *blocks, status=200, **extra):
    """The page's named blocks around the control a phone just used, swapped out of band, in one
    render with one context; the poll's version goes with them, so the phone's own change is not
    fetched again."""
    context = template_context(view, with_bid_form="bid" in blocks, oob=True, **extra)
    return make_response(render_blocks(PAGE, ["poll", *blocks], **context), status)


def not_open(number, refused=None):
    """The round as stored now, saying why the tap or save did not go through."""
    return page(view_of(number), status=409, notice=(refused or NotOpen(number)).sentence)


def seat_in_range(seat):
    if seat not in range(PLAYERS):
        abort(404)
    return seat


def tab_arg():
    """The player tab a phone asks for (`?seat=`), else its own seat."""
    raw = request.values.get("seat")
    if raw is None:
        return None
    try:
        return seat_in_range(int(raw))
    except ValueError:
        abort(404)


def first_error(form):
    for errors in form.errors.values():
        if errors:
            return errors[0]
    return "That did not work: reload the page and try again."
