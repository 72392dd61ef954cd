"""A crew's JSON export read through its page, and a file restored through the restore page."""
import io
import json

from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart


def export_of(client, crew_url, game_id=None):
    url = crew_url + (f"games/{game_id}/export.json" if game_id else "history/export.json")
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "application/json"
    return json.loads(response.get_data(as_text=True))


def restore(client, data, **kwargs):
    body = json.dumps(data).encode() if not isinstance(data, bytes) else data
    # Encoded here, in memory: the test client spools a form over 500 KB to a temporary file that
    # nothing closes.
    boundary, form = encode_multipart({"file": FileStorage(io.BytesIO(body), filename="export.json"), **kwargs})
    return client.post("/restore", data=form, content_type=f"multipart/form-data; boundary={boundary}")
