"""A round's URLs, one blueprint: `entry` while it is entered, `saved` once it is saved; `page`
holds what both draw with."""
from . import entry, saved  # noqa: F401  (their routes join the blueprint)
from .page import bp  # noqa: F401
