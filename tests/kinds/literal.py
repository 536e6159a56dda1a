"""The contract's rule kinds read literally from a definition's JSON, with
no canonical form: the reference's options and outcome rule written again,
straight from ``contract.md``, to check the canonical form keeps the game.
A ``beatty`` must be one of :data:`tests.kinds.beattyref.ALPHAS`' spellings,
and a ``star`` a definition."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.kinds import beattyref


def _cone_moves(cone: dict[str, Any], x: int, y: int) -> set[tuple[int, int]]:
    s1, t1 = cone["lo"]
    hi = cone.get("hi")
    m = cone.get("mod") or 1
    out = set()
    for k in range(1, x + 1):
        for ell in range(1, y + 1):
            if s1 * k + t1 > ell or (hi is not None and ell > hi[0] * k + hi[1]):
                continue
            if (ell - k) % m:
                continue
            out.add((x - k, y - ell))
    if not cone.get("symmetric"):
        return out
    for k in range(1, y + 1):  # the mirrors (ell, k)
        for ell in range(1, x + 1):
            if s1 * k + t1 > ell or (hi is not None and ell > hi[0] * k + hi[1]):
                continue
            if (ell - k) % m == 0:
                out.add((x - ell, y - k))
    return out


def options(
    d: dict[str, Any], x: int, y: int, star: frozenset = frozenset()
) -> set[tuple[int, int]]:
    """The options of (x, y); ``star`` holds the moves of a ``star`` (the
    non-zero P-positions of its game, from :func:`p_positions`)."""
    out: set[tuple[int, int]] = set()
    special = d.get("special", [])
    ho = "ho-restriction" in special

    def allowed(a: int, b: int) -> bool:
        return not (ho and ((b == 0 and x < y) or (a == 0 and y < x)))

    for a, b in d.get("rays", []):
        k = 1
        while x - k * a >= 0 and y - k * b >= 0:
            if allowed(a, b):
                out.add((x - k * a, y - k * b))
            k += 1
    for a, b in d.get("moves", []):
        if x >= a and y >= b and allowed(a, b):
            out.add((x - a, y - b))
    for cone in d.get("cones", []):
        out |= _cone_moves(cone, x, y)
    if "euclid" in special:
        if 0 < y <= x:
            out |= {(x - j * y, y) for j in range(1, x // y + 1)}
        if 0 < x <= y:
            out |= {(x, y - j * x) for j in range(1, y // x + 1)}
    if "beatty" in d:  # α from the hand-written table, pairs by complement
        pairs = beattyref.pairs(beattyref.ALPHAS[d["beatty"]], max(x, y) + 1)
        out |= {(x - a, y - b) for a, b in pairs - {(0, 0)} if a <= x and b <= y}
    out |= {(x - a, y - b) for a, b in star if a <= x and b <= y}
    return out


def p_positions(d: dict[str, Any], n: int) -> np.ndarray:
    block = d.get("block", 0)
    star: frozenset = frozenset()
    if d.get("star") is not None:  # G's P-positions but (0, 0) are moves
        star = frozenset(map(tuple, p_positions(d["star"], n).tolist()))
        star -= {(0, 0)}
    alter = d.get("alter", {})
    forced_p = {tuple(c) for c in alter.get("P", [])}
    forced_n = {tuple(c) for c in alter.get("N", [])}
    p: set[tuple[int, int]] = set()
    for x in range(n):
        for y in range(n):
            if (x, y) in forced_p:
                p.add((x, y))
            elif (x, y) not in forced_n and len(options(d, x, y, star) & p) <= block:
                p.add((x, y))
    return np.array(sorted(p), dtype=np.int64).reshape(-1, 2)
