"""m0024: the stage clock (issue 47, item 6): when a club night's stage ends by the clock
(`ends_at`, UTC, ISO 8601 to the second; NULL: the stage has no clock)."""
from . import migrations


@migrations()
def m0024_stage_clock(db):
    db.execute("ALTER TABLE club_night_stages ADD COLUMN ends_at TEXT")
