"""The one way a service says no: `Refused(sentence, status, field)`.

`sentence` says why in the player's words, `status` is the HTTP status the page answers with
(409 when the state does not allow it, 422 for input that is wrong, 403 or 404 as fits), and
`field` names the control the sentence belongs next to (None: the form's own place). Nothing was
changed when it is raised: services raise it inside their write transaction or before it."""


class Refused(Exception):
    def __init__(self, sentence, status=409, field=None):
        super().__init__(sentence)
        self.sentence, self.status, self.field = sentence, status, field


class NotOpen(Refused):
    """The round is no longer open for entry: saved, corrected or changed on another phone. The
    page shows the round as stored now, with the sentence above it."""

    def __init__(self, number, sentence=None):
        super().__init__(sentence or f"Round {number} is no longer open for entry: it was saved or changed on "
                         "another phone. This is what is stored now.")


class Stale(Refused):
    """A tap made on an old view of a hand that another phone has changed since."""
