"""The catalog as web pages: ``/``, ``/search``, ``/{ID}``, ``/adjoinable``.

Each view gets the documents the JSON API returns (:mod:`catalog.service`)
and hands them to an autoescaped Jinja2 template; the pictures are SVG made
on the server from the same data (:mod:`catalog.api.svg`). Errors outside
``/api/v1`` are HTML pages with the error's status; the API keeps its JSON.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from catalog import p_positions, service
from catalog.api import svg, words
from catalog.api.args import int_arg, store
from catalog.api.cache import Rendered, ResponseCache
from catalog.api.errors import BadParameter
from catalog.api.html import error_page, html
from catalog.compute.closed import WYTHOFF_RAYS
from catalog.errors import BadInput, CatalogError, NotFound
from catalog.inputs import MAX_SEARCH_OFFSET

bp = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/assets",
)

#: The pages' settings (``WYTHOFF_<NAME>`` in the environment, like the rest).
DEFAULTS: dict[str, Any] = {
    # The window x, y < n of the entry page's pictures: default and largest.
    "PLOT_N": 200,
    "MAX_PLOT_N": 2000,
    # Most P-positions one picture draws; past it the picture says so.
    "MAX_PLOT_POINTS": 20_000,
    # Side of the Grundy table drawn on the entry page.
    "GRUNDY_PICTURE_N": 16,
}
SEARCH_PAGE = 20
WYTHOFF = {"rays": [list(r) for r in WYTHOFF_RAYS]}


def register(app: Flask) -> None:
    """Add the pages to ``app`` (after :func:`catalog.api.errors.register`)."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    from catalog.api import docs_pages, family_pages, identify_page

    app.register_blueprint(bp)
    app.register_blueprint(docs_pages.bp)
    app.register_blueprint(family_pages.bp)
    app.register_blueprint(identify_page.bp)
    _html_errors(app)


@bp.get("/")
def home() -> Response:
    """What the catalog is, its counts, a search box, keywords, recent entries."""
    rows = service.list_entries(store(), limit=1001)["entries"]
    keywords = Counter(k for row in rows for k in row["keywords"])
    return html(
        render_template(
            "home.html",
            count=min(len(rows), 1000),
            more=len(rows) > 1000,
            keywords=sorted(keywords.items()),
            recent=list(reversed(rows[-10:])),
        )
    )


@bp.get("/search")
def search() -> Response:
    """Search results like the OEIS's: ID, name, the matched terms marked."""
    query = (request.args.get("q") or "").strip()
    offset = int_arg("offset", 0, maximum=MAX_SEARCH_OFFSET)
    if not query:
        return html(render_template("search.html", query="", doc=None, rows=[]))
    doc = service.search(store(), query, offset, SEARCH_PAGE)
    terms = [t for t in doc["query"] if isinstance(t, int)]
    rows = [dict(r, context=_context(r, terms)) for r in doc["results"]]
    return html(
        render_template(
            "search.html",
            query=query,
            doc=doc,
            rows=rows,
            offset=offset,
            previous=max(offset - SEARCH_PAGE, 0) if offset else None,
        )
    )


def _context(result: dict[str, Any], terms: list[int]) -> dict[str, Any] | None:
    """A few terms either side of a sequence match, the match marked."""
    if "sequence" not in result or not terms:
        return None
    around = 4
    first = max(result["index"] - around, 0)
    doc = service.sequence(
        store(), result["id"], result["sequence"], first, len(terms) + 2 * around
    )
    seq = doc["terms"]
    at = result["index"] - doc["offset"] - doc["start"]
    if at < 0 or seq[at : at + len(terms)] != terms:
        return None  # the entry was recomputed since the search
    return {
        "before": seq[:at],
        "match": seq[at : at + len(terms)],
        "after": seq[at + len(terms) :],
        "first": doc["start"] + doc["offset"],
    }


@bp.get("/adjoinable")
def adjoinable() -> Response:
    """The adjoinable-move test, a form and its answer."""
    given = [request.args.get(k) for k in ("i", "j")]
    doc = None
    if any(given):
        if not all(given):
            raise BadParameter("give both i and j")
        doc = service.adjoinable(int_arg("i"), int_arg("j"))
    return html(render_template("adjoinable.html", doc=doc))


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The site's icon where a browser asks for it unprompted: on a page
    without ``<link rel="icon">`` (a JSON route, which the pages link to)
    it fetches /favicon.ico, and a 404 there is an error in its console."""
    return bp.send_static_file("favicon.svg")


@bp.get("/<wid>")
def entry(wid: str) -> Response:
    """The entry page: everything ``show`` returns, with its pictures."""
    catalog = store()
    try:
        service.entry_number(catalog, wid)
    except BadInput as exc:
        raise NotFound(f"no such page: {exc}") from None
    cfg = current_app.config
    n = int_arg("n", cfg["PLOT_N"], 1, cfg["MAX_PLOT_N"])
    figures, found, note = _positions_figure(wid, n)
    doc = service.show(catalog, wid)  # after the fill, so it shows what is stored
    if found is not None:
        figures.extend(_theory_figures(doc, found, n))
    figures.extend(_strip_figures(doc))
    dictionary, dictionary_size = words.dictionary_rows(doc)
    short = words.as_input(doc["definition"])
    return html(
        render_template(
            "entry.html",
            doc=doc,
            n=n,
            note=note,
            figures=figures,
            sentences=words.describe(doc["definition"], short),
            definition=words.definition_json(doc["definition"], short),
            references=[words.reference(r) for r in doc["references"] or ()],
            invariants=words.invariant_rows(doc),
            dictionary=dictionary,
            dictionary_size=dictionary_size,
            downloads=_downloads(doc["id"], n),
        )
    )


def _positions_figure(
    wid: str, n: int
) -> tuple[list[dict[str, Any]], np.ndarray | None, str | None]:
    """The P-positions picture, computed within the request's limits; a note
    instead when the request may not do that much work."""
    cfg = current_app.config
    try:
        _, found, after = service.positions_window(
            store(), wid, n, (0, 0), cfg["MAX_PLOT_POINTS"]
        )
    except CatalogError as exc:
        if exc.status < 422:
            raise
        return [], None, f"The P-positions up to {n} are not drawn: {exc}"
    caption = (
        f"The {len(found)} P-positions with x, y < {n}, with the lines y = φx "
        "and y = x/φ."
    )
    if after is not None:
        caption += f" Only the first {len(found)} are drawn; the window has more."
    picture = svg.positions_plot(found, n, "this game")
    return [{"svg": picture, "caption": caption}], found, None


def _theory_figures(
    doc: dict[str, Any], found: np.ndarray, n: int
) -> list[dict[str, Any]]:
    """The papers' pictures that apply: the offset overlay (Hu–Sleator–Tsin
    Figures 2–3) and b_n − a_n − n (Larsson–Wästlund)."""
    figures = []
    if doc["offset"] is not None and words.altered(doc["definition"]):
        dx, dy = doc["offset"]["dx"], doc["offset"]["dy"]
        reach = n + max(dx, dy, 0)
        shifted = p_positions(WYTHOFF, reach) - np.array([dx, dy])
        inside = (shifted >= 0).all(axis=1) & (shifted < n).all(axis=1)
        picture, counts = svg.overlay_plot(found, shifted[inside], (dx, dy), n, "it")
        figures.append(
            {
                "svg": picture,
                "caption": (
                    f"The P-positions against Wythoff's shifted by −offset "
                    f"({-dx}, {-dy}), as in Hu–Sleator–Tsin Figures 2–3: "
                    f"{counts['same']} agree (grey), {counts['extra']} of the "
                    f"game's differ (red) and {counts['missing']} of Wythoff's "
                    "are missing (blue rings) in this window."
                ),
            }
        )
    deviations = doc["invariants"].get("deviations")
    if deviations is not None and len(found):
        values = deviations_in_window(found, n)
        bound = deviations["value"]
        figures.append(
            {
                "svg": svg.deviation_plot(
                    values, (bound["min"], bound["max"]), "this game"
                ),
                "caption": (
                    f"b_n − a_n − n for the first {len(values)} upper P-positions "
                    f"(a_n, b_n), those with b_n < {n}; dashed: the bounds "
                    f"{bound['min']} and {bound['max']} ({deviations['status']})."
                ),
            }
        )
    return figures


def deviations_in_window(found: np.ndarray, n: int) -> list[int]:
    """b_i − a_i − i for i = 0, 1, … while (a_i, b_i) lies in the window.

    For a game with one P-position per column (Maharaja-type games), the
    upper P-positions x ≤ y in column order are (a_0, b_0), (a_1, b_1), …;
    the first column below n without a P-position in the window is an a_k
    whose b_k ≥ n, and the pairs in order stop there. The same numbers as
    the stored sequences ``b-a`` and ``a`` give, without reading them.
    """
    columns = found[:, 0]
    present = np.zeros(n, dtype=bool)
    present[columns] = True
    missing = np.flatnonzero(~present)
    stop = int(missing[0]) if len(missing) else n
    upper = found[(found[:, 0] <= found[:, 1]) & (columns < stop)]
    upper = upper[np.argsort(upper[:, 0], kind="stable")]
    return (upper[:, 1] - upper[:, 0] - np.arange(len(upper))).tolist()


def _strip_figures(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The bit-string strip and, where Grundy values exist, their heat map."""
    figures = []
    bits = doc.get("bitstring")
    if bits and bits["bits"]:
        figures.append(
            {
                "svg": svg.bitstring_strip(bits["bits"], bits["start"], "this game"),
                "caption": (
                    f"The upper/lower bit-string from column {bits['start']}: dark "
                    "cells are lower P-positions (y < x), light ones upper."
                ),
            }
        )
    if not words.altered(doc["definition"]):
        side = min(
            current_app.config["GRUNDY_PICTURE_N"], current_app.config["MAX_GRUNDY_N"]
        )
        picture = _grundy_picture(doc, side)
        if picture is None:
            return figures
        figures.append(
            {
                "svg": picture,
                "caption": (
                    f"Sprague–Grundy values for x, y < {side}, (0, 0) at the lower "
                    "left; the zeros are the P-positions."
                ),
            }
        )
    return figures


def _grundy_picture(doc: dict[str, Any], side: int) -> Markup | None:
    """The Grundy heat map, kept in the worker's page cache: the values are
    a function of the definition alone, and computing them is most of an
    entry page's time."""
    cache: ResponseCache = current_app.extensions["catalog.pages"]
    key = ("grundy-svg", json.dumps(doc["definition"], sort_keys=True), side)
    kept = cache.get(key)
    if kept is not None:
        return Markup(kept.body.decode())
    try:
        table = service.grundy_table(store(), doc["id"], side)["grundy"]
    except CatalogError:
        return None
    picture = svg.grundy_heatmap(table, "this game")
    cache.put(key, Rendered(picture.encode(), "image/svg+xml", None))
    return picture


def _downloads(wid: str, n: int) -> list[tuple[str, str]]:
    def api(endpoint: str, **args: Any) -> str:
        return url_for(f"v1.{endpoint}", wid=wid, **args)

    return [
        ("b-file", api("export", format="bfile", n=n)),
        ("CSV", api("p_positions", n=n, format="csv")),
        ("JSON", api("p_positions", n=n)),
        ("OEIS internal format", api("export", format="oeis", n=n)),
        ("the entry (JSON API)", api("entry")),
    ]


def _html_errors(app: Flask) -> None:
    """HTML error pages outside ``/api/v1``; the API's JSON handlers inside.

    The API registered its handlers first; each is wrapped so that the one
    mapping of :class:`CatalogError` to a status stays where it is.
    """
    spec = app.error_handler_spec[None][None]
    for kind in (HTTPException, CatalogError, Exception):
        as_json = spec.get(kind)
        app.register_error_handler(kind, _either(as_json))


def _either(as_json: Any) -> Any:
    def handle(exc: Exception) -> Any:
        if as_json is not None and request.path.startswith("/api/"):
            return as_json(exc)
        return error_page(exc)

    return handle
