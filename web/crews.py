"""Starting a crew, the crew's home page with its join QR code, and remembered crews."""
from flask import Blueprint, abort, current_app, flash, make_response, request, session, url_for
from flask_wtf import FlaskForm
from wtforms import IntegerField, PasswordField, RadioField, SelectChoice, StringField
from wtforms.fields.core import UnboundField
from wtforms.validators import InputRequired, NumberRange, Optional

from web.access import CREW, PUBLIC, allow
from web import security
from scoring import MAX_BID, MAX_GOAL, HouseRules
from scoring.game import RULE_NAMES
from web.fields import BID_RANGE, check_name
from web.share_links import qr_svg, share_link
from services import crews as crew_service
from services import links as link_service
from services.games import house_rules

from .lookup import forget_crew, load_crew
from .render import render, see_other, wants_fragment

bp = Blueprint("crews", __name__)


class CrewForm(FlaskForm):
    name = StringField("Crew name", validators=[check_name])
    # Asked only when the server has a passphrase (ORCHARD_PASSPHRASE), checked in the view.
    passphrase = PasswordField("Server passphrase")


class HouseRulesForm(FlaskForm):
    """The house rules: a crew's defaults, and the same fields on each new game. Each rule but the
    goal (two fields: a choice and "Other") is one field named as the engine's `HouseRules` names
    it, a yes/no rule a "no"/"yes" choice: a new rule is a field here and one in the engine; the
    pages draw them in this order (`rules`)."""

    goal = RadioField(
        "Play to",
        choices=[SelectChoice("250"), SelectChoice("500", "500 (long game)"), SelectChoice("other", "Other")],
        default="250",
    )
    goal_other = IntegerField(
        "Other goal",
        validators=[Optional(), NumberRange(min=1, max=MAX_GOAL, message=f"Pick a goal from 1 to {MAX_GOAL}.")],
    )
    tie_rule = RadioField(
        "A tie at the top when the game ends",
        choices=[SelectChoice("play-on", "Play on (rule book)"), SelectChoice("shared", "Shared win")],
        default="play-on",
    )
    min_bid = IntegerField(
        "Lowest bid number allowed",
        default=1,
        render_kw={"inputmode": "numeric", "min": 1, "max": MAX_BID},
        validators=[
            InputRequired("Enter the lowest bid number."),
            NumberRange(min=1, max=MAX_BID, message=BID_RANGE),
        ],
    )
    redeal_moves_deal = RadioField(
        "After four passes",
        choices=[SelectChoice("no", "Same dealer deals again (rule book)"), SelectChoice("yes", "The deal moves on")],
        default="no",
    )

    def rules(self):
        """The fields of the rules besides the goal, in their order on the page."""
        return [self[name] for name in RULES]

    def fill(self, rules):
        """Pre-fill from a HouseRules value (unless the form was posted)."""
        if self.is_submitted():
            return self
        standard = str(rules.goal) in ("250", "500")
        self.goal.data = str(rules.goal) if standard else "other"
        self.goal_other.data = None if standard else rules.goal
        for name in RULES:
            value = getattr(rules, name)
            self[name].data = ("yes" if value else "no") if isinstance(value, bool) else value
        return self

    def house_rules(self):
        """The rules as the engine's value."""
        goal = int(self.goal.data) if self.goal.data != "other" else self.goal_other.data
        book = HouseRules()
        return HouseRules(goal=goal, **{
            name: self[name].data == "yes" if isinstance(getattr(book, name), bool) else self[name].data
            for name in RULES})

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        if self.goal.data == "other" and self.goal_other.data is None and not self.goal_other.errors:
            self.goal_other.errors.append("Enter the number of points to play to.")
            ok = False
        return ok


RULES = tuple(name for name, value in vars(HouseRulesForm).items()
              if isinstance(value, UnboundField) and name in RULE_NAMES and name != "goal")


@bp.get("/")
@allow(PUBLIC)
def home():
    # Launched from the home screen (the manifest's start_url): the crew this phone used last.
    remembered = session.get("crews", [])
    if request.args.get("source") == "pwa" and remembered:
        return see_other(url_for("crews.crew_show", token=remembered[0][0]))
    return render("crews/home.html", form=CrewForm(), remembered=session.get("crews", []))



@bp.post("/crews")
@allow(PUBLIC)
def crew_create():
    form = CrewForm()
    valid = form.validate_on_submit()
    refusal = security.passphrase_refusal(form.passphrase.data)
    if refusal:
        status = refusal.status
        form.passphrase.errors = [refusal.sentence]
        return render(
            "crews/home.html", "crew_form", status=status, form=form,
            remembered=session.get("crews", []),
        )
    if not valid:
        return render(
            "crews/home.html", "crew_form", status=422, form=form,
            remembered=session.get("crews", []),
        )
    if not security.new_crew_allowed():
        form.name.errors = [security.TOO_MANY_CREWS]
        return render(
            "crews/home.html", "crew_form", status=429, form=form,
            remembered=session.get("crews", []),
        )
    crew = crew_service.start(form.name.data)
    return see_other(url_for("crews.crew_show", token=crew["token"]))


@bp.get("/c/<token>/")
@allow(CREW)
def crew_show(token):
    crew = load_crew(token)
    return _crew_page(crew, HouseRulesForm().fill(house_rules(crew)))


@bp.get("/c/<token>/live")
@allow(CREW)
def crew_live(token):
    """The crew's games again, only when the list changed since the version the phone shows."""
    crew = load_crew(token)
    if request.args.get("v") == crew_service.games_version(crew["id"]):
        return make_response("", 204)
    return _crew_page(crew, HouseRulesForm().fill(house_rules(crew)), block="games_list")


@bp.post("/c/<token>/rotate")
@allow(CREW)
def crew_link_rotate(token):
    """A new link for the crew: the old one (and its QR code) stops working at once."""
    crew = load_crew(token)
    new_token = crew_service.new_link(crew["id"])
    forget_crew(token)
    flash("The crew has a new link: the old one no longer works. Show this QR code to the others.")
    return see_other(url_for("crews.crew_show", token=new_token))


@bp.post("/c/<token>/links/<int:link_id>/replace")
@allow(CREW)
def link_replace(token, link_id):
    """A new token for one table or watch link: the old one stops working at once."""
    crew = load_crew(token)
    if not link_service.replace(current_app.secret_key, crew["id"], link_id):
        abort(404)
    said = "That link was replaced: the old one no longer works."
    if wants_fragment():  # the list again, in place, with the sentence at its top
        return _crew_page(crew, HouseRulesForm().fill(house_rules(crew)), block="links", links_notice=said)
    flash(said)
    return see_other(url_for("crews.crew_show", token=token) + "#links")


@bp.post("/c/<token>/house-rules")
@allow(CREW)
def house_rules_update(token):
    """Change the crew's house rules: the next games follow them, recorded games keep theirs."""
    crew = load_crew(token)
    form = HouseRulesForm()
    if not form.validate_on_submit():
        return _crew_page(crew, form, status=422, block="house_rules")
    crew_service.set_house_rules(crew["id"], form.house_rules())
    flash("House rules saved. New games follow them; games already started keep their own.")
    return see_other(url_for("crews.crew_show", token=token))


def _crew_page(crew, rules_form, status=200, block=None, links_notice=None):
    # The link is rebuilt from the token this request came in by: the store keeps only its hash.
    link = share_link(url_for("crews.crew_show", token=crew["token"]))
    qr = qr_svg(link.url, scale=4)
    home = crew_service.home(crew["id"])
    return render(
        "crews/show.html",
        block,
        status=status,
        rules_form=rules_form,
        crew=crew,
        link=link,
        qr=qr,
        games=home.games,
        games_version=home.games_version,
        players=home.players,
        links_notice=links_notice,
        links=[] if block not in (None, "links") else [{**item, "url": share_link(_opens(item)).url}
                                                          for item in link_service.of_crew(current_app.secret_key, crew["id"])],
    )


def _opens(link):
    """The page a table or watch link opens: its game's, its night's or its season's."""
    if link["game_id"]:
        return url_for("games.game_show", token=link["token"], game_id=link["game_id"])
    if link["season_id"]:
        return url_for("seasons.season_show", token=link["token"], season_id=link["season_id"])
    return url_for("club_nights.night_board", token=link["token"], night_id=link["night_id"])
