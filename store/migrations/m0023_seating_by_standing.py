"""m0023: competitive club nights (issue 47, item 5): a night's tables made of players of similar
standing (`seating` 'standing'; 'mixed' is the draw that mixes tablemates), stage 1 by a season's
standings (`season_id`), and each stage's record of how its tables were made (`made`, JSON: which
standings, and each table's places in them as drawn)."""
from . import migrations


@migrations()
def m0023_seating_by_standing(db):
    db.execute("ALTER TABLE club_nights ADD COLUMN seating TEXT NOT NULL DEFAULT 'mixed'")
    db.execute("ALTER TABLE club_nights ADD COLUMN season_id INTEGER REFERENCES seasons(id)")
    db.execute("ALTER TABLE club_night_stages ADD COLUMN made TEXT")
