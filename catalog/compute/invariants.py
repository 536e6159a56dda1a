"""Every invariant the papers define, for one definition: pure and JSON-ready.

Each item says where it comes from and whether it is a theorem (proved for
the game, and here computed by the proof's recipe and checked against the
data) or an observation (read off the computed P-positions, true as far as
they go). ``wythoff show`` and ``/api/v1/entries/{id}`` print the result;
the store keeps it per entry with :data:`VERSION`, so a change of recipe
here is recomputed on the next read.

- altered Wythoff games, and Wythoff's Nim as the empty alteration
  (:mod:`catalog.compute.offsets`): saturation (Lemma 2), offset
  (Theorem 3; Theorem 2 for boxes), defects (section 4), and the overlap
  with Wythoff's P-positions in growing boxes (Theorem 1, observed);
- Maharaja-type games (:mod:`catalog.compute.dictionary`): the bit-string's
  deviations b_n − a_n − n, the dictionary of words and translates, and
  whether positions far out follow from it (:mod:`catalog.compute.wordfarout`);
- Wythoff's Nim plus single moves (:mod:`catalog.compute.adjoinable`):
  whether each move is adjoinable, hence whether the P-positions are
  Wythoff's;
- games a theorem answers anywhere (:mod:`catalog.compute.theorems`:
  a-Wythoff, Euclid's game): ``far_out``, with the paper;
- cone games with Nim's rays (a-Wythoff, (s,t)-Wythoff, m-modular): whether
  the upper P-positions (A_n, B_n) have B_n − A_n linear in n, and
  B_n = s·A_n + t·n, with the first n where each fails (``cone_pairs``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from catalog.compute import dictionary, offsets, theorems
from catalog.compute.adjoinable import adjoinable
from catalog.compute.closed import WYTHOFF_RAYS
from catalog.games.definition import Definition, canonicalize

#: Bump when a recipe below changes what it returns (2: ``far_out``;
#: 3: theorems' ``far_out``, ``cone_pairs``).
VERSION = 3
#: Columns the cone games' pairs are read from.
CONE_PAIRS_N = 20_000

HST = "Hu, Sleator and Tsin, Wythoff's Nim with Finite Alterations"
DFNR = (
    "Duchêne, Fraenkel, Nowakowski and Rigo, Extensions and restrictions of "
    "Wythoff's game preserving its P-positions"
)
LW = "Larsson and Wästlund, Maharaja Nim: Wythoff's Queen meets the Knight"


def compute(definition: Mapping[str, Any] | Definition) -> dict[str, Any]:
    """The invariants that apply to ``definition`` (an empty dict if none)."""
    game = canonicalize(definition)
    out: dict[str, Any] = {}
    altered = offsets.altered_invariants(game)
    if altered is not None:
        out.update(_altered(altered))
    if dictionary.is_maharaja_type(game):
        out.update(_maharaja(game))
    if _wythoff_plus_moves(game):
        out["adjoined_moves"] = _adjoined(game)
    theorem = theorems.theorem_for(game)
    if theorem is not None:
        out["far_out"] = {
            "value": {"game": theorem.name},
            "status": "theorem",
            "source": theorem.source,
            "note": theorem.note,
        }
    if game.cones and {(0, 1), (1, 0)} <= set(game.rays) and not game.block:
        out["cone_pairs"] = _cone_pairs(game, CONE_PAIRS_N)
    return out


def _cone_pairs(game: Definition, n: int) -> dict[str, Any]:
    """With Nim's rays a row and a column hold one P-position each: read the
    upper ones (A_n, B_n), A_n < B_n, n = 1, 2, … (with A_0 = B_0 = 0), and
    test the papers' forms B_n − A_n = d·n (a-Wythoff, d = a) and
    B_n = s·A_n + t·n ((s,t)-Wythoff), s and t read off the first pair and
    the first one not proportional to it."""
    from catalog.compute.ptable import p_positions  # the sweep, only to compute

    found = p_positions(game, n)
    upper = found[found[:, 0] < found[:, 1]]
    a = [0, *upper[:, 0].tolist()]
    b = [0, *upper[:, 1].tolist()]
    terms = len(a) - 1
    d = b[1] - a[1] if terms >= 1 else None
    first_d = None
    if d is not None:
        first_d = next((k for k in range(1, terms + 1) if b[k] - a[k] != d * k), None)
    s = t = first_st = None
    # s and t from (A_1, B_1) and the first pair not proportional to it.
    for j in range(2, terms + 1):
        den = a[1] * j - a[j]
        if den:
            num = b[1] * j - b[j]
            if num % den == 0:
                s = num // den
                t = b[1] - s * a[1]
                first_st = next(
                    (k for k in range(1, terms + 1) if b[k] != s * a[k] + t * k), None
                )
            break
    return {
        "value": {
            "difference_linear": terms >= 1 and first_d is None,
            "slope": d,
            "first_failure": first_d,
            "form": None if s is None else {"s": s, "t": t, "holds": first_st is None},
            "form_first_failure": first_st,
        },
        "status": "observed",
        "source": "Fraenkel 1982 (B_n - A_n = a n) and 1998 (B_n = s A_n + t n)",
        "terms": terms,
        "n": n,
    }


def _wythoff_plus_moves(game: Definition) -> bool:
    return (
        game.rays == WYTHOFF_RAYS
        and bool(game.moves)
        and not game.beyond("rays", "moves")
    )


def _adjoined(game: Definition) -> dict[str, Any]:
    """Wythoff's Nim plus single moves keeps its P-positions iff no added move
    joins two of them (the slides' Corollary); each move is checked exactly."""
    moves = [adjoinable(i, j).to_json() for i, j in game.moves]
    return {
        "value": {
            "same_p_positions_as_wythoff": all(m["adjoinable"] for m in moves),
            "moves": moves,
        },
        "status": "theorem",
        "source": f"{DFNR}, Corollary (extension preserving the P-positions)",
    }


def _altered(found: dict[str, Any]) -> dict[str, Any]:
    box = found["offset_method"] == "theorem-2"
    return {
        "offset": {
            "value": found["offset"],
            "method": found["offset_method"],
            "status": "theorem",
            "source": f"{HST}, Theorem 2" if box else f"{HST}, Theorem 3",
            "counts": found["theorem3"],
        },
        "saturation": {
            "value": found["saturation"],
            "status": "theorem",
            "source": f"{HST}, Lemma 2",
        },
        "defects": {
            "value": found["defects"],
            "status": "theorem" if found["defects"] is not None else "unknown",
            "source": f"{HST}, section 4 (Lemmas 4-7, Corollary 2)",
            "balanced_at": found["defects_balanced_at"],
        }
        | (
            {}
            if found["defects"] is not None
            else {
                "note": "the aligned bitstrings balance only after more than "
                f"{offsets.MAX_ALIGN_STEPS} steps (Lemma 4 promises a time, not "
                "how soon); the area was not measured"
            }
        ),
        "overlap": {
            "value": found["overlap"],
            "status": "observed",
            "source": f"{HST}, Theorem 1",
            "note": "|A' ∩ B| / |A' ∪ B| in the box [0, n)², A' the P-positions "
            "shifted by the offset, B Wythoff's; it tends to 1",
        },
    }


#: Maharaja-type games whose items a process keeps (a few KB each).
MAHARAJA_KEPT = 64


def _maharaja(game: Definition, n: int = dictionary.DEFAULT_N) -> dict[str, Any]:
    """Deviations and the dictionary under both of the paper's rules; the
    top-level ``dictionary`` is the rule the paper reads this game with.

    They take 30 ms to a few hundred (the table, two readings of the
    dictionary, the far-out solver's check) and depend on the definition
    only, so a process keeps the last :data:`MAHARAJA_KEPT` games' and
    computes them again only for a new game (not for the same game filled
    in another catalog, or again after an edit of its entry). Each caller
    gets its own copy."""
    return copy.deepcopy(_maharaja_items(game, n))


@lru_cache(maxsize=MAHARAJA_KEPT)
def _maharaja_items(game: Definition, n: int) -> dict[str, Any]:
    from catalog.compute.ptable import p_positions  # the sweep, only to compute

    positions = p_positions(game, n)
    dev = dictionary.deviations(positions, n)
    paper_rule, paper = dictionary.PAPER_DICTIONARIES.get(game.moves, ("sector", {}))
    proved = game.moves == dictionary.MAHARAJA_MOVES
    out: dict[str, Any] = {
        "deviations": {
            "value": {"min": dev.min, "max": dev.max},
            "status": "theorem" if proved else "observed",
            "source": f"{LW}, section 2 (-4 <= b_n - a_n - n <= 3)"
            if proved
            else f"{LW}, section 4",
            "first_min": dev.first_min,
            "first_max": dev.first_max,
            "terms": dev.n_terms,
        },
    }
    books = {}
    for rule in ("sector", "relaxed"):
        book = books[rule] = dictionary.read_dictionary(
            positions, n, game.moves, rule=rule
        )
        name = "dictionary" if rule == paper_rule else f"dictionary_{rule}"
        out[name] = {
            "value": dict(book.words),
            "status": "observed",
            "rule": rule,
            "source": f"{LW}, section 2.3" if rule == "sector" else f"{LW}, 5.1",
            "first": dict(book.first),
            "counts": dict(book.counts),
            "start": book.start,
            "columns": book.columns,
            "problems": list(book.problems),
            "paper": _against_paper(book.words, paper) if rule == paper_rule else None,
        }
    far = _far_out(game, positions, n, books["sector"])
    if far is not None:
        out["far_out"] = far
    return out


def _far_out(
    game: Definition, positions: Any, n: int, book: dictionary.Dictionary
) -> dict[str, Any] | None:
    """Positions past the table by the dictionary process: a theorem for
    Maharaja Nim (the paper's words), observed to the columns checked for a
    game whose words read off the table close a dictionary; no item when
    they do not (is-p past the table then needs the table)."""
    from catalog.compute import wordfarout  # the solver, only to compute

    solved = wordfarout.solve(game.moves, positions, n, book=book)
    if solved is None:
        return None
    return {
        "value": {"start": solved.solver.s0, "words": len(solved.solver.book)},
        "status": solved.status,
        "source": solved.source,
        "checked_to": solved.checked_to,
        "note": "is-p, columns, rows and diagonals at any pile size without a "
        "table: the dictionary process read down O(log p) levels from column "
        "start (docs/invariants/maharaja-far-out.md)",
    }


def _against_paper(
    found: Mapping[str, str], paper: Mapping[str, tuple[str, str]]
) -> dict[str, Any] | None:
    """Which words are the paper's (by equation), which are new, which the
    paper lists but the data never showed."""
    if not paper:
        return None
    return {
        "equations": {
            w: paper[w][1] for w in found if paper.get(w, ("",))[0] == found[w]
        },
        "not_in_paper": sorted(w for w in found if paper.get(w, ("",))[0] != found[w]),
        "not_seen": [eq for w, (_, eq) in paper.items() if w not in found],
    }
