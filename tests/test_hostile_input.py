"""Hostile input on every endpoint: never a 5xx, nothing of another crew changes or shows, and
what a stranger types comes back escaped.

Two crews share one database. The victim's crew is only ever used through the victim's own
browser; the attacker knows every id (they are small integers) but not the victim's link. Every
fuzzed request goes out from the attacker's browser, built from `app.url_map`, with URL parts
taken from both crews and from nowhere, as GET and POST, with and without `HX-Request`.
"""
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web.static_files import HTMX_VERSION
from support.hostile import (
    FORM_KEYS, FUZZ, PAYLOADS, QUERY_KEYS, VALID_FORMS, VALID_QUERIES, XSS_PAYLOADS, attack,
    fill, form_for, hostile, htmx_headers, method_for, url_values,
)

pytestmark = pytest.mark.fuzz


# --- Fuzzing -----------------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_hostile_forms_on_every_endpoint(world, data):
    """Garbage in every form field (and the endpoint's own good form with one field gone bad)."""
    rule = data.draw(st.sampled_from(world.rules), label="rule")
    path = fill(rule, url_values(data.draw, world, rule, huge_ids=False))
    method = method_for(data.draw, rule, ["GET", "POST"])
    form = form_for(data.draw, rule)
    headers = htmx_headers(data.draw)
    if method == "GET":
        attack(world, "GET", path, query_string=form, headers=headers)
    else:
        attack(world, "POST", path, data=form, headers=headers)


@FUZZ
@given(data=st.data())
def test_hostile_urls_and_queries_on_every_endpoint(world, data):
    """Forged links, ids of the other crew and ids beyond any integer, odd query strings."""
    rule = data.draw(st.sampled_from(world.rules), label="rule")
    path = fill(rule, url_values(data.draw, world, rule, huge_ids=True))
    method = method_for(data.draw, rule, ["GET", "POST", "HEAD", "PUT", "DELETE"])
    query = form_for(data.draw, rule, VALID_QUERIES, QUERY_KEYS)
    attack(world, method, path, query_string=query, headers=htmx_headers(data.draw))


def _body(draw, rule):
    """A request body of the wrong kind: files, JSON, bytes that are not UTF-8, broken multipart."""
    form = dict(VALID_FORMS.get(rule.endpoint, {}))
    kind = draw(st.sampled_from(["file", "json", "bytes", "multipart", "huge"]), label="body")
    if kind == "file":
        field = draw(st.sampled_from(sorted(form) or list(FORM_KEYS)), label="file field")
        content = draw(st.binary(max_size=200))
        form[field] = (io.BytesIO(content), draw(st.sampled_from(["x.txt", "<script>xss(1)</script>.png", ""])))
        return {"data": form, "content_type": "multipart/form-data"}
    if kind == "json":
        return {"json": draw(st.one_of(st.just(form), st.lists(st.integers()), st.none(), hostile))}
    if kind == "bytes":
        raw = draw(st.sampled_from([b"name=%FF%FE%00&number=%C0%AF", b"\xff\xfe\x00\x01", b"=&=&&==", b"a" * 5000]))
        return {"data": raw, "content_type": draw(st.sampled_from(
            ["application/x-www-form-urlencoded", "text/plain", "application/octet-stream"]))}
    if kind == "multipart":
        return {"data": b"--b\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nx",
                "content_type": draw(st.sampled_from(["multipart/form-data", "multipart/form-data; boundary=b"]))}
    field = draw(st.sampled_from(sorted(form) or ["name"]), label="huge field")
    form[field] = "A" * 600_000  # beyond Flask's form memory limit
    return {"data": form}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_body_types_on_every_post_endpoint(world, data):
    """Bodies of the wrong type: a file where a name goes, JSON, non-UTF-8 bytes, broken multipart."""
    posts = [rule for rule in world.rules if "POST" in rule.methods]
    rule = data.draw(st.sampled_from(posts), label="rule")
    path = fill(rule, url_values(data.draw, world, rule, huge_ids=False))
    attack(world, "POST", path, headers=htmx_headers(data.draw), **_body(data.draw, rule))


JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(2**63, 2**70), st.integers(-(2**70), -(2**63)),
    st.floats(), st.sampled_from(PAYLOADS), st.lists(st.integers(-2, 5), max_size=5),
    st.dictionaries(st.sampled_from(["name", "number", "seat", "seats", "rounds", "hands"]), st.integers(-1, 3),
                    max_size=2),
)


def _json_paths(node, path=()):
    yield path
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield from _json_paths(child, (*path, key))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_restore_files(world, data):
    """A crew export with one to three values swapped for anything JSON can hold, restored: a
    new crew or a message, never a 5xx, never a row of another crew touched."""
    document = json.loads(world.export)
    paths = sorted(_json_paths(document), key=repr)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        path = data.draw(st.sampled_from(paths), label="path")
        if not path:
            continue
        parent = document
        try:
            for key in path[:-1]:
                parent = parent[key]
            if data.draw(st.booleans(), label="drop"):
                del parent[path[-1]]
            else:
                parent[path[-1]] = data.draw(JSON_VALUES, label="value")
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed or replaced this part
    crews = world.query("SELECT count(*) FROM crews")[0][0]
    body = json.dumps(document).encode()
    response = attack(world, "POST", "/restore", data={"file": (io.BytesIO(body), "export.json")},
                      content_type="multipart/form-data", headers=htmx_headers(data.draw))
    restored = response.status_code == 303 or "HX-Redirect" in response.headers
    # A restore stores a whole new crew or nothing at all.
    assert world.query("SELECT count(*) FROM crews")[0][0] == crews + restored


def _damaged_export(world, change):
    document = json.loads(world.export)
    change(document)
    return json.dumps(document).encode()


def _drop_crew_created(document):
    del document["crew"]["created"]


def _huge_round_created(document):
    document["games"][0]["rounds"][0]["created"] = 2**64


def _dict_as_round_updated(document):
    document["games"][0]["rounds"][0]["updated"] = {"at": 1}


def _drop_round_changes(document):
    del document["games"][0]["rounds"][0]["changes"]


def _object_as_bid_suit(document):
    document["games"][0]["rounds"][0]["bid"]["suit"] = {"S": 1}


def _object_as_rematch_of(document):
    document["games"][0]["rematch_of"] = {"number": 1}


@pytest.mark.parametrize("change", [_drop_crew_created, _huge_round_created, _dict_as_round_updated,
                                    _drop_round_changes, _object_as_bid_suit, _object_as_rematch_of])
def test_a_damaged_restore_file_is_refused_with_a_message(world, change):
    """Every value the restore stores is checked first: a missing key, an integer beyond 64 bits
    or an object where text or a number goes is a RestoreError message (each of these was a 500
    while the restore was being written; kept as regression cases)."""
    body = _damaged_export(world, change)
    crews = world.query("SELECT count(*) FROM crews")
    world.errors.clear()
    response = world.attacker.post("/restore", data={"file": (io.BytesIO(body), "export.json")},
                                   content_type="multipart/form-data")
    assert response.status_code == 422, "".join(world.errors)[-800:]
    assert world.query("SELECT count(*) FROM crews") == crews


def test_every_endpoint_with_every_kind_of_id(world):
    """Each rule of the url map, with the attacker's ids, the victim's ids behind the attacker's
    link, and forged links: GET and POST, with and without htmx, garbage in every field."""
    garbage = {key: XSS_PAYLOADS[0] for key in FORM_KEYS}
    query = {key: "' OR '1'='1" for key in QUERY_KEYS}
    for rule in world.rules:
        (own_player, *_), (victim_player, *_) = world.ids("player_id")
        own = {"token": world.attacker_token, "game_id": world.attacker_game, "number": 3, "seat": 1,
               "version": HTMX_VERSION, "filename": "app.css", "player_id": own_player, "other_id": own_player + 1}
        theirs = {"game_id": world.victim_game, "player_id": victim_player, "other_id": victim_player + 1}
        for values in (own, {**own, **theirs}, {**own, "token": world.forged_tokens()[0]},
                       {**own, **theirs, "token": world.forged_tokens()[6]}):
            path = fill(rule, values)
            for headers in ({}, {"HX-Request": "true"}):
                attack(world, "GET", path, query_string=query, headers=headers)
                attack(world, "POST", path, data=garbage, headers=headers)
