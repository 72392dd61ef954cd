"""A fragment is rendered by jinja2-fragments: a template error in a block still names its
template line, as it does when the whole page is rendered."""
import traceback
from pathlib import Path

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader

from web.render import render

BROKEN = "{% extends 'base.html' %}\n{% block content %}\n<p>fine</p>\n{{ 1 // 0 }}\n{% endblock %}\n"


@pytest.fixture
def templates(app, tmp_path):
    """Templates of the test's own, found before the app's (from files, so frames name them)."""
    app.jinja_env.loader = ChoiceLoader([FileSystemLoader(tmp_path), app.jinja_env.loader])

    def add(name, source):
        (tmp_path / name).write_text(source)
    return add


def _template_frames(error):
    return [(Path(frame.filename).name, frame.lineno) for frame in traceback.extract_tb(error.__traceback__)]


@pytest.mark.parametrize("headers", [{"HX-Request": "true"}, {}], ids=["fragment", "page"])
def test_a_template_error_names_its_template_line(app, templates, headers):
    templates("broken.html", BROKEN)
    with app.test_request_context("/", headers=headers):
        with pytest.raises(ZeroDivisionError) as caught:
            render("broken.html", "content")
    assert ("broken.html", 4) in _template_frames(caught.value)


def test_a_fragment_is_only_its_block(app, templates):
    templates("ok.html", BROKEN.replace("{{ 1 // 0 }}", ""))
    with app.test_request_context("/", headers={"HX-Request": "true"}):
        body = render("ok.html", "content").get_data(as_text=True)
    assert body.split() == ["<p>fine</p>"]


def test_an_imported_macro_sees_every_global_and_one_template_s_own_stay_its_own(app, templates):
    """Templates keep their globals in one plain dict (app.TemplateEnvironment): a macro imported
    into an included template still sees the app's, Flask's and Flask-WTF's globals, and
    globals given to one template reach no other."""
    templates("_g_macros.html", "{% macro show() %}{{ seats }} {{ url_for('crews.home') }}"
                                " {{ csrf_token()|length > 20 }}{% endmacro %}")
    templates("g_part.html", "{% from '_g_macros.html' import show %}[{{ show() }}]")
    templates("g_page.html", "{% include 'g_part.html' %}{{ own|default('none') }}")
    with app.test_request_context("/"):
        own = app.jinja_env.get_template("g_page.html", globals={"own": "mine"})
        assert own.render() == "[4 / True]mine"
        assert app.jinja_env.get_template("g_part.html").render() == "[4 / True]"
        assert "own" not in app.jinja_env.globals
