"""The crew's records, each linking to the round it came from."""
from web.access import CREW, allow
from services import records as record_service

from . import bp
from ..lookup import load_crew
from ..render import render


@bp.get("/c/<token>/records")
@allow(CREW)
def records_show(token):
    crew = load_crew(token)
    records = record_service.crew_records(crew["id"])
    return render("history/records.html", crew=crew, records=records.best,
                  recent_fours=records.recent_fours)
