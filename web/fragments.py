"""A club night's live fragments, drawn once per change: every phone following a night asks for
the same new board after each save (three phones a table, and the big screen), so each process
draws it once per night and mark (web/club_nights.py), not once per phone."""
import threading
from collections import OrderedDict

from flask import make_response

from .render import wants_fragment


class _Rendered:
    """Fragments as last drawn, by night and mark, a few at a time. After each save every phone
    following the night asks for the same new board (three phones a table, and the big screen):
    it is drawn once per change in each process, not once per phone."""

    def __init__(self, size):
        self.size, self.lock, self.bodies = size, threading.Lock(), OrderedDict()

    def get(self, key):
        with self.lock:
            body = self.bodies.get(key)
            if body is not None:
                self.bodies.move_to_end(key)
            return body

    def put(self, key, body):
        with self.lock:
            self.bodies[key] = body
            self.bodies.move_to_end(key)
            while len(self.bodies) > self.size:
                self.bodies.popitem(last=False)


_rendered = _Rendered(size=32)  # two fragments each of the nights being played at once


def once_per_mark(key, draw):
    """An htmx fragment that depends on nothing but the night and its mark, drawn once."""
    if not wants_fragment():
        return draw()
    body = _rendered.get(key)
    if body is not None:
        return make_response(body, 200)
    response = draw()
    if response.status_code == 200:
        _rendered.put(key, response.get_data())
    return response
