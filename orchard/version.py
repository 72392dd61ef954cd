"""Orchard's version: the newest entry of CHANGELOG.md (tests/test_version.py holds them together)."""
__version__ = "2.0.0"
