"""A strict reading of our pages with the standard library's html.parser.

Checks what a browser would otherwise repair silently: every element closed
in order (void elements and self-closed SVG elements excepted), one each of
the required elements, unique ids, and an accessible name for every picture.
"""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
    "source", "track", "wbr",
}  # fmt: skip
REQUIRED = ("html", "head", "title", "body", "header", "main", "footer", "h1")


class Page(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: Counter[str] = Counter()
        self.ids: Counter[str] = Counter()
        self.doctype = False
        self.svgs: dict[str, dict] = {}
        self.texts: dict[str, str] = {}  # id -> its text
        self.scripts = 0
        self._svg: str | None = None
        self._text_of: list[tuple[str, int]] = []
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"not closed: {self.stack}")

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl.lower() == "doctype html"

    def _open(self, tag: str, attrs: list[tuple[str, str | None]]) -> dict:
        found = dict(attrs)
        if self._svg is None:  # a <title> inside a picture is not the page's
            self.tags[tag] += 1
        if "id" in found:
            self.ids[found["id"] or ""] += 1
        if tag == "script":
            self.scripts += 1
        if tag == "svg":
            self._svg = found.get("id") or f"svg{len(self.svgs)}"
            self.svgs[self._svg] = {"attrs": found, "elements": Counter(), "all": []}
        elif self._svg is not None:
            self.svgs[self._svg]["elements"][(tag, found.get("class"))] += 1
            self.svgs[self._svg]["all"].append((tag, found))
        return found

    def handle_starttag(self, tag, attrs):
        found = self._open(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)
            if "id" in found:
                self._text_of.append((found["id"], len(self.stack)))
                self.texts[found["id"]] = ""

    def handle_startendtag(self, tag, attrs):
        self._open(tag, attrs)
        if self._svg is None and tag not in VOID:
            self.errors.append(f"<{tag}/> is not an HTML void element")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1:]}>")
            return
        if self._text_of and self._text_of[-1][1] == len(self.stack):
            self._text_of.pop()
        self.stack.pop()
        if tag == "svg":
            self._svg = None

    def handle_data(self, data):
        for key, _ in self._text_of:
            self.texts[key] += data

    def problems(self) -> list[str]:
        """Everything wrong with the page; empty when it is well formed."""
        out = list(self.errors)
        if not self.doctype:
            out.append("no <!doctype html>")
        out += [f"{t}: {self.tags[t]} (want 1)" for t in REQUIRED if self.tags[t] != 1]
        out += [f"id {k!r} used {v} times" for k, v in self.ids.items() if v > 1]
        for key, svg in self.svgs.items():
            attrs = svg["attrs"]
            if attrs.get("role") != "img":
                out.append(f"{key}: no role=img")
            names = (attrs.get("aria-labelledby") or "").split()
            if not names or not all(self.texts.get(n, "").strip() for n in names):
                out.append(f"{key}: no accessible name (aria-labelledby)")
            if not svg["elements"]:
                out.append(f"{key}: empty")
        return out

    def count(self, svg: str, tag: str, cls: str | None) -> int:
        return self.svgs[svg]["elements"][(tag, cls)]

    def dots(self, svg: str, cls: str) -> list[tuple[int, int]]:
        """The points of the picture's ``<path class=cls>``: one ``M x y h0``
        subpath each."""
        paths = [
            a for t, a in self.svgs[svg]["all"] if t == "path" and a.get("class") == cls
        ]
        assert len(paths) == 1, paths
        d = paths[0]["d"] or ""
        assert re.fullmatch(r"(M\d+ \d+h0)*", d), d[:80]
        return [(int(x), int(y)) for x, y in re.findall(r"M(\d+) (\d+)h0", d)]
