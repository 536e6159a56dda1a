"""The page ``/identify``: paste P-positions (pairs or a grid), see which
games have them, with a picture of the data beside each proposed game's
P-positions (computed by :func:`catalog.p_positions`, so the pictures show
that each game gives the data)."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from flask import Blueprint, Response, current_app, render_template, request

from catalog import p_positions, service
from catalog.api import svg
from catalog.api.args import int_arg
from catalog.api.errors import BadParameter
from catalog.compute.identify import MAX_IDENTIFY_LIMIT, MAX_IDENTIFY_N
from catalog.service import identify as found

bp = Blueprint("identify_page", __name__)
GRID_CHARACTERS = set("P.\r\n \t")


def _store() -> service.Store:
    return cast(service.Store, current_app.extensions["catalog"])


def is_grid(text: str) -> bool:
    """A grid of ``P`` and ``.`` (and line ends), not pairs of numbers."""
    return bool(text.strip()) and set(text) <= GRID_CHARACTERS and "." in text


@bp.get("/identify")
def identify() -> Response:
    """The form, and the answer for the data it was given."""
    text = request.args.get("data", "")
    symmetric = bool(request.args.get("symmetric"))
    form: dict[str, Any] = {
        "data": text,
        "n": request.args.get("n", ""),
        "symmetric": symmetric,
        "limit": request.args.get("limit", ""),
    }
    doc, pictures = None, []
    if text.strip():
        n = int_arg("n", 0, 0, MAX_IDENTIFY_N) or None
        limit = int_arg("limit", 5, 1, MAX_IDENTIFY_LIMIT)
        if is_grid(text):
            cells, size = found.parse_grid(text, "data")
            if n is not None and n != size:
                raise BadParameter(f"n: the grid is {size} lines, not {n}")
            n = size
        else:
            cells = found.parse_pairs(text, "data")
        doc = found.identify(_store(), cells, n, symmetric, limit)
        data = found.window(cells, doc["n"], symmetric).cells
        pictures = _pictures(doc, data)
    response = Response(
        render_template(
            "identify.html",
            form=form,
            doc=doc,
            pictures=pictures,
            max_n=MAX_IDENTIFY_N,
            max_limit=MAX_IDENTIFY_LIMIT,
        ),
        mimetype="text/html",
    )
    return response


def _pictures(doc: dict[str, Any], data: np.ndarray) -> list[dict[str, Any]]:
    """The data's picture, then each proposed game's P-positions in the window
    with its forced cells listed (they are the data's, if the game is right)."""
    n = doc["n"]
    out: list[dict[str, Any]] = [
        {
            "title": "the data",
            "svg": svg.positions_plot(data, n, "the data", "plot-data"),
        }
    ]
    proposed = [("rule set", g) for g in doc["games"]] + [
        ("altered game", g) for g in doc["altered"]
    ]
    for number, (kind, game) in enumerate(proposed, 1):
        found_here = p_positions(game["definition"], n)
        same = found_here.shape == data.shape and bool((found_here == data).all())
        title = f"{kind} {number}"
        alter = game["definition"].get("alter")
        forced = None
        if alter:  # forced P cells are among the data; forced N cells are not
            cells = [c for k in ("P", "N") for c in alter.get(k, [])]
            forced = np.array(
                [c for c in cells if c[0] < n and c[1] < n], dtype=np.int64
            ).reshape(-1, 2)
        out.append(
            {
                "title": title,
                "svg": svg.positions_plot(
                    found_here, n, title, f"plot-game-{number}", forced
                ),
                "same": same,
                "forced": 0 if forced is None else len(forced),
            }
        )
    return out
