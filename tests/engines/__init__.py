"""Smoke tests in WebKit and Firefox through Selenium (a package: its steps module is not tests/browser/steps.py)."""
