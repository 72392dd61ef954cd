# `make run` serves the app; `make test` runs the whole suite. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test chromium clean

$(INSTALLED): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(INSTALLED)

# The browser tests drive Debian's chromium: Playwright's own download cannot work here.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-dejavu-core; }

run: $(INSTALLED)
	$(BIN)/python app.py

test: $(INSTALLED) chromium
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) instance test-artifacts .pytest_cache .hypothesis
