"""Stored sequences and bit-strings, the exports built from them (b-file,
OEIS internal format, CSV, JSON), and search over them."""

from __future__ import annotations

from typing import Any

import numpy as np

from catalog.compute import closed
from catalog.errors import NotFound
from catalog.games.definition import (
    canonicalize,
)
from catalog.service.entries import show
from catalog.service.positions import positions
from catalog.service.store import Store, entry_number
from catalog.store import repository as repo
from catalog.store import search as searching
from catalog.store.ids import format_id


class UnknownSequence(NotFound):
    """The entry has no stored sequence or bit-string of that name."""


def sequence(
    store: Store, wid: str, name: str, start: int = 0, limit: int = 10_000
) -> dict[str, Any]:
    """Stored terms ``start`` .. ``start + limit`` of a derived sequence."""
    number = entry_number(store, wid)
    with store.sessions() as session:
        repo.get_entry(session, number)
        found = repo.read_sequences(session, number).get(name)
    if found is None:
        raise UnknownSequence(f"{format_id(number)} has no stored sequence {name!r}")
    terms = found["terms"][start : start + limit].tolist()
    more = start + limit < found["length"]
    return {
        "id": format_id(number),
        "name": name,
        "offset": found["offset"],
        "length": found["length"],
        "description": found["description"],
        "start": start,
        "terms": terms,
        "next": start + limit if more else None,
    }


def bitstring(store: Store, wid: str) -> dict[str, Any]:
    number = entry_number(store, wid)
    with store.sessions() as session:
        repo.get_entry(session, number)
        rows = {row.kind: row for row in repo.read_bitstrings(session, number)}
    row = rows.get("upper-lower")
    if row is None:
        raise UnknownSequence(
            f"{format_id(number)} has no bit-string: it needs one P-position per "
            "column, computed (wythoff compute)"
        )
    return {
        "id": format_id(number),
        "kind": row.kind,
        "start": row.start,
        "length": row.length,
        "bits": row.bits,
    }


def search(
    store: Store, query: str, offset: int = 0, limit: int = 50
) -> dict[str, Any]:
    """Entries whose stored sequences contain the terms of ``query``
    consecutively (``1,3,4,6``), ranked; or ``id:W…``, ``keyword:…`` and words
    of the name. ``next`` is the offset of the following page, or None."""
    parsed = searching.parse(query)
    with store.sessions() as session:
        results, more = searching.search(session, parsed, offset, limit)
    shown = parsed.get("terms", parsed.get("words"))
    return {
        "query": shown,
        "results": results,
        "next": offset + limit if more else None,
    }


#: The sequence an entry is exported as: a_n for symmetric games (the lower
#: Wythoff sequence for W000001), else the column sequence y(x).
MAIN_SEQUENCES = ("a", "y")


def _main_sequence(store: Store, wid: str, n: int) -> tuple[str, int, np.ndarray]:
    """(name, offset, terms) of the main sequence, the terms the bound n covers."""
    number = entry_number(store, wid)
    with store.sessions() as session:
        repo.get_entry(session, number)
        sequences = repo.read_sequences(session, number)
    name = next((s for s in MAIN_SEQUENCES if s in sequences), None)
    if name is None:
        raise UnknownSequence(
            f"{format_id(number)} has no integer sequence to export (it needs whole "
            "columns with one P-position each, or symmetric pairs)"
        )
    seq = sequences[name]
    terms = seq["terms"]
    terms = terms[:n] if name == "y" else terms[terms < n]
    return name, seq["offset"], terms


def bfile(
    store: Store, wid: str, n: int, start: int = 0, limit: int | None = None
) -> str:
    """The main sequence as OEIS b-file lines ``index value``."""
    name, offset, terms = _main_sequence(store, wid, n)
    stop = len(terms) if limit is None else start + limit
    header = (
        f"# {format_id(entry_number(store, wid))} sequence {name}, offset {offset}\n"
    )
    lines = (
        f"{offset + i} {v}\n" for i, v in enumerate(terms[start:stop].tolist(), start)
    )
    return header + "".join(lines)


def oeis(store: Store, wid: str, n: int) -> str:
    """The entry in the OEIS internal format (%I %S %T %U %N %C %F %Y %K %O)."""
    positions(store, wid, n)
    doc = show(store, wid)
    name, offset, terms = _main_sequence(store, wid, n)
    wid = doc["id"]
    lines = [f"%I {wid}"]
    for tag, text in zip("STU", _term_lines(terms.tolist()), strict=False):
        lines.append(f"%{tag} {wid} {text}")
    what = {
        "a": "a(n) = the smaller coordinate of the n-th P-position pair",
        "y": "a(n) = the row of the P-position in column n",
    }[name]
    lines.append(f"%N {wid} {doc['name']}: {what}.")
    for text in (doc["description"], doc["provenance"]):
        if text:
            lines.append(f"%C {wid} {text}")
    extent = doc["computed"]
    lines.append(
        f"%C {wid} Computed by the Wythoff Variant Catalog up to x < "
        f"{extent['x_bound']} ({extent['engine']})."
    )
    game = canonicalize(doc["definition"])
    if closed.is_wythoff(game) and name == "a":
        lines.append(f"%F {wid} a(n) = floor(n*phi), phi = (1+sqrt(5))/2.")
        lines.append(f"%F {wid} a(n) = (n + floor(sqrt(5*n^2)))/2 (integer division).")
    if doc["xrefs"]:
        lines.append(f"%Y {wid} Cf. {', '.join(doc['xrefs'])}.")
    keywords = ["nonn", *doc["keywords"]]
    lines.append(f"%K {wid} {','.join(keywords)}")
    big = np.flatnonzero(np.abs(terms) > 1)
    lines.append(f"%O {wid} {offset},{int(big[0]) + 1 if big.size else 1}")
    return "\n".join(lines) + "\n"


def _term_lines(terms: list[int], width: int = 69) -> list[str]:
    """Terms for %S, %T and %U: about 260 characters in all, as the OEIS."""
    lines, current = [], ""
    for term in terms:
        piece = f"{term},"
        if len(current) + len(piece) > width:
            lines.append(current)
            current = ""
            if len(lines) == 3:
                break
        current += piece
    if current and len(lines) < 3:
        lines.append(current)
    return lines


def export(store: Store, wid: str, fmt: str, n: int) -> str | dict[str, Any]:
    if fmt == "oeis":
        return oeis(store, wid, n)
    doc = positions(store, wid, n)
    if fmt == "json":
        return doc
    if fmt == "csv":
        return "x,y\n" + "".join(f"{x},{y}\n" for x, y in doc["positions"])
    return bfile(store, wid, n)
