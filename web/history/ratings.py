"""The crew's skill ratings: the ladder, and switching ratings on or off for the crew."""
from flask import flash, url_for

from web.access import CREW, allow
from scoring import ratings
from services import ratings as rating_service

from . import bp
from .forms import RatingsSettingForm
from ..lookup import load_crew
from ..render import render, see_other


@bp.get("/c/<token>/ladder")
@allow(CREW)
def ladder_show(token):
    crew = load_crew(token)
    return ladder_page(crew, RatingsSettingForm(formdata=None))


def ladder_page(crew, form, status=200):
    ladder = rating_service.ladder(crew)
    return render(
        "history/ladder.html",
        status=status,
        crew=crew,
        rated=ladder.rated,
        unrated=ladder.unrated,
        shown_after=ratings.SHOWN_AFTER,
        careful_sigmas=ratings.CAREFUL_SIGMAS,
        form=form,
    )


@bp.post("/c/<token>/ladder/setting")
@allow(CREW)
def ratings_setting_update(token):
    """Ratings on or off for the whole crew: only what the pages show changes."""
    crew = load_crew(token)
    form = RatingsSettingForm()
    if not form.validate_on_submit():
        return ladder_page(crew, form, status=422)
    enabled = form.ratings.data == "on"
    rating_service.switch(crew["id"], enabled)
    flash("Ratings are on." if enabled else "Ratings are off: no page shows them until they are on again.")
    return see_other(url_for("history.ladder_show", token=token))


@bp.app_template_filter("rating_words")
def rating_words(change):
    return ratings.in_words(change.mu, change.sigma, change.games)


@bp.app_template_filter("signed")
def signed(delta):
    return ratings.signed(delta)
