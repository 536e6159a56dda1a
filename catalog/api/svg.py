"""The entry page's pictures: pure functions from arrays and documents to
inline SVG, made on the server so that pages load nothing from elsewhere.

Every picture is a ``<svg role="img">`` whose ``<title>`` and ``<desc>`` are
its alternative text (``aria-labelledby``). Coordinates are drawn in data
units inside a group flipped to put (0, 0) at the lower left, as the papers
do; every text is escaped here, since templates insert the result as is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from markupsafe import Markup, escape

PHI = (1 + math.sqrt(5)) / 2
#: Side of the square plots, in CSS pixels.
SIZE = 420
MARGIN = 34


def _num(value: float) -> str:
    """A short decimal for an attribute (the page weight is mostly these)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in {"", "-0"} else "0"


def _frame(
    key: str, title: str, desc: str, width: int, height: int, body: list[str]
) -> Markup:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" id="{key}" class="plot" '
        f'role="img" aria-labelledby="{key}-title {key}-desc" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">'
        f'<title id="{key}-title">{escape(title)}</title>'
        f'<desc id="{key}-desc">{escape(desc)}</desc>'
    )
    return Markup(head + "".join(body) + "</svg>")


def _axes(n: int, scale: float, label_x: str, label_y: str) -> list[str]:
    """The frame, ticks at 0 and n, and the axis names of a square plot."""
    side = n * scale
    left, bottom = MARGIN, MARGIN + side
    return [
        f'<rect class="frame" x="{left}" y="{MARGIN}" width="{_num(side)}" '
        f'height="{_num(side)}"/>',
        f'<text x="{left}" y="{_num(bottom + 14)}" class="tick">0</text>',
        f'<text x="{_num(left + side)}" y="{_num(bottom + 14)}" class="tick end">'
        f"{n}</text>",
        f'<text x="{left - 4}" y="{MARGIN + 10}" class="tick end">{n}</text>',
        f'<text x="{_num(left + side / 2)}" y="{_num(bottom + 26)}" class="axis">'
        f"{escape(label_x)}</text>",
        f'<text x="10" y="{_num(MARGIN + side / 2)}" class="axis" '
        f'transform="rotate(-90 10 {_num(MARGIN + side / 2)})">'
        f"{escape(label_y)}</text>",
    ]


def _data_group(n: int, scale: float) -> str:
    """A group in data units: x to the right, y upwards, clipped to the box."""
    return (
        f'<g transform="translate({MARGIN} {_num(MARGIN + n * scale)}) '
        f'scale({_num(scale)} {_num(-scale)})">'
    )


def _dots(points: np.ndarray, radius: float, cls: str) -> str:
    """One ``<path>`` holding a zero-length subpath ``M x y h0`` per point,
    drawn as a dot by its round line cap: a tenth of the bytes of a
    ``<circle>`` each, which keeps a dense window (a forced box of 10^4
    cells) well under the page-weight goal."""
    d = "".join(f"M{x} {y}h0" for x, y in points.tolist())
    return f'<path class="{cls}" stroke-width="{_num(2 * radius)}" d="{d}"/>'


def _rings(points: np.ndarray, radius: float, cls: str) -> str:
    r = _num(radius)
    return "".join(
        f'<circle class="{cls}" cx="{x}" cy="{y}" r="{r}"/>' for x, y in points.tolist()
    )


def _radius(n: int, scale: float) -> float:
    # About 2 pixels whatever n is, but never larger than half a cell.
    return min(0.5, 2.0 / scale) if n > 0 else 0.5


def positions_plot(
    positions: np.ndarray,
    n: int,
    title: str,
    key: str = "plot-positions",
    forced: np.ndarray | None = None,
) -> Markup:
    """The P-positions with x, y < n, and the lines y = φx and y = x/φ.

    ``positions`` is a (k, 2) array; each P-position is one subpath
    ``M x y h0`` of the ``<path class="pt">``. ``forced`` cells (an altered
    game's, P or N) are ringed: ``<circle class="forced">``.
    """
    n = max(n, 1)
    scale = SIZE / n
    end = n / PHI
    body = _axes(n, scale, "x (pile 1)", "y (pile 2)")
    body.append(_data_group(n, scale))
    body.append(
        f'<line class="phi" x1="0" y1="0" x2="{_num(end)}" y2="{n}"/>'
        f'<line class="phi" x1="0" y1="0" x2="{n}" y2="{_num(end)}"/>'
    )
    body.append(_dots(positions, _radius(n, scale), "pt"))
    rung = "" if forced is None else _rings(forced, _radius(n, scale) * 2.5, "forced")
    body.append(rung)
    body.append("</g>")
    desc = (
        f"{len(positions)} P-positions of {title} with x and y below {n}, "
        "drawn as dots, with the lines y = φx and y = x/φ through the origin."
    )
    if forced is not None:
        desc += f" The {len(forced)} forced cells are ringed."
    side = int(SIZE + 2 * MARGIN)
    return _frame(key, f"P-positions of {title}", desc, side, side, body)


def overlay_plot(
    positions: np.ndarray,
    wythoff: np.ndarray,
    offset: tuple[int, int],
    n: int,
    title: str,
) -> tuple[Markup, dict[str, int]]:
    """The game's P-positions against Wythoff's shifted by the offset
    (Hu–Sleator–Tsin, Figures 2–3), with the defects marked.

    ``wythoff`` holds Wythoff's P-positions already shifted by −offset. Cells
    in both are the path ``same``; the game's alone the path ``extra``;
    Wythoff's alone ``<circle class="missing">`` rings. Returns the picture
    and the three counts.
    """
    n = max(n, 1)
    scale = SIZE / n
    mine = {tuple(p) for p in positions.tolist()}
    theirs = {tuple(p) for p in wythoff.tolist()}
    same = np.array(sorted(mine & theirs), dtype=np.int64).reshape(-1, 2)
    extra = np.array(sorted(mine - theirs), dtype=np.int64).reshape(-1, 2)
    missing = np.array(sorted(theirs - mine), dtype=np.int64).reshape(-1, 2)
    radius = _radius(n, scale)
    body = _axes(n, scale, "x (pile 1)", "y (pile 2)")
    body.append(_data_group(n, scale))
    body.append(_dots(same, radius, "same"))
    # The defects are few: larger marks, drawn over the agreeing dots.
    body.append(_rings(missing, radius * 2, "missing"))
    body.append(_dots(extra, radius * 1.5, "extra"))
    body.append("</g>")
    dx, dy = offset
    counts = {"same": len(same), "extra": len(extra), "missing": len(missing)}
    desc = (
        f"In the box x, y < {n}: {counts['same']} P-positions of {title} are "
        f"Wythoff's P-positions shifted by ({-dx}, {-dy}) (grey dots); "
        f"{counts['extra']} are not (red dots) and {counts['missing']} shifted "
        "Wythoff P-positions are not P-positions of the game (blue rings)."
    )
    side = int(SIZE + 2 * MARGIN)
    title_text = f"{title} against Wythoff's Nim shifted by the offset ({dx}, {dy})"
    return _frame("plot-overlay", title_text, desc, side, side, body), counts


def deviation_plot(
    deviations: Sequence[int], bounds: tuple[int, int] | None, title: str
) -> Markup:
    """b_n − a_n − n against n (Larsson–Wästlund, section 2), with the
    theorem's bounds as dashed lines when known."""
    count = max(len(deviations), 1)
    low = min([*deviations, *(bounds or ()), 0])
    high = max([*deviations, *(bounds or ()), 0])
    width, height = SIZE + 2 * MARGIN, 200
    plot_h = height - 2 * MARGIN
    sx = SIZE / count
    sy = plot_h / max(high - low, 1)

    def y(v: float) -> str:
        return _num(MARGIN + (high - v) * sy)

    body = [
        f'<rect class="frame" x="{MARGIN}" y="{MARGIN}" width="{SIZE}" '
        f'height="{plot_h}"/>',
        f'<text x="{MARGIN - 4}" y="{y(high)}" class="tick end">{high}</text>',
        f'<text x="{MARGIN - 4}" y="{y(low)}" class="tick end">{low}</text>',
        f'<text x="{MARGIN + SIZE}" y="{height - MARGIN + 14}" class="tick end">'
        f"{count}</text>",
        f'<text x="{MARGIN + SIZE // 2}" y="{height - 6}" class="axis">n</text>',
        f'<line class="zero" x1="{MARGIN}" x2="{MARGIN + SIZE}" y1="{y(0)}" '
        f'y2="{y(0)}"/>',
    ]
    for bound in bounds or ():
        body.append(
            f'<line class="bound" x1="{MARGIN}" x2="{MARGIN + SIZE}" '
            f'y1="{y(bound)}" y2="{y(bound)}"/>'
        )
    points = " ".join(
        f"{_num(MARGIN + (i + 0.5) * sx)},{y(v)}" for i, v in enumerate(deviations)
    )
    body.append(f'<polyline class="dev" points="{points}"/>')
    shown = f" between the bounds {bounds[0]} and {bounds[1]}" if bounds else ""
    desc = (
        f"b_n − a_n − n of {title} for n from 0 to {len(deviations) - 1}: values "
        f"from {min(deviations, default=0)} to {max(deviations, default=0)}"
        f"{shown}."
    )
    return _frame(
        "plot-deviations", f"b_n − a_n − n of {title}", desc, width, height, body
    )


def bitstring_strip(bits: str, start: int, title: str) -> Markup:
    """The upper/lower bit-string as a strip: one cell per column, dark for 1."""
    cell = max(2, min(8, SIZE // max(len(bits), 1)))
    width, height = cell * len(bits) + 2 * 8, 40
    body = [f'<rect class="frame" x="8" y="8" width="{cell * len(bits)}" height="16"/>']
    body.extend(
        f'<rect class="one" x="{8 + i * cell}" y="8" width="{cell}" height="16"/>'
        for i, bit in enumerate(bits)
        if bit == "1"
    )
    body.append(f'<text x="8" y="36" class="tick">{start}</text>')
    body.append(
        f'<text x="{width - 8}" y="36" class="tick end">{start + len(bits) - 1}</text>'
    )
    ones = bits.count("1")
    desc = (
        f"The first {len(bits)} bits of the upper/lower bit-string of {title}, "
        f"from column {start}: {ones} ones (lower P-positions, dark) and "
        f"{len(bits) - ones} zeros (upper P-positions, light)."
    )
    return _frame("plot-bitstring", f"Bit-string of {title}", desc, width, height, body)


def grundy_heatmap(grundy: Sequence[Sequence[int]], title: str) -> Markup:
    """Sprague–Grundy values ``grundy[x][y]`` as a heat map with the numbers,
    (0, 0) at the lower left; zeros are the P-positions."""
    n = len(grundy)
    cell = 20
    side = n * cell
    width = height = side + 2 * MARGIN
    top = max((v for row in grundy for v in row), default=0) or 1
    body = []
    for x, column in enumerate(grundy):
        for y, value in enumerate(column):
            left = MARGIN + x * cell
            upper = MARGIN + (n - 1 - y) * cell
            light = 96 - round(60 * value / top)
            body.append(
                f'<rect x="{left}" y="{upper}" width="{cell}" height="{cell}" '
                f'fill="hsl(210 70% {light}%)"/>'
                f'<text x="{left + cell // 2}" y="{upper + 14}" '
                f'class="g{" dark" if light < 60 else ""}">{value}</text>'
            )
    body.append(
        f'<text x="{MARGIN + side // 2}" y="{height - 8}" class="axis">x</text>'
        f'<text x="12" y="{MARGIN + side // 2}" class="axis">y</text>'
    )
    desc = (
        f"Sprague–Grundy values of {title} for x and y below {n}, as a table "
        "coloured from light (small) to dark (large); the zeros are the "
        "P-positions."
    )
    return _frame("plot-grundy", f"Grundy values of {title}", desc, width, height, body)
