"""The documentation at ``/docs/…``: the Markdown pages of ``docs/``, rendered.

The same files as the documentation site (``docs/invariants/offset.md`` is
``/docs/invariants/offset``, a folder's ``README.md`` is the folder), so a
definition is one click from every page that shows an invariant
(:func:`invariant_url`). Rendered with Python-Markdown (the library MkDocs
renders the site with) once per process; links between the pages are
rewritten to the server's addresses, and nothing is loaded from elsewhere.
The pages are the project's own text, installed with the package
(``catalog.docs``), not user input.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from xml.etree.ElementTree import Element

import markdown
from flask import Blueprint, Response, render_template, url_for
from flask.blueprints import BlueprintSetupState
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup

from catalog.api.html import html
from catalog.errors import NotFound

bp = Blueprint("docs_pages", __name__)


@bp.record_once
def _register(state: BlueprintSetupState) -> None:
    """Templates link an invariant's name with ``definition_url(name)``."""
    state.app.jinja_env.globals["definition_url"] = invariant_url


#: A page's path below docs/, without ``.md``: lower-case words and folders.
PAGE = re.compile(r"(?:[a-z0-9][a-z0-9-]*/)*[a-z0-9][a-z0-9-]*")

#: The page defining each invariant, by every name a document, a table or a
#: ``--where`` gives it.
INVARIANT_PAGES = {
    "offset": "invariants/offset",
    "saturation": "invariants/saturation",
    "defects": "invariants/defects",
    "overlap": "invariants/overlap",
    "deviations": "invariants/deviations",
    "deviation": "invariants/deviations",
    "dictionary": "invariants/dictionary",
    "far_out": "invariants/far-out",
    "cone_pairs": "kinds/cones",
    "cone_slope": "kinds/cones",
    "cone_form": "kinds/cones",
    "adjoined_moves": "invariants/adjoinable",
    "adjoined": "invariants/adjoinable",
    "adjoinable": "invariants/adjoinable",
    "bitstring": "invariants/bitstring",
    "one_p_per_column": "invariants/bitstring",
    "grundy": "invariants/grundy",
    "xrefs": "invariants/xrefs",
    "identify": "invariants/identify",
    "extensions": "invariants/identify",
}


def invariant_url(name: str) -> str | None:
    """The address of the page defining ``name`` (None: no such page)."""
    page = INVARIANT_PAGES.get(name)
    if page is None and name.startswith("dictionary"):
        page = INVARIANT_PAGES["dictionary"]  # dictionary_sector, …
    return url_for("docs_pages.page", path=page) if page else None


def _root() -> Traversable:
    return files("catalog.docs")


def _source(path: str) -> tuple[str, str] | None:
    """The Markdown of the page at ``path`` ('' is the index) and the folder
    its links are relative to; None when there is no such page."""
    root = _root()
    if path and not PAGE.fullmatch(path):
        return None
    parts = path.split("/") if path else []
    for candidate, folder in (
        (parts[:-1] + [parts[-1] + ".md"] if parts else None, "/".join(parts[:-1])),
        (parts + ["README.md"], "/".join(parts)),
    ):
        if candidate is None:
            continue
        node = root
        for part in candidate:
            node = node / part
        if node.is_file():
            return node.read_text(encoding="utf-8"), folder
    return None


class _Links(Treeprocessor):
    """Links to other ``.md`` pages become the server's ``/docs/…`` addresses."""

    def __init__(self, md: markdown.Markdown, folder: str, base: str) -> None:
        super().__init__(md)
        self.folder, self.base = folder, base

    def run(self, root: Element) -> None:
        for link in root.iter("a"):
            href = link.get("href", "")
            target, hashmark, anchor = href.partition("#")
            if "://" in target or target.startswith(("/", "mailto:")):
                continue
            if not target.endswith(".md"):
                continue
            resolved = posixpath.normpath(posixpath.join(self.folder, target))
            page = resolved.removesuffix(".md")
            if page == "README" or page.endswith("/README"):
                page = page.removesuffix("README").rstrip("/")
            address = self.base + page + ("/" if page.endswith("/") else "")
            link.set("href", address + (hashmark + anchor if anchor else ""))


class _LinkExtension(Extension):
    def __init__(self, folder: str, base: str) -> None:
        super().__init__()
        self.folder, self.base = folder, base

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802
        md.treeprocessors.register(_Links(md, self.folder, self.base), "docs-links", 0)


@lru_cache(maxsize=256)
def render(path: str, base: str) -> tuple[str, Markup] | None:
    """The title (the first heading) and HTML of the page at ``path``."""
    found = _source(path)
    if found is None:
        return None
    text, folder = found
    md = markdown.Markdown(
        extensions=["tables", "fenced_code", "toc", _LinkExtension(folder, base)],
        output_format="html",
    )
    body = md.convert(text)
    heading = re.search(r"^#\s+(.+)$", text, re.MULTILINE)
    title = heading.group(1).strip() if heading else (path or "Documentation")
    return title, Markup(body)  # noqa: S704  (the project's own pages)


@bp.get("/docs/", defaults={"path": ""})
@bp.get("/docs/<path:path>")
def page(path: str) -> Response:
    """A page of the documentation (the index at ``/docs/``)."""
    base = url_for("docs_pages.page", path="")
    found = render(path.rstrip("/"), base)
    if found is None:
        raise NotFound(f"no documentation page {path!r} (the pages: {base})")
    title, body = found
    return html(render_template("doc.html", title=title, body=body))
