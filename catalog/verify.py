"""Recompute what the store holds and check it against the definitions.

``wythoff verify [ID …]`` runs, for each entry, the checks below; each is
"ok", "failed: why" or "skipped: why", and the entry passes when none
failed. It reads through a session it is given and never writes.

- ``chunks``: every stored chunk decodes to its SHA-256 checksum.
- ``recomputed``: the stored P-positions equal ``catalog.p_positions`` of the
  definition over the stored region. That call picks the closed form, the
  Wythoff update after saturation, or a sweep; the fill always uses a sweep
  of whole columns, so for Wythoff's Nim, altered games and the kernel's
  games (swept below n in sliding line windows) the two are independent
  paths.
- ``reference``: the corner [0, 64)² equals the literal rule of
  :mod:`catalog.compute.reference`.
- ``independent``: no P-position that is not forced can move to another
  one, along a ray or by a single move (without alterations: at most one
  P-position per row, column and diagonal). Skipped for rules beyond rays and
  single moves.
- ``symmetric``: for games whose definition is symmetric in the two piles,
  the stored P-positions in the square [0, n)² are symmetric (W000001).
- ``invariants``: stored invariants equal a fresh computation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from catalog.compute import invariants, reference
from catalog.compute.ptable import p_positions
from catalog.games.definition import Definition, canonicalize
from catalog.store import repository as repo
from catalog.store.chunks import CorruptChunk
from catalog.store.ids import format_id
from catalog.store.models import Entry, Invariants

#: Side of the corner compared with the literal reference.
REFERENCE_N = 64
#: Recompute whole columns only while their highest P-position is this many
#: times the stored width; beyond that compare the square [0, x_bound)².
MAX_HEIGHT_FACTOR = 4


@dataclass
class Report:
    id: str
    n: int
    checks: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(v.startswith("failed") for v in self.checks.values())

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "n": self.n, "ok": self.ok, "checks": self.checks}


def verify_entries(session: Session, numbers: list[int] | None = None) -> list[Report]:
    """One report per entry (every entry when ``numbers`` is None)."""
    if numbers is None:
        numbers = list(session.scalars(select(Entry.id).order_by(Entry.id)))
    return [verify_entry(session, number) for number in numbers]


def verify_entry(session: Session, number: int) -> Report:
    entry = repo.get_entry(session, number)
    game = canonicalize(entry.definition)
    extent = repo.get_extent(session, number)
    x_bound = extent.x_bound if extent else 0
    y_bound = extent.y_bound if extent else None
    report = Report(format_id(number), x_bound)
    try:
        stored = repo.read_positions(session, number, 0, x_bound)
        report.checks["chunks"] = "ok"
    except CorruptChunk as exc:
        report.checks["chunks"] = f"failed: {exc}"
        return report
    report.checks["recomputed"] = _recomputed(game, stored, x_bound, y_bound)
    report.checks["reference"] = _reference(game, stored, x_bound, y_bound)
    report.checks["independent"] = _independent(game, stored)
    report.checks["symmetric"] = _symmetric(game, stored, x_bound)
    report.checks["invariants"] = _invariants(session, number, game)
    return report


def _recomputed(
    game: Definition, stored: np.ndarray, x_bound: int, y_bound: int | None
) -> str:
    if x_bound == 0:
        return "skipped: nothing stored"
    top = int(stored[:, 1].max()) + 1 if len(stored) else 0
    if y_bound is not None:
        height = y_bound
    elif top <= MAX_HEIGHT_FACTOR * x_bound:
        height = max(x_bound, top)
    else:
        height = x_bound
    ours = stored[stored[:, 1] < height]
    fresh = p_positions(game, max(x_bound, height))
    fresh = fresh[(fresh[:, 0] < x_bound) & (fresh[:, 1] < height)]
    return _compare(ours, fresh, f"[0, {x_bound}) x [0, {height})")


def _reference(
    game: Definition, stored: np.ndarray, x_bound: int, y_bound: int | None
) -> str:
    side = min(REFERENCE_N, x_bound, y_bound if y_bound is not None else x_bound)
    if side == 0:
        return "skipped: nothing stored"
    ours = stored[(stored[:, 0] < side) & (stored[:, 1] < side)]
    return _compare(ours, reference.p_positions(game, side), f"[0, {side})²")


def _compare(ours: np.ndarray, theirs: np.ndarray, region: str) -> str:
    if np.array_equal(ours, theirs):
        return "ok"
    a = set(map(tuple, ours.tolist()))
    b = set(map(tuple, theirs.tolist()))
    first = min(a ^ b)
    side = "only stored" if first in a else "missing from the store"
    return f"failed: in {region}, {len(a ^ b)} differ; first {list(first)} ({side})"


def _independent(game: Definition, stored: np.ndarray) -> str:
    """No option of a P-position that is not forced is a P-position: along
    each ray it must come first on its line, and no single move may lead
    from it to another P-position."""
    if game.beyond("rays", "moves", "alter"):
        others = ", ".join(sorted(game.beyond("rays", "moves", "alter")))
        return f"skipped: the check knows rays and single moves, not {others}"
    if len(stored) == 0:
        return "skipped: nothing stored"
    xs, ys = stored[:, 0], stored[:, 1]
    width = int(stored.max()) + 1
    codes = xs * width + ys
    forced = np.zeros(len(stored), dtype=bool)
    if game.forced_p:
        cells = np.array(game.forced_p, dtype=np.int64)
        forced = np.isin(codes, cells[:, 0] * width + cells[:, 1])
    for a, b in game.rays:
        # Cells on one line of the ray share (b·x − a·y, the residue).
        line = b * xs - a * ys
        residue = xs % a if a else ys % b
        order = np.lexsort((xs + ys, residue, line))
        same = (np.diff(line[order]) == 0) & (np.diff(residue[order]) == 0)
        later = order[1:][same]  # a P-position with another one behind it
        bad = later[~forced[later]]
        if bad.size:
            x, y = stored[bad[0]].tolist()
            return (
                f"failed: ({x}, {y}) can move along the ray ({a}, {b}) to a P-position"
            )
    for a, b in game.moves:
        joined = (xs >= a) & (ys >= b) & ~forced
        joined &= np.isin((xs - a) * width + (ys - b), codes)
        if joined.any():
            x, y = stored[np.argmax(joined)].tolist()
            return f"failed: the move ({a}, {b}) joins ({x}, {y}) to a P-position"
    return "ok"


def _symmetric(game: Definition, stored: np.ndarray, x_bound: int) -> str:
    def swapped(cells):
        return tuple(sorted((b, a) for a, b in cells))

    symmetric = (
        tuple(sorted((b, a) for a, b in game.rays)) == game.rays
        and swapped(game.moves) == game.moves
        and swapped(game.forced_p) == game.forced_p
        and swapped(game.forced_n) == game.forced_n
    )
    if not symmetric:
        return "skipped: the definition is not symmetric"
    square = stored[(stored[:, 0] < x_bound) & (stored[:, 1] < x_bound)]
    mirror = square[:, ::-1]
    mirror = mirror[np.lexsort((mirror[:, 1], mirror[:, 0]))]
    return _compare(square, mirror, f"the mirror of [0, {x_bound})²")


def _invariants(session: Session, number: int, game: Definition) -> str:
    row = session.get(Invariants, number)
    if row is None:
        return "skipped: not computed yet"
    if row.version != invariants.VERSION:
        return f"skipped: stored by recipe version {row.version}"
    fresh = _json_round_trip(invariants.compute(game))
    if row.data == fresh:
        return "ok"
    changed = sorted(
        k for k in fresh.keys() | row.data.keys() if fresh.get(k) != row.data.get(k)
    )
    return f"failed: differ in {', '.join(changed)}"


def _json_round_trip(data: dict[str, Any]) -> dict[str, Any]:
    """What the JSON column gives back (tuples become lists)."""
    return json.loads(json.dumps(data))
