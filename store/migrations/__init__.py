"""The schema, as numbered migrations: one file a migration, `mNNNN_what.py`, each registering one
function of the same name. A landed migration is never edited, only followed; they are found here
and applied in the order of their numbers (a new one is the next file, nothing else to edit)."""
import importlib
import pkgutil
import re

import sqlite_utils

migrations = sqlite_utils.Migrations("orchard")

NUMBERED = re.compile(r"^m\d{4}_\w+$")
FILES = sorted(module.name for module in pkgutil.iter_modules(__path__) if NUMBERED.match(module.name))
for _name in FILES:
    importlib.import_module(f"{__name__}.{_name}")  # registers its migration on `migrations`
