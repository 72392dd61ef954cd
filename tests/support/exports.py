"""A crew's JSON export read through its page, and a file restored through the restore page."""
import io
import json


def export_of(client, crew_url, game_id=None):
    url = crew_url + (f"games/{game_id}/export.json" if game_id else "history/export.json")
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "application/json"
    return json.loads(response.get_data(as_text=True))


def restore(client, data, **kwargs):
    body = json.dumps(data).encode() if not isinstance(data, bytes) else data
    return client.post("/restore", data={"file": (io.BytesIO(body), "export.json"), **kwargs},
                       content_type="multipart/form-data")
