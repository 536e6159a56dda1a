"""The catalog as web pages: ``/``, ``/search``, ``/{ID}``, ``/adjoinable``.

Each view gets the documents the JSON API returns (:mod:`catalog.service`)
and hands them to an autoescaped Jinja2 template; the pictures are SVG made
on the server from the same data (:mod:`catalog.api.svg`). Errors outside
``/api/v1`` are HTML pages with the error's status; the API keeps its JSON.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, cast

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
from catalog.api import svg
from catalog.api.cache import Rendered, ResponseCache
from catalog.api.errors import BadParameter
from catalog.api.v1 import int_arg
from catalog.compute.closed import WYTHOFF_RAYS
from catalog.errors import BadInput, CatalogError, NotFound

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
_ARXIV = re.compile(r"arXiv:\s*(\d{4}\.\d{4,5})", re.IGNORECASE)


def register(app: Flask) -> None:
    """Add the pages to ``app`` (after :func:`catalog.api.errors.register`)."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.register_blueprint(bp)
    _html_errors(app)


def _store() -> service.Store:
    return cast(service.Store, current_app.extensions["catalog"])


def _html(body: str, status: int = 200) -> Response:
    """An HTML answer with an ETag; 304 when the client has it already."""
    response = Response(body, status=status, mimetype="text/html")
    if status == 200:
        response.add_etag()
        response.cache_control.public = True
        response.cache_control.max_age = current_app.config["ENTRY_MAX_AGE"]
        response = cast(Response, response.make_conditional(request))
    return response


@bp.get("/")
def home() -> Response:
    """What the catalog is, its counts, a search box, keywords, recent entries."""
    rows = service.list_entries(_store(), limit=1001)["entries"]
    keywords = Counter(k for row in rows for k in row["keywords"])
    return _html(
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
    offset = int_arg("offset", 0, maximum=10**6)
    if not query:
        return _html(render_template("search.html", query="", doc=None, rows=[]))
    doc = service.search(_store(), query, offset, SEARCH_PAGE)
    terms = [t for t in doc["query"] if isinstance(t, int)]
    rows = [dict(r, context=_context(r, terms)) for r in doc["results"]]
    return _html(
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
        _store(), result["id"], result["sequence"], first, len(terms) + 2 * around
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
    return _html(render_template("adjoinable.html", doc=doc))


@bp.get("/<wid>")
def entry(wid: str) -> Response:
    """The entry page: everything ``show`` returns, with its pictures."""
    store = _store()
    try:
        service.entry_number(store, wid)
    except BadInput as exc:
        raise NotFound(f"no such page: {exc}") from None
    cfg = current_app.config
    n = int_arg("n", cfg["PLOT_N"], 1, cfg["MAX_PLOT_N"])
    figures, found, note = _positions_figure(wid, n)
    doc = service.show(store, wid)  # after the fill, so it shows what is stored
    if found is not None:
        figures.extend(_theory_figures(doc, found, n))
    figures.extend(_strip_figures(doc))
    dictionary, words = _dictionary_rows(doc)
    short = as_input(doc["definition"])
    return _html(
        render_template(
            "entry.html",
            doc=doc,
            n=n,
            note=note,
            figures=figures,
            words=describe(doc["definition"], short),
            definition=_definition_json(doc["definition"], short),
            references=[_reference(r) for r in doc["references"] or ()],
            invariants=_invariant_rows(doc),
            dictionary=dictionary,
            dictionary_size=words,
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
        page = service.positions_page(
            _store(),
            wid,
            n,
            (0, 0),
            cfg["MAX_PLOT_POINTS"],
            max_columns=cfg["MAX_COMPUTE_COLUMNS"],
        )
    except CatalogError as exc:
        if exc.status < 422:
            raise
        return [], None, f"The P-positions up to {n} are not drawn: {exc}"
    found = np.array(page["positions"], dtype=np.int64).reshape(-1, 2)
    caption = (
        f"The {len(found)} P-positions with x, y < {n}, with the lines y = φx "
        "and y = x/φ."
    )
    if page["next"]:
        caption += f" Only the first {len(found)} are drawn; the window has more."
    picture = svg.positions_plot(found, n, "this game")
    return [{"svg": picture, "caption": caption}], found, None


def _theory_figures(
    doc: dict[str, Any], found: np.ndarray, n: int
) -> list[dict[str, Any]]:
    """The papers' pictures that apply: the offset overlay (Hu–Sleator–Tsin
    Figures 2–3) and b_n − a_n − n (Larsson–Wästlund)."""
    figures = []
    if doc["offset"] is not None and _altered(doc["definition"]):
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
    if not _altered(doc["definition"]):
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
        table = service.grundy_table(_store(), doc["id"], side)["grundy"]
    except CatalogError:
        return None
    picture = svg.grundy_heatmap(table, "this game")
    cache.put(key, Rendered(picture.encode(), "image/svg+xml", None))
    return picture


def _altered(definition: dict[str, Any]) -> bool:
    alter = definition.get("alter") or {}
    return any(alter.get(k) for k in ("P", "N", "P_boxes", "N_boxes"))


_RAY_WORDS = {
    (1, 0): "take any number of stones from pile 1",
    (0, 1): "take any number of stones from pile 2",
    (1, 1): "take the same number of stones from both piles",
}
_SPECIAL_WORDS = {
    "ho-restriction": "while the piles differ, the smaller pile may not be "
    "reduced alone (Ho's restriction)",
    "ho-extension": "also take k ≥ 1 stones from the smaller pile and fewer than "
    "k from the other (Ho's extension)",
}


def boxes(cells: list[list[int]]) -> tuple[list[list[int]], list[list[int]]]:
    """Forced cells written back as boxes ``[x0, y0, width, height]`` (runs
    of rows in a column, merged across neighbouring columns) and the single
    cells left over: the same set, as a person would write it."""
    if not cells:
        return [], []
    found = np.unique(np.array(cells, dtype=np.int64).reshape(-1, 2), axis=0)
    x, y = found[:, 0], found[:, 1]
    # A run starts where the column changes or the row is not the next one.
    starts = np.flatnonzero(np.r_[True, (np.diff(x) != 0) | (np.diff(y) != 1)])
    lengths = np.diff(np.r_[starts, len(found)])
    open_boxes: dict[tuple[int, int], list[int]] = {}
    done: list[list[int]] = []
    column = None
    current: dict[tuple[int, int], list[int]] = {}
    for x0, y0, height in zip(
        x[starts].tolist(), y[starts].tolist(), lengths.tolist(), strict=True
    ):
        if x0 != column:  # a new column: close the boxes it does not continue
            done.extend(open_boxes.values())
            open_boxes, current, column = current, {}, x0
        box = open_boxes.pop((y0, height), None)
        if box is not None and box[0] + box[2] == x0:
            box[2] += 1
        else:
            if box is not None:
                done.append(box)
            box = [x0, y0, 1, height]
        current[(y0, height)] = box
    done.extend(open_boxes.values())
    done.extend(current.values())
    done.sort()
    single = [[x0, y0] for x0, y0, w, h in done if w == h == 1]
    return [b for b in done if b[2] * b[3] > 1], single


def as_input(definition: dict[str, Any]) -> dict[str, Any]:
    """The definition with its forced cells as boxes where they form any:
    an equal game (the contract's input form), often far shorter."""
    alter = definition.get("alter") or {}
    short: dict[str, Any] = {}
    for label in ("P", "N"):
        found, single = boxes(alter.get(label) or [])
        short[label] = single
        if found:
            short[f"{label}_boxes"] = found
    return {**definition, "alter": short}


def describe(
    definition: dict[str, Any], short: dict[str, Any] | None = None
) -> list[str]:
    """The definition in words, one sentence per kind of rule (``short``:
    its :func:`as_input` form, if already at hand)."""
    out = []
    for a, b in definition.get("rays") or ():
        out.append(
            _RAY_WORDS.get((a, b), f"take {a}k from pile 1 and {b}k from pile 2, k ≥ 1")
        )
    moves = definition.get("moves") or []
    if moves:
        listed = ", ".join(f"({a}, {b})" for a, b in moves)
        out.append(f"make one of the single moves {listed} (take a, b stones)")
    for rule in definition.get("special") or ():
        out.append(_SPECIAL_WORDS.get(rule, rule))
    sentences = ["A move may " + "; or ".join(out) + "."] if out else []
    alter = (short or as_input(definition))["alter"]
    for label in ("P", "N"):
        cells = alter.get(label) or []
        found = alter.get(f"{label}_boxes") or []
        parts = [f"the {w}×{h} box from ({x}, {y})" for x, y, w, h in found[:20]]
        if len(found) > 20:
            parts.append(f"{len(found) - 20} more boxes")
        if cells:
            shown = ", ".join(f"({x}, {y})" for x, y in cells[:40])
            more = f" and {len(cells) - 40} more cells" if len(cells) > 40 else ""
            parts.append(shown + more)
        if parts:
            sentences.append(f"Forced {label}-positions: {'; '.join(parts)}.")
    return sentences


def _definition_json(
    definition: dict[str, Any], short: dict[str, Any]
) -> dict[str, Any]:
    """The stored definition as JSON, or the same game with boxes when that
    is shorter (a forced 100×100 box is 10,000 stored cells)."""
    stored = json.dumps(definition)
    text = json.dumps(short)
    if len(text) < len(stored):
        return {"text": _shorten(text, 20_000), "boxes": True}
    return {"text": _shorten(stored, 20_000), "boxes": False}


def _reference(ref: dict[str, Any]) -> dict[str, Any]:
    url = ref.get("url")
    match = _ARXIV.search(ref.get("citation") or "")
    arxiv = f"https://arxiv.org/abs/{match.group(1)}" if match else None
    doi = f"https://doi.org/{ref['doi']}" if ref.get("doi") else None
    return {**ref, "link": url or arxiv or doi}


def _invariant_rows(doc: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for name, item in doc["invariants"].items():
        if name.startswith("dictionary"):
            value = f"{len(item['value'])} words (table below)"
        else:
            value = json.dumps(item.get("value"), ensure_ascii=False)
        extra = {
            k: v
            for k, v in item.items()
            if k not in {"value", "status", "source", "paper", "first", "counts"}
        }
        rows.append(
            {
                "name": name,
                "value": value,
                "status": item.get("status"),
                "source": item.get("source"),
                "details": _shorten(json.dumps(extra, ensure_ascii=False))
                if extra
                else "",
            }
        )
    return rows


#: Most dictionary rows on a page; a game without a finite dictionary (such
#: as (3,5)-Maharaja) has thousands of words, all in the API's document.
DICTIONARY_ROWS = 40


def _shorten(text: str, most: int = 2000) -> str:
    """At most ``most`` characters: the whole document is in the API."""
    return text if len(text) <= most else text[:most] + " …"


def _dictionary_rows(doc: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """The first rows of the dictionary table, by first occurrence, and the
    number of words in all."""
    item = doc["invariants"].get("dictionary")
    if item is None:
        return [], 0
    equations = (item.get("paper") or {}).get("equations", {})
    first = item.get("first") or {}
    words = sorted(item["value"], key=lambda w: (first.get(w, 0), w))
    rows = [
        {
            "word": word,
            "translate": item["value"][word],
            "equation": equations.get(word, "not in the paper"),
            "first": first.get(word),
            "count": (item.get("counts") or {}).get(word),
        }
        for word in words[:DICTIONARY_ROWS]
    ]
    return rows, len(words)


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


def error_page(exc: Exception) -> Response:
    """The HTML page of an error, with its status (and Retry-After)."""
    retry = None
    if isinstance(exc, HTTPException):
        status, message = exc.code or 500, exc.description or exc.name
        if status == 404:
            message = f"There is no page at {request.path}."
    elif isinstance(exc, CatalogError):
        status, message, retry = exc.status, str(exc), exc.retry_after
    else:  # a bug: logged by the API's handler's logger, shown plainly here
        current_app.logger.exception("unhandled error")
        status, message = 500, "internal error"
    response = Response(
        render_template("error.html", status=status, message=message),
        status=status,
        mimetype="text/html",
    )
    if retry is not None:
        response.headers["Retry-After"] = str(retry)
    if status == 405:
        response.headers["Allow"] = "GET, HEAD"
    return response
