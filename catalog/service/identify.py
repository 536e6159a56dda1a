"""``wythoff identify`` and ``wythoff extensions``: the dual question.

:func:`identify` answers, for any data, which stored entries have exactly
these P-positions in the window, whether an invariant game has them, its
maximal game, the smallest rule sets and the smallest altered games
(:mod:`catalog.compute.identify`). :func:`extensions` asks it of a stored
entry: what can be adjoined to its rules, and what dropped, without changing
its P-positions.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from sqlalchemy import select

from catalog.compute.identify import (
    MAX_IDENTIFY_LIMIT,
    MAX_IDENTIFY_N,
    Answer,
    Game,
    Window,
    step_grid,
)
from catalog.compute.identify import (
    identify as solve,
)
from catalog.errors import BadInput, TooMuchWork
from catalog.games.definition import Definition, canonicalize
from catalog.inputs import MAX_BODY_BYTES, check_text, parse_int, read_json, shown
from catalog.service.results import cached
from catalog.service.store import Store, entry_game
from catalog.store import positions as stored
from catalog.store.ids import format_id
from catalog.store.tables import entries

#: Seconds one identification may take on the command line (no budget there)
#: unless ``--seconds`` says otherwise.
CLI_SECONDS = 60.0
#: The version of identify's answers kept in the catalog (raised whenever the
#: same data get another answer: 2 since Beatty data propose ⋆ games).
ANSWERS = 2
#: Most stored entries one answer lists (``catalog_total`` counts them all).
MAX_CATALOG_MATCHES = 50

UNSEEN = (
    "moves with a component >= n are not determined by the data: any of them "
    "may be added to each game listed without changing the P-positions below n"
)


#: Most characters of the data as text (pairs or a grid): a full grid at the
#: largest n, with line ends, fits.
MAX_DATA_LENGTH = 1_000_000


def parse_pairs(text: str, name: str = "positions") -> list[tuple[int, int]]:
    r"""The pairs ``x,y`` of ``text``, separated by spaces or line ends (one a
    line in a file); ``(x, y)`` and ``x y`` on a line of its own are read
    too, and lines starting with ``#`` are comments.

    >>> parse_pairs("0,0 1,2 (2, 1)\n# a comment\n3 5")
    [(0, 0), (1, 2), (2, 1), (3, 5)]
    """
    check_text(text, name, MAX_DATA_LENGTH)
    pairs: list[tuple[int, int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        line = re.sub(r"\s*,\s*", ",", line.replace("(", " ").replace(")", " "))
        tokens = line.split()
        if len(tokens) == 2 and "," not in line:
            tokens = [",".join(tokens)]
        for token in tokens:
            parts = token.split(",")
            if len(parts) != 2:
                raise BadInput(
                    f"{name}: line {number}: {shown(token)} is not a pair x,y"
                )
            x, y = (parse_int(p, f"{name}: line {number}") for p in parts)
            pairs.append((x, y))
    if not pairs:
        raise BadInput(f"{name}: give at least one pair x,y")
    return pairs


def parse_grid(text: str, name: str = "grid") -> tuple[list[tuple[int, int]], int]:
    r"""The P cells of a grid of ``P`` and ``.``, drawn as the pages draw the
    board: the last line is y = 0, the first column x = 0. The grid is
    square (n lines of n cells); blank lines at either end are ignored.

    >>> parse_grid("P..\n..P\n.P.")
    ([(0, 2), (1, 0), (2, 1)], 3)
    """
    check_text(text, name, MAX_DATA_LENGTH)
    rows = [line.rstrip() for line in text.strip("\n").splitlines()]
    rows = [row.strip() for row in rows]
    n = len(rows)
    if not n or not rows[0]:
        raise BadInput(f"{name}: empty")
    for i, row in enumerate(rows, 1):
        bad = set(row) - {"P", "."}
        if bad:
            raise BadInput(
                f"{name}: line {i} holds {shown(sorted(bad)[0])}; "
                "use P for a P-position and . for any other cell"
            )
        if len(row) != len(rows[0]):
            raise BadInput(
                f"{name}: line {i} has {len(row)} cells, line 1 has {len(rows[0])}"
            )
    if len(rows[0]) != n:
        raise BadInput(
            f"{name}: {n} lines of {len(rows[0])} cells; the window is square "
            "(n lines of n cells)"
        )
    if n > MAX_IDENTIFY_N:
        raise BadInput(f"{name}: {n} lines; at most {MAX_IDENTIFY_N}")
    cells = [
        (x, n - 1 - i)
        for i, row in enumerate(rows)
        for x, c in enumerate(row)
        if c == "P"
    ]
    return sorted(cells), n


#: The fields of identify's JSON body (over HTTP, or on a command line's stdin).
BODY_FIELDS = ("positions", "n", "symmetric", "limit")


class Body(NamedTuple):
    """Identify's JSON body, read: a field not given is None."""

    positions: list[Any]
    n: int | None
    symmetric: bool | None
    limit: int | None


def read_body(text: str) -> Body:
    """Identify's JSON body ``{"positions": [[x, y], …], "n", "symmetric",
    "limit"}``, read by :func:`catalog.inputs.read_json` (at most
    :data:`~catalog.inputs.MAX_BODY_BYTES`, nested at most
    :data:`~catalog.inputs.MAX_JSON_DEPTH` deep, each key once) and checked
    field by field; the pairs themselves are checked by :func:`window`.

    Raises
    ------
    BadInput
        Naming the limit or the field.
    """
    # Bytes, as over HTTP (a character of UTF-8 takes up to 4).
    if len(text) > MAX_BODY_BYTES or len(text.encode(errors="replace")) > (
        MAX_BODY_BYTES
    ):
        raise BadInput(f"body: at most {MAX_BODY_BYTES} bytes")
    body = read_json(text, "body", MAX_BODY_BYTES)
    if not isinstance(body, dict):
        raise BadInput('body: must be a JSON object {"positions": [[x, y], …]}')
    unknown = sorted(set(body) - set(BODY_FIELDS))
    if unknown:
        raise BadInput(
            f"{unknown[0]}: unknown field (the fields: {', '.join(BODY_FIELDS)})"
        )
    positions = body.get("positions")
    if not isinstance(positions, list) or not all(
        isinstance(p, list) for p in positions
    ):
        raise BadInput("positions: must be a list of pairs [x, y]")
    positions = [
        [w if (w := _whole(c)) is not None else c for c in pair] for pair in positions
    ]
    symmetric = body.get("symmetric")
    if "symmetric" in body and not isinstance(symmetric, bool):
        raise BadInput("symmetric: must be true or false")
    return Body(
        positions,
        _integer(body, "n", 1, MAX_IDENTIFY_N),
        symmetric,
        _integer(body, "limit", 1, MAX_IDENTIFY_LIMIT),
    )


def _integer(body: dict[str, Any], name: str, low: int, high: int) -> int | None:
    if name not in body:
        return None
    value = _whole(body[name])
    if value is None:
        raise BadInput(f"{name}: must be an integer")
    if not low <= value <= high:
        raise BadInput(f"{name}: from {low} to {high}")
    return value


def _whole(value: Any) -> int | None:
    """An integer of the JSON body, written 7 or 7.0 (JSON Schema's integer
    is any number without a fraction); None for anything else."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def window(
    positions: Sequence[Sequence[int]], n: int | None, symmetric: bool = False
) -> Window:
    """The data as a :class:`Window`; ``n`` defaults to one more than the
    largest coordinate."""
    cells = [tuple(p) for p in positions]
    if n is None:
        # numpy integers count as in Window.of; bools do not. At least 1, so
        # that negative data is refused by Window.of naming the position.
        coordinates = [
            int(c)
            for cell in cells
            for c in cell
            if isinstance(c, int | np.integer) and not isinstance(c, bool)
        ]
        if not coordinates:
            raise BadInput("positions: give at least one P-position")
        n = max(max(coordinates) + 1, 1)
        if n > MAX_IDENTIFY_N:
            raise BadInput(
                f"positions: a coordinate is {n - 1}; the window is at most "
                f"n = {MAX_IDENTIFY_N}"
            )
    return Window.of(cells, n, symmetric)


def identify(
    store: Store,
    positions: Sequence[Sequence[int]],
    n: int | None = None,
    symmetric: bool = False,
    limit: int = 5,
    seconds: float | None = None,
) -> dict[str, Any]:
    """The contract's identify document for the data (see the module)."""
    # The solver's module (OR-Tools: a second or more to import on a loaded
    # machine) is loaded only when a search needs it, and its import is not
    # the search's time (catalog.compute.identify moves the deadline).
    start = time.monotonic()
    if not 1 <= limit <= MAX_IDENTIFY_LIMIT:
        raise BadInput(f"limit: from 1 to {MAX_IDENTIFY_LIMIT}")
    data = window(positions, n, symmetric)
    budget = store.limits.budget
    allowed = seconds if seconds is not None else CLI_SECONDS
    if budget is not None:
        allowed = min(allowed, budget)
    catalog, total = stored_matches(store, data)

    def search() -> bytes:
        remaining = max(0.0, allowed - (time.monotonic() - start))
        # Charged the seconds it takes: its estimate is only its time limit.
        with store.limits.admitted(remaining, measured=True):
            answer = solve(data, limit, remaining)
        return json.dumps(document(answer)).encode()

    # The games are facts of the data once the search is exact (the catalog's
    # part below changes with the catalog, and is read every time).
    question = {
        "n": data.n,
        "cells": data.cells.tolist(),
        "symmetric": data.symmetric,
        "limit": limit,
        # A catalog keeps its answers across upgrades: answers of an older
        # identify (before Beatty data proposed ⋆ games) are not read back.
        "answers": ANSWERS,
    }
    doc = json.loads(cached(store, "identify", question, search, keep=_exact))
    doc["catalog"] = catalog
    doc["catalog_total"] = total
    ids = _stored_ids(store, [g["definition"] for g in doc["games"] + doc["altered"]])
    for g in doc["games"] + doc["altered"]:
        g["id"] = ids.get(canonicalize(g["definition"]).key)
    doc["seconds"] = round(time.monotonic() - start, 3)
    return doc


def _exact(answer: bytes) -> bool:
    return bool(json.loads(answer)["exact"])


def document(answer: Answer) -> dict[str, Any]:
    """The JSON form of an :class:`Answer` (without the catalog's part)."""
    data = answer.window

    def game(g: Game) -> dict[str, Any]:
        return {"definition": g.definition, "size": g.size, "id": None}

    return {
        "n": data.n,
        "cells": int(data.grid.sum()),
        "symmetric": data.symmetric,
        "catalog": [],
        "invariant": answer.invariant,
        "maximal": {
            "rays": [list(r) for r in answer.maximal.rays],
            "moves": answer.maximal.moves,
            "unreached": [list(c) for c in answer.maximal.unreached],
        },
        "games": [game(g) for g in answer.games],
        "altered": [{**game(g), "forced": g.forced} for g in answer.altered],
        "exact": answer.exact,
        "bound": answer.bound,
        "unseen": UNSEEN,
        "notes": answer.notes,
        "seconds": round(answer.seconds, 3),
    }


def _stored_ids(store: Store, definitions: list[dict[str, Any]]) -> dict[str, str]:
    """The entry of each definition that the catalog holds, by its key."""
    keys = {canonicalize(d).key for d in definitions}
    if not keys:
        return {}
    with store.reading() as connection:
        rows = connection.execute(
            select(entries.c.key, entries.c.id).where(entries.c.key.in_(sorted(keys)))
        ).all()
    return {key: format_id(number) for key, number in rows}


def stored_matches(store: Store, data: Window) -> tuple[list[dict[str, Any]], int]:
    """The stored entries whose P-positions below n are exactly the data."""
    from catalog.service.lookup import stored_matches as lookup

    return lookup(store, data.cells, data.n, MAX_CATALOG_MATCHES)


# -- extensions of a stored entry ---------------------------------------------

#: How far beyond the window the P-positions are read to find the pairs that a
#: move with both components below n joins (Wythoff's Nim needs about 4.3 n:
#: the pair (A_s + 1, B_s + 1) joins (A_{B_s}, B_{B_s}) to (A_{A_s}, B_{A_s})).
REACH = 8


def extensions(store: Store, wid: str, n: int) -> dict[str, Any]:
    """What can be adjoined to the entry's rules, and what dropped, without
    changing its P-positions: the moves with both components below n that
    join no two of its P-positions below ``REACH``·n, its rays among them, and
    its own rules that the P-positions below n do not need. Computed once
    (:mod:`catalog.service.results`)."""
    if not 1 <= n <= MAX_IDENTIFY_N:
        raise BadInput(f"n: from 1 to {MAX_IDENTIFY_N}")
    number, game = entry_game(store, wid)
    question = {"entry": number, "definition": game.key, "n": n}

    def compute() -> bytes:
        return json.dumps(_extensions(store, number, game, n)).encode()

    return json.loads(cached(store, "extensions", question, compute, number))


def _extensions(store: Store, number: int, game: Definition, n: int) -> dict[str, Any]:
    reach = REACH * n
    budget = store.limits.budget
    with store.reading() as connection:
        if stored.covers(connection, number, reach):
            found = stored.read_positions(
                connection, number, 0, reach, reach, store.cache
            )
        else:  # computed, not stored: a read-only catalog answers too
            from catalog.compute import cost
            from catalog.compute.ptable import p_positions

            seconds = cost.p_positions_seconds(game, reach)
            if budget is not None and seconds > budget:
                raise TooMuchWork(
                    f"the extensions of {format_id(number)} at n={n} read its "
                    f"P-positions below {reach}: about {seconds:.1f} s of "
                    f"computation (the estimate); the budget of a request is "
                    f"{budget:g} s (WYTHOFF_INLINE_SECONDS)"
                )
            with store.limits.admitted(seconds):
                found = p_positions(game, reach)
    grid = np.zeros((reach, reach), dtype=bool)
    grid[found[:, 0], found[:, 1]] = True
    exempt = np.zeros_like(grid)
    for x, y in game.forced_p:
        if x < reach and y < reach:
            exempt[x, y] = True
    joined = _joined_below(grid, exempt, n)
    allowed = ~joined
    allowed[0, 0] = False
    own = step_grid(game.rays, game.moves, n)
    adjoin = allowed & ~own
    rays = _rays(allowed, n)
    dropped = _droppable(game, grid[:n, :n], n)
    return {
        "id": format_id(number),
        "n": n,
        "checked_below": reach,
        "adjoinable": {
            "rays": [list(r) for r in rays if not _is_own_ray(game, r)],
            "moves": [[int(a), int(b)] for a, b in np.argwhere(adjoin)],
        },
        "droppable": dropped["each"],
        "smallest": dropped["smallest"],
        "unseen": (
            f"moves with a component >= {n} are not listed; the pairs they "
            f"join lie beyond the window. Adjoinable moves are checked against "
            f"the P-positions below {reach}"
        ),
    }


def _joined_below(grid: np.ndarray, exempt: np.ndarray, n: int) -> np.ndarray:
    """``d[a, b]`` for a, b < n: does the step (a, b) join two P-positions of
    the grid (the upper one not forced P)?"""
    size = grid.shape[0]
    targets = grid & ~exempt
    d = np.zeros((n, n), dtype=bool)
    for sx, sy in np.argwhere(grid):
        w, h = min(n, size - sx), min(n, size - sy)
        d[:w, :h] |= targets[sx : sx + w, sy : sy + h]
    d[0, 0] = False
    return d


def _is_own_ray(game: Definition, ray: tuple[int, int]) -> bool:
    a, b = ray
    return any(a * d == b * c and (a >= c and b >= d) for c, d in game.rays)


def _rays(allowed: np.ndarray, n: int) -> list[tuple[int, int]]:
    """The steps with at least two multiples below n, all allowed, that are
    no multiple of another such step."""
    from catalog.compute.maximal import _long, _multiples_ok, _on_listed

    ok = _multiples_ok(allowed) & _long(n)
    return [
        (int(a), int(b))
        for a, b in np.argwhere(ok)
        if not _on_listed(ok, int(a), int(b))
    ]


def _droppable(game: Definition, grid: np.ndarray, n: int) -> dict[str, Any]:
    """Each own rule whose removal keeps the P-positions below n, and a
    smallest subset of the rules that keeps them (games of rays and single
    moves only: the cover of the cells outside the P-positions by the rules)."""
    from catalog.compute.maximal import covered_by

    rules = [("ray", r) for r in game.rays] + [("move", m) for m in game.moves]
    if game.beyond("rays", "moves", "alter"):
        return {"each": [], "smallest": None}
    needed = ~grid
    for x, y in game.forced_n:
        if x < n and y < n:
            needed[x, y] = False

    def covers(chosen: list[tuple[str, tuple[int, int]]]) -> bool:
        g = Game(
            rays=tuple(r for kind, r in chosen if kind == "ray"),
            moves=tuple(m for kind, m in chosen if kind == "move"),
        )
        return bool((covered_by(grid, g) | ~needed).all())

    each = [
        {"kind": kind, "step": list(step)}
        for kind, step in rules
        if covers([r for r in rules if r != (kind, step)])
    ]
    smallest: dict[str, Any] | None = None
    if len(rules) <= 16:
        from itertools import combinations

        for size in range(len(rules) + 1):
            hit = next((c for c in combinations(rules, size) if covers(list(c))), None)
            if hit is not None:
                kept = canonicalize(
                    {
                        "rays": [list(r) for kind, r in hit if kind == "ray"],
                        "moves": [list(m) for kind, m in hit if kind == "move"],
                        "alter": game.alteration_json(),
                    }
                )
                smallest = {"definition": kept.to_json(), "size": size}
                break
    return {"each": each, "smallest": smallest}
