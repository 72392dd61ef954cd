"""Page or fragment from one template, so the two can never drift apart."""
from flask import make_response, render_template, request
from jinja2_fragments.flask import render_block


def wants_fragment():
    """An htmx request that swaps part of a page (not a boosted or history-restore request)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-Boosted") != "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def render(template_name, block_name=None, status=200, **context):
    """The whole page, or only `block_name` when htmx asked for a fragment."""
    if block_name and wants_fragment():
        body = render_block(template_name, block_name, **context)
    else:
        body = render_template(template_name, **context)
    response = make_response(body, status)
    return response


def see_other(url):
    """Go to another page: a 303 for a plain form, a client-side redirect for htmx
    (an XHR would follow a 303 silently and swap the next page into the form)."""
    if request.headers.get("HX-Request") == "true":
        response = make_response("", 200)
        response.headers["HX-Redirect"] = url
        return response
    response = make_response("", 303)
    response.headers["Location"] = url
    return response


def render_error(template_name, status, **context):
    """An error page; an htmx request gets its content in place of the page's main area
    (the form that failed may be anywhere on the page)."""
    if wants_fragment():
        response = make_response(render_block(template_name, "content", **context), status)
        response.headers["HX-Retarget"] = "#main"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return make_response(render_template(template_name, **context), status)
