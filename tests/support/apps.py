"""Apps for tests, cheap to make: every test gets its own app on its own database file, but
the schema is migrated once (a template file copied per test) and each template is compiled once
(Jinja's bytecode cache, shared by every app in the test run)."""
import atexit
import shutil
import tempfile
from pathlib import Path

from jinja2 import BytecodeCache
from werkzeug.routing.rules import Rule

import store
from app import Orchard, create_app
from support.in_process_restore import restore_in_process

CONFIG = {"TESTING": True, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False}


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates kept in memory, keyed by Jinja on the template's name and source (an
    edited template is compiled again)."""

    def __init__(self):
        self.compiled = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = bucket.bytecode_to_string()


def share_compiled_templates():
    """Every app made from now on in this process (by create_app, directly or not) compiles each
    template once for all: Flask passes the class's `jinja_options` to Jinja; and each URL rule's
    builder once for all (see share_compiled_url_rules). A restore stages its file in a thread,
    not a child process (support/in_process_restore.py)."""
    Orchard.jinja_options = {**Orchard.jinja_options, "bytecode_cache": MemoryBytecodeCache()}
    share_compiled_url_rules()
    restore_in_process()


def share_compiled_url_rules():
    """Werkzeug compiles two URL builders per rule for each new app, through Python's `ast` (about
    three quarters of what making an app costs). A builder is a function of the rule's parts and
    defaults only (it takes the rule itself as an argument), so apps with the same rules can share
    them."""
    original = Rule._compile_builder
    if getattr(original, "shared", False):
        return
    compiled = {}

    def shared_builder(rule, append_unknown=True):
        key = (rule.rule, rule.subdomain, rule.host, tuple(rule._trace),
               repr(sorted((rule.defaults or {}).items())), append_unknown)
        if key not in compiled:
            compiled[key] = original(rule, append_unknown)
        return compiled[key]

    shared_builder.shared = True
    Rule._compile_builder = shared_builder


_template = None


def fresh_database(path):
    """An empty database at `path`, already migrated: a copy of one migrated once per process."""
    global _template
    if _template is None:
        folder = tempfile.mkdtemp(prefix="orchard-template-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _template = Path(folder) / "orchard.db"
        store.migrate(_template)
    shutil.copy(_template, path)
    return path


def make_app(path, **config):
    """An app on the database file at `path` (migrated from a template when it does not exist)."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh_database(path)
    return create_app({**CONFIG, "DATABASE": str(path), **config})
