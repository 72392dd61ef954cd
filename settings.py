"""Every setting Orchard reads from the environment, declared once: its name, its default, how its
text is read, and what it means. The app, the security layer and the server read their settings
here and nowhere else; the README's settings table is checked against this list
(tests/test_settings.py), so the two cannot drift apart.

A value that cannot be read stops the start with one sentence naming the setting (SettingError).
"""
import os
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urlsplit


class SettingError(ValueError):
    """A setting's value cannot be read; the message names the setting and says what it takes."""


def cores():
    """The processor cores this process may run on (a container or `taskset` may allow fewer than
    the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _whole(name, text):
    text = text.strip()
    if not text.isdigit() or int(text) < 1:
        raise SettingError(f"{name} must be a whole number above 0, not {text[:40]!r}.")
    return int(text)


def _text(name, text):
    return text.strip() or None


def _flag(name, text):
    return text.strip() == "1"


def _per_minute(name, text):
    text = text.strip()
    if not text.isdigit() or int(text) < 1:
        raise SettingError(f"{name} must be a whole number of tries a minute, such as 30, not {text[:40]!r}.")
    return f"{int(text)} per minute"


def _public_url(name, text):
    """An http(s) address a phone could open, without a trailing slash."""
    value = text.strip()
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise SettingError(f"{name} must be an address such as https://orchard.example.org, not {value!r}")
    return value.rstrip("/")


def _limit(name, text):
    """A rate such as "30 per hour" (the `limits` library's notation)."""
    from limits import parse

    value = text.strip()
    try:
        parse(value)
    except ValueError:
        raise SettingError(f"{name} must be a rate such as 30 per hour, not {value[:40]!r}.") from None
    return value


@dataclass(frozen=True)
class Setting:
    name: str
    default: str | None  # the text an unset variable stands for; None: unset means off
    read: Callable[[str, str], object]
    meaning: str
    shown_default: str | None = None  # what the docs show when the default depends on the machine


SETTINGS = (
    Setting("PORT", "5000", _whole, "port to listen on"),
    Setting("HOST", "0.0.0.0", _text, "interface to listen on (`127.0.0.1`: this device only)"),
    Setting("ORCHARD_DATABASE", "instance/orchard.db", _text,
            "the one SQLite file, relative to the working directory; its key and backups live beside it"),
    Setting("ORCHARD_PUBLIC_URL", None, _public_url,
            "the address phones use to reach the server, e.g. `https://orchard.example.org`: crew links "
            "and QR codes are built from it"),
    Setting("ORCHARD_PASSPHRASE", None, _text, "when set, starting or restoring a crew asks for this passphrase"),
    Setting("ORCHARD_GUESS_LIMIT", "30", _per_minute,
            "not-found answers a minute one address may get before it is answered 429"),
    Setting("ORCHARD_CREW_LIMIT", "30 per hour", _limit,
            "crews one address may start or restore (a restore counts while it runs; a refused file does not count)"),
    Setting("ORCHARD_SECURE_COOKIES", None, _flag, "`1` marks the session cookie `Secure` (behind HTTPS)"),
    Setting("ORCHARD_TRUSTED_PROXY", None, _text,
            "address of the reverse proxy whose `X-Forwarded-For`, `-Proto` and `-Host` are believed"),
    Setting("ORCHARD_WORKERS", str(cores()), _whole,
            "processes running the app, sharing the port and the database", shown_default="one per core"),
    Setting("ORCHARD_THREADS", "2", _whole,
            "threads per process running the app's slower pages (uploads, exports, the history): a "
            "second keeps a process answering while one waits; a table's polls, taps and saves run on "
            "the process's event loop (web/quick.py); more cost CPU"),
    Setting("ORCHARD_CONNECTION_LIMIT", "2000", _whole,
            "open connections held at once over all processes: a phone keeps one open between polls, "
            "so this is 1,000 phones with a spare each; more wait in the system's queue"),
    Setting("ORCHARD_CHANNEL_TIMEOUT", "20", _whole,
            "seconds a connection may take to send a request's headers, and again before its body must "
            "keep arriving at 64 KB a second (a body that falls behind, or sends nothing, is cut off "
            "with 408); an idle keep-alive connection closes after as long"),
    Setting("ORCHARD_BODIES_PER_ADDRESS", "4", _whole,
            "request bodies one address may have still arriving a second after their headers, over all "
            "the processes (a restore upload, a slow form); one more is answered 429, so one address "
            "cannot hold the connections"),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}


def read(name, environ=None):
    """One setting's value from the environment (os.environ unless given), or its default."""
    setting = BY_NAME[name]
    environ = os.environ if environ is None else environ
    text = environ.get(name)
    if text is None or not text.strip():
        text = setting.default
    if text is None:
        return setting.read(name, "")
    return setting.read(name, text)

