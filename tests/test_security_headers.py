"""Every response carries the headers that keep a crew's pages safe."""
import pytest


@pytest.mark.parametrize("path", ["/", "/c/nope/", "/static/app.css"])
def test_security_headers_on_every_response(client, path):
    with client.get(path) as response:
        headers = response.headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"


def test_session_cookie_is_httponly_and_samesite_lax(client, table):
    table.start_crew()
    response = client.get(table.crew_url)
    cookie = response.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
