"""Read what a page shows without regexes over template whitespace: the text of an element found
by id or class, whitespace collapsed, and the raw markup inside it."""
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Finder(HTMLParser):
    def __init__(self, wanted):
        super().__init__(convert_charrefs=True)
        self.wanted = wanted
        self.depth = 0  # open elements inside the first match (0: not inside it)
        self.found = False
        self.text = []
        self.markup = []

    def _matches(self, attrs):
        attrs = dict(attrs)
        if self.wanted.startswith("#"):
            return attrs.get("id") == self.wanted[1:]
        wanted = set(self.wanted.strip(".").split("."))
        return wanted <= set((attrs.get("class") or "").split())

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.markup.append(self.get_starttag_text())
            if tag not in VOID:
                self.depth += 1
        elif not self.found and self._matches(attrs):
            self.found = True
            self.depth = 0 if tag in VOID else 1

    def handle_startendtag(self, tag, attrs):
        if self.depth:
            self.markup.append(self.get_starttag_text())
        elif not self.found and self._matches(attrs):
            self.found = True

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1
            if self.depth:
                self.markup.append(f"</{tag}>")

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)
            self.markup.append(data)


def _find(html, wanted):
    finder = _Finder(wanted)
    finder.feed(html)
    return finder


def element_text(html, wanted):
    """The text of the first element with id "#x" or classes ".x.y", or None when there is none."""
    finder = _find(html, wanted)
    return " ".join("".join(finder.text).split()) if finder.found else None


def element_markup(html, wanted):
    """The markup inside the first element with id "#x" or class ".x" (None when there is none)."""
    finder = _find(html, wanted)
    return "".join(finder.markup) if finder.found else None


class _AllText(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)


def text_of(html):
    """A page's text as a reader sees it, whitespace collapsed (tags dropped, entities decoded)."""
    parser = _AllText()
    parser.feed(html)
    return " ".join("".join(parser.parts).split())
