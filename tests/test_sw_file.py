"""The service worker file: served from the root with the app shell's current addresses, never
a crew address, always revalidated; the offline page holds no crew data."""
import json
import re

from support.html_text import attribute


def test_the_worker_is_served_from_the_root_with_the_current_shell(client, crew):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response.headers["Cache-Control"]
    source = response.get_data(as_text=True)
    shell = json.loads(re.search(r"var SHELL = (\[.*?\]);", source).group(1))
    css = attribute(client.get(crew), 'link[rel="stylesheet"]', "href")
    assert css.startswith("/static/app.css?v=")
    assert css in shell and "/offline" in shell
    assert re.search(r"/vendor/htmx-[\d.]+\.min\.js", " ".join(shell))
    assert not [url for url in shell if url.startswith("/c/")]
    assert "__SHELL__" not in source and "__VERSION__" not in source


def test_the_offline_page_says_so_and_names_no_crew(client, crew):
    client.get(crew)
    body = client.get("/offline").get_data(as_text=True)
    assert "No connection" in body and "shows no scores" in body
    assert "/c/" not in body and "Thursday" not in body
