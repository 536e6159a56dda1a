"""The entry document laid out for reading: pure functions from the
document (and its definition) to what the entry page's template shows.

The definition in words, with forced cells written back as boxes; the
references with their links; the invariants and the dictionary as table rows.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from catalog import kinds
from catalog.games.boxes import as_input
from catalog.games.definition import canonicalize

_ARXIV = re.compile(r"arXiv:\s*(\d{4}\.\d{4,5})", re.IGNORECASE)


def altered(definition: dict[str, Any]) -> bool:
    alter = definition.get("alter") or {}
    return any(alter.get(k) for k in ("P", "N", "P_boxes", "N_boxes"))


def describe(
    definition: dict[str, Any], short: dict[str, Any] | None = None
) -> list[str]:
    """The definition in words, as each rule kind describes itself
    (:meth:`catalog.kinds.base.Kind.describe`; ``short``: its
    :func:`as_input` form, if already at hand)."""
    rules = canonicalize({k: v for k, v in definition.items() if k != "alter"})
    # Rays and moves in the order the definition lists them.
    rules = replace(
        rules,
        rays=tuple(tuple(r) for r in definition.get("rays") or ()),
        moves=tuple(tuple(m) for m in definition.get("moves") or ()),
    )
    out: list[str] = []
    after: list[str] = []
    for kind in kinds.present(rules):
        (after if kind.sentences else out).extend(kind.describe(rules))
    sentences = ["A move may " + "; or ".join(out) + "."] if out else []
    sentences += after
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


def definition_json(
    definition: dict[str, Any], short: dict[str, Any]
) -> dict[str, Any]:
    """The definition as JSON, with forced cells as boxes where they form any
    (``short``, from :func:`as_input`; a forced 100×100 box is 10,000 stored
    cells). Without boxes it is the stored definition itself."""
    alter = short.get("alter") or {}
    has_boxes = any(k.endswith("_boxes") for k in alter)
    chosen = short if has_boxes else definition
    return {"text": shorten(json.dumps(chosen), 20_000), "boxes": has_boxes}


def reference(ref: dict[str, Any]) -> dict[str, Any]:
    url = ref.get("url")
    match = _ARXIV.search(ref.get("citation") or "")
    arxiv = f"https://arxiv.org/abs/{match.group(1)}" if match else None
    doi = f"https://doi.org/{ref['doi']}" if ref.get("doi") else None
    return {**ref, "link": url or arxiv or doi}


def invariant_rows(doc: dict[str, Any]) -> list[dict[str, Any]]:
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
                "details": shorten(json.dumps(extra, ensure_ascii=False))
                if extra
                else "",
            }
        )
    return rows


#: Most dictionary rows on a page; a game without a finite dictionary (such
#: as (3,5)-Maharaja) has thousands of words, all in the API's document.
DICTIONARY_ROWS = 40


def shorten(text: str, most: int = 2000) -> str:
    """At most ``most`` characters: the whole document is in the API."""
    return text if len(text) <= most else text[:most] + " …"


def dictionary_rows(doc: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
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
