"""What happens to a saved round: a player's sign-off, a correction
(opened and dropped), undo and bringing an undone round back."""
from flask import abort, flash, g, url_for

from web.access import CREW, TABLE, allow
from services import corrections
from services import rounds as service
from services.refusals import NotOpen, Refused

from ..render import see_other
from . import redraw
from .forms import SaveForm
from .page import bp, not_open, page, regions, tab_arg, view_of


@bp.post("/agree")
@allow(CREW, TABLE)
def round_agree(number):
    """A seated player agrees to their own score in a saved round; agreeing again changes nothing."""
    try:
        service.agree(g.game, g.viewer, number)
    except Refused as refused:
        return page(view_of(number), status=refused.status, notice=refused.sentence)
    return page(view_of(number))


@bp.post("/agree-correction")
@allow(CREW, TABLE)
def correction_agree(number):
    """A seated player agrees to the open correction as their phone shows it (`version`)."""
    form = SaveForm()
    if not form.validate_on_submit():
        return regions(view_of(number), *redraw.blocks("save refused"), status=422,
                       save_message="Reload the page and agree again.")
    try:
        corrections.agree(g.game, g.viewer, number, form.version.data)
    except NotOpen as gone:
        return not_open(number, gone)
    except Refused as refused:
        return regions(view_of(number), *redraw.blocks("save refused"), status=refused.status,
                       save_message=refused.sentence)
    return regions(view_of(number, tab_arg()), *redraw.blocks("agreed"))


@bp.post("/correct")
@allow(CREW, TABLE)
def correction_create(number):
    """Open a pre-filled copy of a saved round; the saved one stays until the copy is saved."""
    try:
        if not corrections.start_correction(g.game, g.viewer, number):
            abort(404)
    except Refused as refused:
        return page(view_of(number), status=refused.status, notice=refused.sentence)
    return see_other(url_for("rounds.round_show", number=number))


@bp.post("/discard")
@allow(CREW, TABLE)
def correction_discard(number):
    """Drop a correction in progress; the saved round is untouched."""
    corrections.discard_correction(g.game, g.viewer, number)
    return see_other(url_for("rounds.round_show", number=number))


@bp.post("/delete")
@allow(CREW, TABLE)
def round_delete(number):
    """Undo the last saved round; it is kept and can be brought back."""
    return _then_scoreboard(number, service.undo, f"Round {number} undone. You can bring it back from its page.")


@bp.post("/bring-back")
@allow(CREW, TABLE)
def round_bring_back(number):
    """Count an undone round again."""
    return _then_scoreboard(number, service.bring_back, f"Round {number} brought back.")


def _then_scoreboard(number, change, done):
    """Make `change` to the round and go back to the scoreboard saying `done`; a refusal stays on
    the round's page and says why."""
    try:
        change(g.game, g.viewer, number)
    except Refused as refused:
        return page(view_of(number), status=409, notice=refused.sentence)
    flash(done)
    return see_other(url_for("games.game_show", token=g.token, game_id=g.game["id"]))
