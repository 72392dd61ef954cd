"""Read what a page shows by parsing it (lxml and CSS selectors), never with regexes over template
whitespace: the text of elements, whitespace collapsed, their attributes, links and form fields."""
import functools
import json

import lxml.etree
import lxml.html
from lxml.cssselect import CSSSelector


def text(response):
    """A test client response's body as text."""
    return response.get_data(as_text=True)


def parse(html):
    """The page (or fragment) as an lxml tree; accepts a response, or an element already parsed.

    A text is parsed once however many questions are asked of it (a stateful test asks a dozen of
    each answer), so the tree is shared: never change it (copy it with `copy.deepcopy` first)."""
    if isinstance(html, lxml.html.HtmlElement):
        return html
    if not isinstance(html, str):
        html = text(html)
    return _parsed(html)


@functools.lru_cache(maxsize=32)
def _parsed(html):
    return lxml.html.fromstring(html) if html.strip() else lxml.html.fromstring("<html></html>")


def select(html, css):
    """Every element matching the CSS selector, in page order (the root itself included)."""
    return _compiled(css)(parse(html))


@functools.lru_cache(maxsize=None)
def _compiled(css):
    """A selector turned into XPath once per run (cssselect's translation costs more than the
    match), the way `HtmlElement.cssselect` would, HTML rules and all."""
    return CSSSelector(css, translator="html")


def _collapsed(element):
    return " ".join(element.text_content().split())


def texts(html, css):
    """The text of every element matching the CSS selector, whitespace collapsed."""
    return [_collapsed(element) for element in select(html, css)]


def element_text(html, css):
    """The text of the first element matching the selector ("#x", ".x.y", "p.notice", ...), or None."""
    found = select(html, css)
    return _collapsed(found[0]) if found else None


def attribute(html, css, name):
    """An attribute of the first element matching the selector, or None."""
    found = select(html, css)
    return found[0].get(name) if found else None


def links(html):
    """Where every link goes (each <a>'s href), in page order."""
    return [element.get("href") for element in select(html, "a[href]")]


def linked_text(html):
    """Every link as (its text, whitespace collapsed; where it goes), in page order."""
    return [(_collapsed(element), element.get("href")) for element in select(html, "a[href]")]


def csrf_token(html):
    """The CSRF token a page hands its htmx requests (the body's hx-headers)."""
    return json.loads(attribute(html, "body", "hx-headers"))["X-CSRFToken"]


def poll_url(html):
    """Where the page (or a poll's answer) polls next: the hx-get of its live poll."""
    return attribute(html, '[hx-get*="/live?"]', "hx-get")


def text_of(html):
    """A page's text as a reader sees it, whitespace collapsed (tags dropped, entities decoded);
    what scripts and styles hold is not text a reader sees."""
    return " ".join("".join(_READ(parse(html))).split())


# Every text node under an element, but those in a script, a style or a template: what
# `text_content()` reads once those are dropped (the element's own tail is not its text).
_READ = lxml.etree.XPath("descendant-or-self::text()[not(ancestor-or-self::script or ancestor-or-self::style"
                         " or ancestor-or-self::template)]")


def notice(response):
    """What the phone is told: a refused tap's message (next to the control), a save's message, a
    page notice or what the bar says; None when there is none."""
    for css in (".tap-msg", "#bar-msg", "p.error[role=alert]", "p.notice[role=alert]", "#hand-notice p"):
        found = [t for t in texts(response, css) if t]
        if found:
            return found[0]
    return None


def field_value(html, name):
    """The value of the form field called `name`: the checked one of a radio group, or None."""
    for element in select(html, f'input[name="{name}"]'):
        if element.get("type") not in ("radio", "checkbox") or element.get("checked") is not None:
            return element.get("value")
    return None


def save_fields(html):
    """What a round page's Save button sends: the round's version, and the "they are all singles"
    box ticked when the page shows one (quick entry left cards out)."""
    data = {"version": field_value(html, "version")}
    boxes = select(html, 'input[name="singles"]')
    if boxes:
        data["singles"] = boxes[0].get("value")
    return data


def described(html, term):
    """The text of the <dd> that follows the <dt> reading `term`, or None."""
    for dt in select(html, "dt"):
        if _collapsed(dt) == term and dt.getnext() is not None and dt.getnext().tag == "dd":
            return _collapsed(dt.getnext())
    return None


def labelled(html, css, label):
    """The text next to a label: the element after the one whose text is `label`, inside each
    element matching `css` (a "Deals: Dan" pair, a <dt>/<dd> pair)."""
    for container in select(html, css):
        children = list(container)
        for first, second in zip(children, children[1:]):
            if _collapsed(first) == label:
                return _collapsed(second)
    return None
