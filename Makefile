# `make run` serves the app; `make test` runs the whole suite; `make check` runs the fast tier
# (all but the browser, engine, fuzz, crash, served and slow tests) and prints its time. All set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
INSTALLED_TEST := $(VENV)/.installed-test
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test check browsers clean pictures bench

# `make run` installs only what the app needs; `make test` adds the test stack on top.
$(INSTALLED): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(INSTALLED)

$(INSTALLED_TEST): $(INSTALLED) requirements-test.txt
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	touch $(INSTALLED_TEST)

# The browser tests drive Debian's browsers (Playwright's own download cannot work here):
# chromium-headless-shell for the browser suite (chromium's own build in its old headless mode,
# about half the CPU), chromium itself for its `full_chromium` tests, and for the smoke set in more
# engines (tests/engines) WebKitGTK's WebKitWebDriver under Xvfb and Firefox ESR; and systemd-analyze
# (package systemd), which tests/test_systemd_unit.py runs on docs/orchard.service. Whatever is
# missing comes in one apt-get run.
BROWSER_PACKAGES := chromium chromium-headless-shell fonts-dejavu-core webkit2gtk-driver xvfb firefox-esr systemd
browsers:
	@{ command -v chromium && command -v chromium-headless-shell && command -v WebKitWebDriver && command -v Xvfb && command -v firefox-esr && command -v systemd-analyze; } >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(BROWSER_PACKAGES); }

run: $(INSTALLED)
	$(BIN)/orchard serve

# Python may keep compiled modules (and pytest its rewritten tests) in __pycache__: a shell that
# sets PYTHONDONTWRITEBYTECODE would have every test process, server and command compile them all
# again (about 0.4 s a child process, 7 s a test process's collection).
export PYTHONDONTWRITEBYTECODE :=

# The tests' files (every test's database, the browsers' profiles) go to a memory file system
# when there is one with room (/dev/shm, 4 GB free or more; else TMPDIR as it is): a save's fsync
# and a connection's last close cost 0.4 and 5 ms on this machine's disk, nothing there, and no
# test needs what a disk keeps beyond that (a killed server's saves are in the page cache either way).
TEST_TMPDIR := $(shell df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 && $$4 >= 4194304 {print "/dev/shm"}')
TESTS_ENV := $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR))

# Every test, one process per core and one more (pytest-xdist; `worksteal` hands a finished
# process tests queued on another, so the longest tests do not end the run alone). With one a
# core, the cores stood idle 17 % of the run while tests waited on real servers' timeouts and on
# the browsers' answers; with one more, 5 %, and a clone's run took 394 s, not 430 (two
# more: 1 % idle, 416 s, the CPU going to switching). It prints its time.
TEST_PROCESSES := $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
test: $(INSTALLED_TEST) browsers
	$(BIN)/lint-imports
	$(BIN)/ruff check --quiet
	@start=$$(date +%s); \
	$(TESTS_ENV) $(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist worksteal; status=$$?; \
	echo "make test: $$(( $$(date +%s) - start )) s"; exit $$status

# Meant to finish in under a minute (one test process per core, pytest-xdist): run it before every
# commit, and `make test` before a push. Property tests try fewer examples here (tests/support/profiles.py).
check: $(INSTALLED_TEST)
	$(BIN)/lint-imports
	$(BIN)/ruff check --quiet
	@start=$$(date +%s); \
	$(TESTS_ENV) ORCHARD_TESTS=check $(BIN)/python -m pytest -q -n auto --ignore=tests/browser --ignore=tests/engines \
	  -m "not browser and not fuzz and not crash and not engines and not served and not slow"; status=$$?; \
	echo "make check: $$(( $$(date +%s) - start )) s"; exit $$status

# Every benchmark at its own default size, one after the other (about ten minutes): each prints
# its figures against a floor measured in the same run and a PASS/FAIL line (bench/README.md).
# `make test` runs each one small (tests/test_bench_smoke.py), so a bench that breaks is noticed.
BENCHES := tap_cost server_bench page_weight taps restore_bench history_bench ratings_bench hostile_client \
	draw_contention load_night seating tap_paint season_bench
bench: $(INSTALLED_TEST) browsers
	@status=0; for script in $(BENCHES); do echo "== bench/$$script.py"; \
		$(BIN)/python bench/$$script.py || status=1; echo; done; exit $$status

# The README's phone pictures (docs/pictures/), taken by the browser tests that show those pages.
pictures: $(INSTALLED_TEST) browsers
	mkdir -p docs/pictures
	ORCHARD_PICTURES=docs/pictures $(BIN)/python -m pytest -q tests/browser/test_full_game_quick.py \
		"tests/browser/test_club_night.py::test_nine_players_three_stages_two_tables_and_a_live_leaderboard"

clean:
	rm -rf $(VENV) instance test-artifacts .pytest_cache .hypothesis
