"""The schema, as numbered migrations: a landed migration is never edited, only followed. They are
applied in the order they are registered: the modules below, in this order."""
import sqlite_utils

migrations = sqlite_utils.Migrations("orchard")

from . import schema, results, live, club_nights, links  # noqa: E402,F401  (each registers its migrations, in order)
from . import names  # noqa: E402,F401  (m0013, after the others)
