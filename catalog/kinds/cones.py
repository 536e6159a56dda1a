"""Cones: every move (k, l) with k >= 1 from pile 1 and l >= 1 from pile 2
between two lines, ``s1·k + t1 <= l <= s2·k + t2`` (no upper line when
``hi`` is null), with l ≡ k (mod m) when ``mod`` is given; ``symmetric``
adds each mirror (l, k) too.

The literature's best-known generalisations of Wythoff's Nim are cones
beside Nim's two rays:

- Fraenkel's **a-Wythoff** (Holladay 1968; Fraenkel 1982), take k and l
  from both piles with |k − l| < a: ``{"lo": [1, 1-a], "hi": [1, a-1]}``;
- Fraenkel's **(s,t)-Wythoff** (1998), 0 < k <= l < s·k + t or mirrored:
  ``{"lo": [1, 0], "hi": [s, t-1], "symmetric": true}``;
- Khovanova and Niu's **m-modular Wythoff**, any k, l >= 1 with
  k ≡ l (mod m): ``{"lo": [0, 1], "hi": null, "mod": m}``.

Canonical form (two spellings of one game are one entry): a cone that is a
ray's moves exactly becomes that ray; a mirror-symmetric cone drops its
``symmetric``; a cone and its mirror written apart become one symmetric
cone; rays and single moves that a cone holds are dropped; a lower line of
slope 0 is lifted to l >= 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from math import gcd
from typing import Any, ClassVar

from catalog.kinds.base import (
    Definition,
    DefinitionError,
    Kind,
    Vector,
    integer,
    is_int,
)
from catalog.kinds.rays import MAX_STEP

#: Most cones in one definition.
MAX_CONES = 8
#: Largest slope s of a cone's line s·k + t.
MAX_SLOPE = 64
#: Largest |t| of a cone's line s·k + t.
MAX_OFFSET = 4096
#: Largest ``mod`` of a cone.
MAX_MOD = 64

_KEYS = {"lo", "hi", "mod", "symmetric"}


@dataclass(frozen=True)
class Cone:
    """One cone: the moves (k, l), k, l >= 1, with lo[0]·k + lo[1] <= l,
    l <= hi[0]·k + hi[1] (unless ``hi`` is None) and (l − k) % mod == 0;
    with ``symmetric`` their mirrors (l, k) too."""

    lo: Vector
    hi: Vector | None = None
    mod: int = 1
    symmetric: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "lo": list(self.lo),
            "hi": None if self.hi is None else list(self.hi),
            "mod": self.mod if self.mod > 1 else None,
            "symmetric": self.symmetric,
        }

    @property
    def sort_key(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    def bounds(self, k: int) -> tuple[int, int | None]:
        """The least and greatest l of column k (greatest None: unbounded)."""
        s1, t1 = self.lo
        low = max(s1 * k + t1, 1)
        if self.hi is None:
            return low, None
        return low, self.hi[0] * k + self.hi[1]

    def holds(self, k: int, ell: int) -> bool:
        """Is (k, ell) one of the cone's moves (its mirrors left out)?"""
        if k < 1 or ell < 1 or (ell - k) % self.mod:
            return False
        low, high = self.bounds(k)
        return low <= ell and (high is None or ell <= high)

    def allows(self, k: int, ell: int) -> bool:
        """Is (k, ell) a move of the cone, mirrors included?"""
        return self.holds(k, ell) or (self.symmetric and self.holds(ell, k))

    def moves_from(self, x: int, y: int) -> Iterator[Vector]:
        """The cells (x - k, y - l) for the cone's own moves (k, l)."""
        for k in range(1, x + 1):
            low, high = self.bounds(k)
            top = y if high is None else min(high, y)
            first = low + (k - low) % self.mod  # the least l >= low with l ≡ k
            for ell in range(first, top + 1, self.mod):
                yield x - k, y - ell

    def first_move(self) -> Vector | None:
        """The move with the least k (then l), or None for an empty cone.
        The classes of l mod ``mod`` repeat with k, so a few periods past
        the offsets tell."""
        for k in range(1, 2 * (MAX_OFFSET + MAX_MOD) + 4):
            low, high = self.bounds(k)
            first = low + (k - low) % self.mod
            if high is None or first <= high:
                return k, first
        return None

    def mirror(self) -> Cone | None:
        """The cone of the mirrored moves (l, k), when it is a cone."""
        (s1, t1), hi, m = self.lo, self.hi, self.mod
        if s1 == 1 and hi is not None and hi[0] == 1:  # a band t1 <= l - k <= t2
            return Cone((1, -hi[1]), (1, -t1), m)
        if s1 == 1 and hi is None:  # l - k >= t1: mirrored, 1 <= l <= k - t1
            return Cone((0, 1), (1, -t1), m)
        if s1 == 0 and t1 <= 1 and hi is not None and hi[0] == 1:
            return Cone((1, -hi[1]), None, m)  # 1 <= l <= k + t2, mirrored
        if s1 == 0 and t1 <= 1 and hi is None:
            return Cone((0, 1), None, m)  # every k, l >= 1: its own mirror
        return None

    def unfolded(self) -> Cone:
        """A symmetric cone whose moves and mirrors are one plain cone, as
        that cone: a band t1 <= l - k <= t2 with its mirror band
        -t2 <= l - k <= -t1 when the two meet ((1,t)-Wythoff is t-Wythoff);
        l - k >= t1 with its mirror when t1 <= 0 (every k, l >= 1)."""
        (s1, t1), hi = self.lo, self.hi
        if not self.symmetric or s1 != 1 or (hi is not None and hi[0] != 1):
            return self
        if hi is None:
            return Cone((0, 1), None, self.mod) if t1 <= 0 else self
        t2 = hi[1]
        if max(t1, -t2) > min(t2, -t1) + 1:
            return self  # the band and its mirror leave a gap between them
        return Cone((1, min(t1, -t2)), (1, max(t2, -t1)), self.mod)

    def as_ray(self) -> Vector | None:
        """The ray whose moves are exactly this cone's (its mirror's left
        out), if there is one: a line l = s·k through the origin."""
        if self.hi != self.lo or self.lo[1] != 0 or self.lo[0] < 1:
            return None
        s = self.lo[0]
        step = self.mod // gcd(s - 1, self.mod)  # the k with (s-1)k ≡ 0
        ray = (step, step * s)
        return ray if max(ray) <= MAX_STEP else None

    def holds_ray(self, ray: Vector) -> bool:
        """Does the cone (mirrors included) hold every multiple of ``ray``?"""
        plain = Cone(self.lo, self.hi, self.mod)
        mirrored = (ray[1], ray[0])
        return _line_inside(plain, ray) or (
            self.symmetric and _line_inside(plain, mirrored)
        )


def _line_inside(cone: Cone, ray: Vector) -> bool:
    """Does ``cone`` (no mirrors) hold j·ray for every j >= 1?"""
    p, q = ray
    if p < 1 or q < 1 or (q - p) % cone.mod:
        return False
    s1, t1 = cone.lo
    # s1·j·p + t1 <= j·q for every j >= 1 (l >= 1 holds: q >= 1).
    if q - s1 * p < 0 or q - s1 * p + (-t1 if q == s1 * p else 0) < 0:
        return False
    if q - s1 * p > 0 and s1 * p + t1 > q:
        return False
    if cone.hi is None:
        return True
    s2, t2 = cone.hi
    # j·q <= s2·j·p + t2 for every j >= 1.
    if s2 * p - q < 0:
        return False
    return s2 * p + t2 >= q if s2 * p > q else t2 >= 0


def _cone(value: Any, name: str) -> Cone:
    if not isinstance(value, Mapping):
        raise DefinitionError(f"{name}: must be an object with lo, hi, mod, symmetric")
    unknown = set(value) - _KEYS
    if unknown:
        raise DefinitionError(f"{name}: unknown field {sorted(unknown)[0]!r}")
    if "lo" not in value:
        raise DefinitionError(f"{name}.lo: missing (the lower line [s, t])")
    s1, t1 = _line(value["lo"], f"{name}.lo")
    if s1 == 0:
        t1 = max(t1, 1)  # l >= t1 and l >= 1
    hi = value.get("hi")
    upper = None if hi is None else _line(hi, f"{name}.hi")
    if upper is not None and upper[0] < s1:
        raise DefinitionError(
            f"{name}.hi: slope {upper[0]} is below the lower line's slope {s1}"
        )
    mod = value.get("mod")
    m = 1 if mod is None else integer(mod, f"{name}.mod", 1, MAX_MOD)
    symmetric = value.get("symmetric", False)
    if not isinstance(symmetric, bool):
        raise DefinitionError(f"{name}.symmetric: must be true or false")
    cone = Cone((s1, t1), upper, m, symmetric)
    if cone.first_move() is None:
        raise DefinitionError(f"{name}: the cone holds no move (k, l >= 1)")
    return cone


def _line(value: Any, name: str) -> Vector:
    if not (isinstance(value, list | tuple) and len(value) == 2):
        raise DefinitionError(f"{name}: must be a pair [s, t] (the line s·k + t)")
    s, t = value
    if not (is_int(s) and is_int(t)):
        raise DefinitionError(f"{name}: s and t must be integers")
    if not 0 <= s <= MAX_SLOPE:
        raise DefinitionError(f"{name}: the slope must be between 0 and {MAX_SLOPE}")
    if abs(t) > MAX_OFFSET:
        raise DefinitionError(f"{name}: the offset must be between ±{MAX_OFFSET}")
    return s, t


def canonical(cones: list[Cone]) -> tuple[list[Cone], set[Vector]]:
    """The canonical cones, and the rays that cones turned out to be."""
    rays: set[Vector] = set()
    kept: set[Cone] = set()
    for cone in cones:
        cone = cone.unfolded()
        ray = cone.as_ray()
        if ray is not None:
            rays.add(ray)
            if cone.symmetric:
                rays.add((ray[1], ray[0]))
            continue
        mirrored = cone.mirror()
        if cone.symmetric and mirrored is not None:
            if mirrored == Cone(cone.lo, cone.hi, cone.mod):
                cone = mirrored  # its own mirror: symmetric adds nothing
            else:
                cone = min(
                    cone,
                    Cone(mirrored.lo, mirrored.hi, mirrored.mod, True),
                    key=lambda c: c.sort_key,
                )
        kept.add(cone)
    # A cone and its mirror written apart: one symmetric cone.
    for cone in sorted(kept, key=lambda c: c.sort_key):
        mirrored = cone.mirror()
        if cone.symmetric or mirrored is None or mirrored not in kept:
            continue
        if cone in kept and mirrored != cone:
            kept -= {cone, mirrored}
            both = [Cone(c.lo, c.hi, c.mod, True) for c in (cone, mirrored)]
            kept.add(min(both, key=lambda c: c.sort_key).unfolded())
    # A plain cone that a symmetric one already holds, or mirrors.
    for cone in list(kept):
        if cone.symmetric:
            kept.discard(Cone(cone.lo, cone.hi, cone.mod))
            if (m := cone.mirror()) is not None:
                kept.discard(m)
    return sorted(kept, key=lambda c: c.sort_key), rays


class Cones(Kind):
    name = "cones"
    field = "cones"
    summary = "take k ≥ 1 and l ≥ 1 from both piles, (k, l) between two lines"
    papers: ClassVar[tuple[str, ...]] = (
        "A. S. Fraenkel, How to beat your Wythoff games' opponent on three "
        "fronts, Amer. Math. Monthly 89 (1982) (a-Wythoff)",
        "A. S. Fraenkel, Heap games, numeration systems and sequences, Annals "
        "of Combinatorics 2 (1998) ((s,t)-Wythoff)",
        "T. Khovanova, J. Niu, m-Modular Wythoff, arXiv:1608.01025",
    )
    page = "kinds/cones.md"

    def parse(self, data: Mapping[str, Any], fields: dict[str, Any]) -> None:
        value = data.get("cones", [])
        if not isinstance(value, list):
            raise DefinitionError("cones: must be a list of cones")
        if len(value) > MAX_CONES:
            raise DefinitionError(f"cones: more than {MAX_CONES} entries")
        fields["cones"] = [_cone(c, f"cones[{i}]") for i, c in enumerate(value)]

    def reduce(self, fields: dict[str, Any]) -> None:
        cones, rays = canonical(fields["cones"])
        fields["rays"] = {
            r for r in fields["rays"] | rays if not any(c.holds_ray(r) for c in cones)
        }
        fields["moves"] = {
            m for m in fields["moves"] if not any(c.allows(*m) for c in cones)
        }
        fields["cones"] = tuple(cones)

    def present(self, game: Definition) -> bool:
        return bool(game.cones)

    def options(self, game: Definition, x: int, y: int) -> Iterator[Vector]:
        for cone in game.cones:
            yield from cone.moves_from(x, y)
            if cone.symmetric:
                for a, b in cone.moves_from(y, x):
                    yield b, a

    def engines(self, game: Definition) -> frozenset[str]:
        return frozenset({"cones", "dense", "subtraction"})

    def describe(self, game: Definition) -> list[str]:
        return [describe_cone(c) for c in game.cones]

    def rules(self, game: Definition, symmetric: bool) -> int:
        return len(game.cones)  # a cone is one rule, its ``symmetric`` included


def describe_cone(cone: Cone) -> str:
    (s1, t1), hi, m = cone.lo, cone.hi, cone.mod
    if s1 == 1 and hi == (1, -t1) and t1 <= 0:
        text = f"take k and l ≥ 1 from both piles with |k − l| < {1 - t1}"
    else:
        low = _affine(s1, t1)
        text = f"take k ≥ 1 from pile 1 and l ≥ 1 from pile 2 with l ≥ {low}"
        if hi is not None:
            text += f" and l ≤ {_affine(*hi)}"
    if m > 1:
        text += f", l ≡ k (mod {m})"
    if cone.symmetric:
        text += ", or the same with the piles exchanged"
    return text


def _affine(s: int, t: int) -> str:
    head = "" if s == 0 else ("k" if s == 1 else f"{s}k")
    if not head:
        return str(t)
    return head + ("" if t == 0 else f" + {t}" if t > 0 else f" − {-t}")
