"""One way a service says no (issue 37.2): `services/refusals.py`'s `Refused(sentence, status,
field)` and its kinds. No service declares another exception, and no page catches an exception of
the store's (a seat taken, a name taken, a file that does not restore): the service words it."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules(package):
    return sorted(path for path in (ROOT / package).rglob("*.py") if "migrations" not in path.parts)


def _exception_classes(path):
    """Classes of the module that derive from an exception, by name, with their bases."""
    tree = ast.parse(path.read_text(), str(path))
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(base) for base in node.bases]
            if any(base.endswith(("Exception", "Error", "Refused")) or base in found for base in bases):
                found[node.name] = bases
    return found


def test_every_service_refusal_is_a_refused():
    others = {f"{path.relative_to(ROOT)}: {name}({', '.join(bases)})"
              for path in _modules("services") for name, bases in _exception_classes(path).items()
              if name != "Refused" and bases != ["Refused"]}
    assert others == set()


def test_no_page_catches_an_exception_of_the_store():
    store_exceptions = {name for path in _modules("store") for name in _exception_classes(path)}
    assert {"SeatTaken", "NameTaken", "RestoreError"} <= store_exceptions  # the scan finds them
    caught = set()
    for path in _modules("web"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                for name in ast.unparse(node.type).strip("()").split(", "):
                    if name.rsplit(".", 1)[-1] in store_exceptions:
                        caught.add(f"{path.relative_to(ROOT)}:{node.lineno} except {name}")
    assert caught == set()


def test_no_page_words_a_games_or_a_nights_rule_error():
    """Issue 45, item 5: a save that would end the game before later rounds reached the page as the
    engine's GameError, which the page worded. The service words it now (a `Refused` with its field);
    the tools still read what a player types through the engine's parsers (CardError, BidError)."""
    caught = set()
    for path in _modules("web"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                names = set(ast.unparse(node.type).strip("()").split(", "))
                caught |= {f"{path.relative_to(ROOT)}: {name}" for name in names & {"GameError", "NightError"}}
    assert caught == set()


def test_a_refusal_no_page_placed_is_its_sentence_and_status_never_a_500(tmp_path):
    """One handler answers any `Refused` a route lets through (issue 45, item 5): its sentence, its
    status, and the way back; an htmx request gets it in the page's main part."""
    from app import create_app
    from services.refusals import Refused
    from web.access import PUBLIC, allow

    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "refused"})

    @allow(PUBLIC)
    def refusing():
        raise Refused("That table is full: pick another.", 409)
    app.add_url_rule("/refusing", view_func=refusing)
    client = app.test_client()
    page = client.get("/refusing", headers={"Referer": "http://localhost/c/abc/"})
    assert page.status_code == 409
    body = page.get_data(as_text=True)
    assert "That table is full: pick another." in body and 'href="/c/abc/"' in body
    fragment = client.get("/refusing", headers={"HX-Request": "true"})
    assert fragment.status_code == 409 and fragment.headers["HX-Retarget"] == "#main"
    assert "That table is full: pick another." in fragment.get_data(as_text=True)

