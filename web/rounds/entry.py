"""A round while it is entered: its page, the live poll, a player's tab, every tap on a hand, the
bid, a redeal and saving it. What happens to a saved round is in `saved`.

Each view parses its form, calls one function of the round service (`services.rounds` or
`services.taps`) and draws what changed: `redraw` names, for each kind of answer, the page's
blocks it swaps out of band. A tap that goes through redraws the regions around its control
(scores, the check, the player's tab) and leaves the control as the player set it, so the page
stays put; a refused tap swaps its control back as stored, with the reason next to it.
"""
import json

from flask import g, make_response, request, url_for

from web.access import CREW, TABLE, allow
from web.access import live_poll
from web.quick import quick
from scoring import CardError, parse_card, parse_rank
from services import rounds as service
from services import taps
from services.refusals import NotOpen, Refused, Stale
from . import redraw
from .forms import BidForm, CardTapForm, CountTapForm, DoneForm, ModeForm, SaveForm, TargetForm

from ..render import see_other, wants_fragment
from ..viewer import poll_unchanged
from .page import bp, first_error, load, not_open, page, regions, seat_in_range, tab_arg, view_of

# --- Reading ------------------------------------------------------------------------------------

@bp.get("")
@allow(CREW, TABLE)
@quick
def round_show(number):
    return page(view_of(number, tab_arg()))


@bp.get("/live")
@allow(CREW, TABLE)
@live_poll()
@quick
def round_live(number):
    """What changed since the version the phone shows: nothing (204), the display regions, or the
    whole round when it was saved or replaced. A phone's own controls are never in the answer."""
    if poll_unchanged(g.token, g.game_id):
        return make_response("", 204)
    load(g.game_id)
    view = view_of(number, tab_arg())
    moved_on = _where_the_table_went(view)
    if moved_on:
        return see_other(moved_on)
    me = request.args.get("me")
    if me is not None and str(g.viewer.seat) != me:
        # The table gave this phone's seat to another phone: its hand is private there now.
        return page(view_of(number), notice="Your seat was moved to another phone.")
    if str(view.entry["id"]) != request.args.get("r") or not view.entering:
        return page(view)
    blocks = list(redraw.blocks("poll"))
    cleared = None
    if request.args.get("agreed") == "1" and view.correction and g.viewer.seat not in view.correction.agreed:
        # This phone showed its player's agreement to the correction, and a change cleared it.
        cleared = ("Your agreement was cleared: the correction changed after you agreed. Check what it "
                   "changes now, and agree again if it is right.")
    if request.args.get("bid_known", view.bid_key) != view.bid_key:
        # saved, changed or redealt on another phone: this phone's form is out of date
        blocks[blocks.index("bid_summary")] = "bid"
    if view.seat in view.hidden:
        blocks.append("hand")
    elif _changed_elsewhere(view.entry["hands"][view.seat]):
        blocks.append("hand_notice")
    elif view.hidden and (view.remaining or view.rest_waits):
        # The rest of the cards is offered (the other phones are all in), or taken back (one of
        # them opened its hand again).
        blocks.append("hand_result")
    return regions(view, *blocks, changed_elsewhere=True, agreement_notice=cleared)


def _where_the_table_went(view):
    """Where a page of a saved round is taken once the table moved on from it, so every phone
    follows within one poll: the next round, once it is started; the scoreboard and its winner,
    once this round ended the game. None while the table is still on this round (or the page is
    an older round someone opened to look back)."""
    if view.entering:
        return None
    number = view.entry["number"]
    after = service.shown_revision(g.game, number + 1)
    if after is not None and after["status"] == "entering" and not after["is_correction"]:
        return url_for("rounds.round_show", number=number + 1)
    if g.game["status"] == "finished" and view.is_last:
        return url_for("games.game_show", token=g.token, game_id=g.game["id"])
    return None


def _changed_elsewhere(hand):
    try:
        shown = int(request.args.get("based_on", ""))
    except ValueError:
        return False
    return hand["version"] > shown and hand["entered_by"] not in (None, g.viewer.device)


@bp.get("/hands/<int:seat>")
@allow(CREW, TABLE)
@quick
def hand_show(number, seat):
    """A player's tab: their hand's controls, with the tabs and the poll following."""
    view = view_of(number, seat_in_range(seat))
    if not view.entering or not wants_fragment():
        return page(view)
    return regions(view, *redraw.blocks("tab"))


def _moving_on(response, view, next_seat):
    """The hand just finished stays on screen, its target and score shown where the tap was made;
    app.js opens the next hand's tab a moment later (`MOVE_ON_SECONDS`), unless the player taps
    this hand again first, and brings the new hand's top into view."""
    url = url_for("rounds.hand_show", number=view.entry["number"], seat=next_seat)
    response.headers["HX-Trigger-After-Settle"] = json.dumps({"orchard:move-on": {"url": url}})
    return response


# --- Taps on a hand -----------------------------------------------------------------------------

def _tap(number, seat, form, apply, control):
    """One tap on a hand: the form's shape, then the service's judgement. The answer updates the
    regions around the control; a refusal puts the control back as stored and says why next to it."""
    seat = seat_in_range(seat)
    if not form.validate_on_submit():
        return _refused(number, seat, first_error(form), control, 422)
    try:
        entry, problems, *opens = apply(form)
        next_tab = opens[0] if opens else None
    except NotOpen as gone:
        return not_open(number, gone)
    except Stale as stale:
        view = view_of(number, seat)
        return regions(view, *redraw.blocks("stale"), status=409, hand_notice=stale.sentence)
    except Refused as refused:
        return _refused(number, seat, refused.sentence, control, refused.status)
    view = service.round_view(g.game, entry, g.viewer, seat, problems)
    blocks = redraw.blocks(control["kind"], view)
    if next_tab is None:
        return regions(view, *blocks, control=control, message_text="", bar_text="")
    # Said in the bar, which is always in view (under the row a card was tapped in, it could be
    # under the bar): the tap's own result shows where it was made (the card, the summary, the score).
    said = f"{view.names[seat]}’s hand is in. {view.names[next_tab]}’s hand opens next."
    return _moving_on(regions(view, *blocks, control=control, message_text="", bar_text=said, bar_news=True),
                      view, next_tab)


def _refused(number, seat, message, control, status):
    """The control as stored, and why, next to it (the bar below is cleared: it never repeats a
    refusal over the control it concerns)."""
    view = view_of(number, seat)
    if not view.entering:
        return not_open(number)
    if seat in view.hidden:
        # The hand is entered on its own phone now: drawn as private, with no control put back.
        return regions(view, *redraw.blocks("refused hidden"), status=status, bar_text="")
    return regions(view, *redraw.blocks("refused"), status=status, control=control, message_text=message,
                   bar_text="")


@bp.post("/hands/<int:seat>/cards/<code>")
@allow(CREW, TABLE)
@quick
def card_update(number, seat, code):
    """Tap on the card grid: `held` says whether the card is in this pile."""
    try:
        code = parse_card(code).code
    except CardError as error:
        return _refused(number, seat_in_range(seat), str(error), {"kind": "none"}, 422)
    control = {"kind": "card", "code": code, "slot": f"suit-{code[-1]}"}
    return _tap(number, seat, CardTapForm(), lambda form: taps.set_card(
        g.game, g.viewer, number, seat, code, form.held.data, form.based_on.data), control)


@bp.post("/hands/<int:seat>/counts/<rank>")
@allow(CREW, TABLE)
@quick
def count_update(number, seat, rank):
    """Tap on a rank's count (quick entry): `count` is how many of the rank the pile holds."""
    try:
        rank = parse_rank(rank)
    except CardError as error:
        return _refused(number, seat_in_range(seat), str(error), {"kind": "none"}, 422)
    control = {"kind": "rank", "rank": rank, "slot": f"rank-{rank}"}
    return _tap(number, seat, CountTapForm(), lambda form: taps.set_count(
        g.game, g.viewer, number, seat, rank, form.count.data, form.based_on.data), control)


@bp.post("/hands/<int:seat>/target")
@allow(CREW, TABLE)
@quick
def target_update(number, seat):
    """The target picker: saved once both its rank and its suit are picked."""
    form = TargetForm()
    # A refused pick stays on the picker as the player set it, with the reason below it (the summary
    # above says what is stored): put back, it would turn the next tap of a suit into a card the
    # player never picked, and a tap already queued on the old picker would be dropped.
    control = {"kind": "target", "slot": "target"}
    if form.validate_on_submit():
        if form.card() is None:
            return make_response("", 204)  # a rank without a suit yet: nothing to save
        control["slot"] = f"target-{parse_card(form.card()).suit}"  # under the row of the card tapped
    return _tap(number, seat, form, lambda form: taps.set_target(
        g.game, g.viewer, number, seat, parse_card(form.card()).code, form.based_on.data, with_next=True), control)


@bp.post("/hands/<int:seat>/mode")
@allow(CREW, TABLE)
@quick
def mode_update(number, seat):
    """Quick or exact entry for this one hand."""
    form = ModeForm()
    if not form.validate_on_submit():
        return _refused(number, seat_in_range(seat), first_error(form), {"kind": "none", "slot": "mode"}, 422)
    return _hand_change(number, seat, "mode", lambda: taps.set_hand_mode(
        g.game, g.viewer, number, seat, form.mode.data), redraw.blocks("mode"))


@bp.post("/hands/<int:seat>/remaining")
@allow(CREW, TABLE)
@quick
def remaining_create(number, seat):
    """Give this pile every card that nobody holds yet (exact entry)."""
    return _hand_change(number, seat, "done", lambda: taps.give_remaining(g.game, g.viewer, number, seat),
                        redraw.blocks("rest"))


def _hand_change(number, seat, slot, apply, blocks):
    """A change to a whole hand (its entry mode, the rest of the cards): the `blocks` it changes
    are drawn again; a refusal is said next to the `slot` control."""
    seat = seat_in_range(seat)
    try:
        entry, problems = apply()
    except NotOpen as gone:
        return not_open(number, gone)
    except Refused as refused:
        return _refused(number, seat, refused.sentence, {"kind": "none", "slot": slot}, refused.status)
    view = service.round_view(g.game, entry, g.viewer, seat, problems)
    return regions(view, *blocks)


@bp.post("/hands/<int:seat>/done")
@allow(CREW, TABLE)
@quick
def hand_done(number, seat):
    """Mark a hand as all in (or open it again); the fourth "all in" saves the round."""
    seat = seat_in_range(seat)
    form = DoneForm()
    form.validate_on_submit()
    try:
        entry = service.mark_done(g.game, g.viewer, number, seat, form.done.data != "0")
    except NotOpen as gone:
        return not_open(number, gone)
    except Refused as refused:
        return _refused(number, seat, refused.sentence, {"kind": "none", "slot": "done"}, refused.status)
    view = service.round_view(g.game, entry, g.viewer, seat)
    if not view.entering:
        load(g.game["id"])  # the game as this save left it: over, perhaps
        ended = _where_the_table_went(view)
        return see_other(ended) if ended else page(view)
    return regions(view, *redraw.blocks("done"))


# --- The round as a whole -----------------------------------------------------------------------

@bp.post("/bid")
@allow(CREW, TABLE)
@quick
def bid_update(number):
    """The bid, sent with every choice: saved once the winner, the number and the suit are all chosen."""
    form = BidForm()
    if not all(request.form.get(name) for name in ("bidder", "number", "suit")):
        return make_response("", 204)  # not all three chosen yet: nothing to save
    if form.validate_on_submit():
        try:
            service.set_bid(g.game, number, int(form.bidder.data), form.number.data, form.suit.data)
        except NotOpen as gone:
            return not_open(number, gone)
        except Refused as refused:
            form.number.errors.append(refused.sentence)
    view = view_of(number, tab_arg())
    if form.errors:
        return regions(view, *redraw.blocks("bid form"), status=422, bid_form=form)
    # The form stays open as the player has it, the first bid too: folded under a thumb still
    # tapping, it would move the hands below it up, and the next tap would land on a count. A form
    # that showed a refusal is drawn again, open, without it.
    if request.form.get("refused"):
        return regions(view, *redraw.blocks("bid form"), bid_open=True)
    return regions(view, *redraw.blocks("bid"))


@bp.post("/redeal")
@allow(CREW, TABLE)
@quick
def redeal_create(number):
    try:
        entry, same_dealer = service.redeal(g.game, g.viewer, number)
    except NotOpen as gone:
        return not_open(number, gone)
    except Refused as refused:  # said under the redeal button
        return regions(view_of(number, tab_arg()), *redraw.blocks("bid form"), status=refused.status,
                       notice=refused.sentence)
    again = "same dealer" if same_dealer else "the deal moves on"
    view = service.round_view(g.game, entry, g.viewer, tab_arg())
    return regions(view, *redraw.blocks("bid form"), notice=f"Everyone passed: {again}, deal again and bid.")


@bp.post("/save")
@allow(CREW, TABLE)
@quick
def round_save(number):
    form = SaveForm()
    if not form.validate_on_submit():
        return regions(view_of(number), *redraw.blocks("save refused"), status=422,
                       save_message="Reload the page and save again.")
    try:
        problems = service.save(g.game, g.viewer, number, form.version.data, form.singles.data)
    except NotOpen as gone:
        return not_open(number, gone)
    except Refused as refused:
        if refused.field == "save":  # said beside the button, as the round's own problems are
            return regions(view_of(number), *redraw.blocks("save refused"), status=refused.status,
                           save_message=refused.sentence)
        return regions(view_of(number, tab_arg()), *redraw.blocks("save refused in the bar"),
                       status=refused.status, bar_text=refused.sentence)
    if problems:
        return regions(view_of(number, tab_arg(), problems), *redraw.blocks("save refused"), status=422, tried_save=True,
                        save_message="This round cannot be saved yet: fix the problems listed here.")
    # "Round N saved." goes with the scoreboard's address, not in a flash: a flash would write
    # the session cookie here and again where the scoreboard shows it, for every round saved.
    return see_other(url_for("games.game_show", token=g.token, game_id=g.game["id"], saved=number))

