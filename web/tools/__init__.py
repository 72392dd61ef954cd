"""Settling disputes at the table: what a pile is worth, who wins a trick, whether a bid is legal,
what a saved round would have scored had one thing been different, and the rules themselves.

Every tool is a read-only GET page whose address holds the whole question, so a link reproduces
the answer; each tap is a link to the next address, answered with the page or just its tool block.
Every rule comes from `scoring`: this module only reads the question and says what the engine says.
"""
from flask import Blueprint

bp = Blueprint("tools", __name__)

# The routes live in one module per tool; importing them registers them on the blueprint.
from . import bid, pile, rules, trick, what_if  # noqa: E402,F401
