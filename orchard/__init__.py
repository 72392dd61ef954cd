"""Orchard, the score keeper for Apples. The layers, lowest first (docs/architecture.md):
`scoring` (the rules: pure), `store` (SQL), `services` (what the app does, the store's only
callers), `web` (pages and forms), and on top `app` (the Flask app), `serving` and `cli`."""
from orchard.version import __version__  # noqa: F401
