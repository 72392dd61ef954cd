"""m0022: a watch link may open a season (issue 47, item 4): the projector view and the standings
its QR code hands to the phones in the room, read only."""
from . import migrations


@migrations()
def m0022_season_links(db):
    db.execute("ALTER TABLE links ADD COLUMN season_id INTEGER REFERENCES seasons(id)")
