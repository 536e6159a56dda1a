"""Forced cells written back as boxes: the form a person writes (and the
contract's input form, ``P_boxes``/``N_boxes``), for the pages and for
``wythoff show``. A canonical definition stores every forced cell; a forced
100×100 box is 10,000 cells, one box here."""

from __future__ import annotations

from typing import Any

import numpy as np


def boxes(cells: list[list[int]]) -> tuple[list[list[int]], list[list[int]]]:
    """Forced cells written back as boxes ``[x0, y0, width, height]`` (runs
    of rows in a column, merged across neighbouring columns) and the single
    cells left over: the same set, as a person would write it."""
    if not cells:
        return [], []
    found = np.array(cells, dtype=np.int64).reshape(-1, 2)
    x, y = found[:, 0], found[:, 1]
    if not _increasing(x, y):  # a canonical definition's cells already are
        found = np.unique(found, axis=0)
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


def _increasing(x: np.ndarray, y: np.ndarray) -> bool:
    """Are the cells (x, y) strictly increasing, by x then y?"""
    dx, dy = np.diff(x), np.diff(y)
    return bool(((dx > 0) | ((dx == 0) & (dy > 0))).all())


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
