"""Smoke tests in WebKit and Firefox through Selenium (a package, so that its steps module does not clash with another test folder's)."""
