"""A crew's history: game nights and search, each game as recorded, players' numbers and
head-to-heads, charts, and export and restore.

Every page asks a service (`services.history`, `players`, `ratings`, `records`, `transfer`) and
is drawn by `charts` (server-side SVG); every rule still comes from `scoring`.
"""
from flask import Blueprint

bp = Blueprint("history", __name__)

# The routes live in one module per concern; importing them registers them on the blueprint.
from . import common, game, nights, players, ratings, records, transfer  # noqa: E402,F401
