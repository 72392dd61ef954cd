"""The crew's records, each linking to the round it came from."""
from orchard.store import records as record_store

from . import bp
from ..lookup import load_crew
from ..render import render


@bp.get("/c/<token>/records")
def records_show(token):
    crew = load_crew(token)
    return render("history/records.html", crew=crew, records=record_store.records(crew["id"]),
                  recent_fours=record_store.RECENT_FOURS)
