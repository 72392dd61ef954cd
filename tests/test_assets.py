"""Static files: versioned URLs cached for a year, htmx from its package, gzip for text."""
import gzip
import hashlib
import re
from importlib import resources
from pathlib import Path

from support.html_text import attribute, select

# The SHA-256 of dist/htmx.min.js in the htmx.org 2.0.10 release (npm htmx.org@2.0.10), which
# django-htmx 1.29.0 ships byte for byte as htmx-2.min.js. A new htmx changes it, and this test says so.
HTMX_2_0_10_SHA256 = "71ea67185bfa8c98c39d31717c6fce5d852370fcdfd129db4543774d3145c0de"


def htmx_address(client):
    return next(src for src in (s.get("src") for s in select(client.get("/"), "script[src]")) if "htmx" in src)


def test_static_urls_carry_the_file_version_and_cache_for_a_year(client):
    css = attribute(client.get("/"), 'link[rel="stylesheet"]', "href")
    assert re.fullmatch(r"/static/app\.css\?v=[0-9a-f]{12}", css)
    with client.get(css) as response:
        assert response.status_code == 200
        assert "max-age=31536000" in response.headers["Cache-Control"]
        assert "immutable" in response.headers["Cache-Control"]


def test_htmx_comes_from_the_installed_package(client):
    url = htmx_address(client)
    assert re.fullmatch(r"/vendor/htmx-[0-9.]+\.min\.js", url)
    shipped = (resources.files("django_htmx") / "static" / "django_htmx" / "htmx-2.min.js").read_bytes()
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert plain.data == shipped
    assert "Content-Encoding" not in plain.headers
    packed = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == shipped
    assert len(packed.data) < len(shipped) / 2
    assert client.get("/vendor/htmx-0.0.1.min.js").status_code == 404


def test_the_phone_gets_the_htmx_2_0_10_release_byte_for_byte(client):
    """The file served is the release's own, and its address names the version written inside it."""
    url = htmx_address(client)
    assert url == "/vendor/htmx-2.0.10.min.js"
    served = client.get(url, headers={"Accept-Encoding": "identity"}).data
    assert hashlib.sha256(served).hexdigest() == HTMX_2_0_10_SHA256
    assert b'version:"2.0.10"' in served
    assert client.get("/vendor/htmx-2.0.3.min.js").status_code == 404  # the old address is gone


def test_pages_are_gzipped_when_the_phone_accepts_it(client):
    response = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "Start a crew" in gzip.decompress(response.data).decode()
    assert "Accept-Encoding" in response.headers["Vary"]
    assert "Content-Encoding" not in client.get("/").headers


def test_a_static_file_is_compressed_once_not_on_every_request(client, monkeypatch):
    from web import assets

    css = attribute(client.get("/"), 'link[rel="stylesheet"]', "href")
    shipped = (Path(__file__).resolve().parents[1] / "static" / "app.css").read_bytes()
    compressions = []
    real = gzip.compress
    monkeypatch.setattr(assets.gzip, "compress", lambda data, **kw: compressions.append(1) or real(data, **kw))
    assets._gzip_file.cache_clear()
    for _ in range(3):
        with client.get(css, headers={"Accept-Encoding": "gzip"}) as response:
            assert response.headers["Content-Encoding"] == "gzip"
            assert gzip.decompress(response.data) == shipped
    assert len(compressions) == 1


def test_no_module_of_orchard_imports_django():
    """Django is installed only as django-htmx's dependency (the README says why); nothing uses it."""
    import ast
    root = Path(__file__).resolve().parents[1]
    modules = [root / "app.py", root / "settings.py"] + [path for package in ("scoring", "store", "services", "web", "cli")
                                                        for path in (root / package).rglob("*.py")]
    importing = []
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text())):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "django" or name.startswith("django.") for name in names):
                importing.append(str(path.relative_to(root)))
    assert importing == []


DARK_BLOCK = re.compile(r"@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^{}]*)\}\s*\}")
ROOT_BLOCK = re.compile(r"(?<![\w-]):root\s*\{([^{}]*)\}")
COLOUR = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")
ORCHARD = Path(__file__).resolve().parents[1]


def declarations(body):
    return dict(part.split(":", 1) for part in (p.strip() for p in body.split(";")) if part)


def test_the_dark_scheme_changes_colours_and_nothing_else():
    """The browser tests measure every page's layout once, in the light scheme, and audit the dark
    one for colour contrast only (tests/support/axe_audit.py): true while the dark scheme is a set
    of colour properties the light one declares too, and nothing else asks for the scheme."""
    sheets = {path.name: re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S) for path in (ORCHARD / "static").glob("*.css")}
    light = {name.strip() for text in sheets.values() for body in ROOT_BLOCK.findall(DARK_BLOCK.sub("", text))
             for name in declarations(body)}
    for name, text in sheets.items():
        blocks = DARK_BLOCK.findall(text)
        assert len(blocks) == text.count("prefers-color-scheme"), f"{name}: a dark rule this test cannot read"
        for body in blocks:
            for prop, value in declarations(body).items():
                assert prop.strip().startswith("--") and prop.strip() in light, f"{name}: {prop} in dark only"
                assert COLOUR.fullmatch(value.strip()), f"{name}: {prop} is {value} in dark, not a colour"
    for path in [*(ORCHARD / "static").glob("*.js"), *(ORCHARD / "templates").rglob("*.html")]:
        for line in path.read_text().splitlines():
            if "prefers-color-scheme" in line or "color-scheme" in line and "matchMedia" in line:
                assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}" media="\(prefers-color-scheme: (light|dark)\)">', line), \
                    f"{path.name}: {line.strip()}"
