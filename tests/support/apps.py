"""Apps for tests, cheap to make: every test gets its own app on its own database file, but
the schema is migrated once (a template file copied per test) and each template is compiled once
(Jinja's bytecode cache, shared by every app in the test run)."""
import atexit
import os
import shutil
import tempfile
import threading
from pathlib import Path

from jinja2 import BytecodeCache
from werkzeug.routing import Map
from werkzeug.routing.matcher import StateMachineMatcher
from werkzeug.routing.rules import Rule

import store
import store.limits
from app import Orchard, create_app
from support.in_process_restore import restore_in_process

CONFIG = {"TESTING": True, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False}


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates kept in memory, keyed by Jinja on the template's name and checked against
    its source (an edited template is compiled again)."""

    def __init__(self):
        self.compiled = {}

    def load_bytecode(self, bucket):
        checksum, code = self.compiled.get(bucket.key, (None, None))
        if checksum == bucket.checksum:  # code objects cannot change: every app shares them
            bucket.code = code

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = (bucket.checksum, bucket.code)


def share_compiled_templates():
    """Every app made from now on in this process (by create_app, directly or not) compiles each
    template once for all: Flask passes the class's `jinja_options` to Jinja; and each URL rule
    once for all (see share_compiled_url_rules). A restore stages its file in a thread,
    not a child process (support/in_process_restore.py). An app on a new file starts from a copy of
    the migrated one, and its limits file from a copy too (see start_new_files_migrated)."""
    Orchard.jinja_options = {**Orchard.jinja_options, "bytecode_cache": MemoryBytecodeCache()}
    share_compiled_url_rules()
    restore_in_process()
    start_new_files_migrated()


class SharedMatcherMap(Map):
    """A URL map whose matcher, the state machine a request's path is matched by (about two fifths
    of what adding an app's rules costs), is built once for all the apps of a test process with the
    same rules, in the same order, on the same map settings. Matching reads a matcher and never
    changes it; each app keeps its own rules, so building a URL is its own."""

    matchers = {}
    building = threading.Lock()

    def __init__(self, *args, **kwargs):
        self.matched = []  # the rules a request can match, in the order they were added
        super().__init__(*args, **kwargs)

    def add(self, rulefactory):
        for rule in rulefactory.get_rules(self):
            rule.bind(self)
            if not rule.build_only:
                self.matched.append(rule)
            self._rules_by_endpoint.setdefault(rule.endpoint, []).append(rule)
        self._remap = True

    def update(self):
        if not self._remap:
            return
        with self._remap_lock:
            if not self._remap:
                return
            self._matcher = self._shared_matcher()
            for rules in self._rules_by_endpoint.values():
                rules.sort(key=lambda rule: rule.build_compare_key())
            self._remap = False

    def _shared_matcher(self):
        rules = self.matched
        key = (self.merge_slashes, self.host_matching, tuple(sorted(self.converters.items())),
               tuple((rule.rule, rule.endpoint, tuple(sorted(rule.methods or ())), rule.strict_slashes,
                      rule.merge_slashes, rule.websocket, repr(rule.redirect_to), rule.subdomain, rule.host,
                      repr(sorted((rule.defaults or {}).items())), rule.alias) for rule in rules))
        with self.building:
            if key not in self.matchers:
                matcher = StateMachineMatcher(self.merge_slashes)
                for rule in rules:
                    matcher.add(rule)
                matcher.update()
                self.matchers[key] = matcher
            return self.matchers[key]


def share_compiled_url_rules():
    """Werkzeug compiles each rule for each new app: it parses the rule's text into its parts (their
    regexes, the converters) and builds two URL builders through Python's `ast`. What compiling
    makes depends on the rule's text, host or subdomain, defaults and slash setting and on the
    map's converters and host matching only, and nothing changes it afterwards; the converters keep
    nothing of the map a test's app can change. So each rule is compiled once for all the apps of a
    test process, and each app's rule takes the parts, trace and converters, the arguments parsing
    adds, and the builders (bound to itself). Matching is shared too (SharedMatcherMap)."""
    original = Rule.compile
    if getattr(original, "shared", False):
        return
    compiled = {}

    def shared_compile(rule):
        key = (rule.rule, rule.subdomain, rule.host, rule.merge_slashes, rule.map.host_matching,
               tuple(sorted(rule.map.converters.items())), repr(sorted((rule.defaults or {}).items())))
        if key not in compiled:
            before = set(rule.arguments)
            original(rule)
            compiled[key] = (rule._parts, rule._trace, rule._converters, rule.arguments - before,
                             rule._build.__func__, rule._build_unknown.__func__)
            return
        parts, trace, converters, arguments, build, build_unknown = compiled[key]
        rule._parts, rule._trace, rule._converters = parts, trace, converters
        rule.arguments |= arguments
        rule._build, rule._build_unknown = build.__get__(rule, None), build_unknown.__get__(rule, None)

    shared_compile.shared = True
    Rule.compile = shared_compile
    Orchard.url_map_class = SharedMatcherMap


_template = None
_migrate = store.migrate  # the real one: what every copy was migrated by


def fresh_database(path):
    """An empty database at `path`, already migrated: a copy of one migrated once per process."""
    global _template
    if _template is None:
        folder = tempfile.mkdtemp(prefix="orchard-template-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _template = Path(folder) / "orchard.db"
        _migrate(_template)
    shutil.copy(_template, path)
    _copied[str(path)] = _stamp(path)
    return path


# Copies made by `fresh_database` and not changed since: an app made on one does not migrate it again.
_copied = {}


def _stamp(path):
    status = os.stat(path)
    return (status.st_size, status.st_mtime_ns, status.st_ino)


def start_new_files_migrated():
    """`create_app` migrates its database at start: through every migration for a file that does
    not exist yet (about a tenth of `make check`'s time when tests did it for each app they made).
    A file that does not exist starts as a copy of `fresh_database`'s, which those same migrations
    made once, and a copy nothing has changed since (its size, time and inode as copied, no journal
    beside it) is not migrated again: the real migration would find nothing to do. A file that
    exists otherwise (an older schema, a damaged file, a copy a test changed) and one that cannot be
    written are migrated as they are; tests/test_upgrade.py migrates its files from m0001."""
    if getattr(store.migrate, "from_template", False):
        return

    def migrate(path):
        if not os.path.exists(path):
            try:
                fresh_database(path)
            except OSError:  # a read-only folder: the real migration says so as it would
                pass
        stamp = _copied.pop(str(path), None)
        if stamp is not None and not any(os.path.exists(f"{path}{end}") for end in ("-wal", "-shm", "-journal")) \
                and stamp == _stamp(path):
            return  # the template's own copy, as its migration left it: nothing to do
        _migrate(path)

    migrate.from_template = True
    store.migrate = migrate
    start_new_counters_made()


def start_new_counters_made():
    """Each app also makes the file its limits count in (store/limits.py) beside its database: a
    new one starts as a copy of one the real `create` made once per process, and an existing one
    is opened by the real `create` as it would be."""
    make = store.limits.create
    template = []

    def create(path):
        if os.path.exists(path):
            return make(path)
        if not template:
            folder = tempfile.mkdtemp(prefix="orchard-limits-")
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            template.append(os.path.join(folder, "orchard-limits.db"))
            make(template[0])
        try:
            shutil.copy(template[0], path)
        except OSError:  # a folder that cannot be written: the real `create` says so as it would
            make(path)

    store.limits.create = create


def make_app(path, **config):
    """An app on the database file at `path` (migrated from a template when it does not exist)."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh_database(path)
    return create_app({**CONFIG, "DATABASE": str(path), **config})
