"""Where a crew's share link points: the configured public URL, else the address the server
printed at start, else the address this browser used (with a warning when that is loopback)."""
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import functools
import io

import segno
from flask import current_app, request


@dataclass(frozen=True)
class ShareLink:
    url: str
    # True when the link names this machine (localhost, 127.0.0.1, ::1): other phones cannot open it.
    this_device_only: bool

    @property
    def host(self):
        return urlsplit(self.url).netloc


def is_loopback(host):
    """Whether `host` (a name or an IP, without port or brackets) means "this machine"."""
    host = (host or "").strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address():
    """This machine's address on the local network (127.0.0.1 when it has none)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def server_address(host, port, lan=lan_address):
    """The address the phones should open for a server listening on `host`:`port`."""
    if host in ("", "0.0.0.0", "::"):
        host = lan()
    shown = f"[{host}]" if ":" in host else host
    return ShareLink(f"http://{shown}:{port}", this_device_only=is_loopback(host))


def startup_message(address, public_url=None):
    """The line `orchard serve` prints: where to point the phones."""
    if public_url:
        return f"Orchard is up at {address.url}/. Crew links and QR codes use {public_url}/."
    if address.this_device_only:
        return (
            f"Orchard is up at {address.url}/ but only this device can open it: "
            "set HOST=0.0.0.0 (or ORCHARD_PUBLIC_URL) for the phones at the table."
        )
    return f"Orchard is up. Open {address.url}/ on the phones at the table (same Wi-Fi)."


def share_link(path):
    """The absolute link to `path` that the other phones should open."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return ShareLink(public + path, this_device_only=is_loopback(urlsplit(public).hostname))
    if not is_loopback(urlsplit(request.host_url).hostname):
        return ShareLink(request.host_url.rstrip("/") + path, this_device_only=False)
    printed = current_app.config.get("LAN_URL")
    if printed and not is_loopback(urlsplit(printed).hostname):
        return ShareLink(printed + path, this_device_only=False)
    return ShareLink(request.host_url.rstrip("/") + path, this_device_only=True)


# Codes drawn at once: a night's tables and its big screen, the crew link; a game's table link
# when "Bring another phone" is opened.
QR_CODES_KEPT = 256


@functools.lru_cache(maxsize=QR_CODES_KEPT)
def qr_svg(url, scale=3, standalone=False):
    """A link's QR code as SVG, drawn once per link: 5-36 ms a code, so redrawing ten tables'
    codes on every leaderboard poll that changed made a night's polls 20 times dearer. Inline in a
    page, or `standalone`, a file of its own (an image's source: it names SVG's namespace)."""
    code = segno.make(url, error="m")
    if not standalone:
        return code.svg_inline(scale=scale, dark="#000", light="#fff", omitsize=True)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, nl=False, scale=scale, dark="#000", light="#fff",
              omitsize=True)
    return out.getvalue()
