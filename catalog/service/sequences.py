"""Stored sequences and bit-strings, the exports built from them (b-file,
OEIS internal format, CSV, JSON), and search over them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from catalog.compute import closed
from catalog.compute.sequences import MAX_TERMS, column_tail
from catalog.errors import NotFound
from catalog.games.definition import (
    canonicalize,
)
from catalog.inputs import MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET, check_int, shown
from catalog.service.entries import show
from catalog.service.positions import positions
from catalog.service.store import Store, entry_number
from catalog.store import repository as repo
from catalog.store.ids import format_id


class UnknownSequence(NotFound):
    """The entry has no stored sequence or bit-string of that name."""


def sequence(
    store: Store, wid: str, name: str, start: int = 0, limit: int = 10_000
) -> dict[str, Any]:
    """Stored terms ``start`` .. ``start + limit`` of a derived sequence.

    ``capped`` is true when the stored sequence reached :data:`MAX_TERMS`
    terms, the most the catalog keeps: the sequence goes on beyond them.
    """
    number = entry_number(store, wid)
    with store.sessions() as session:
        repo.get_entry(session, number)
        found = repo.read_sequences(session, number).get(name)
    if found is None:
        raise UnknownSequence(
            f"{format_id(number)} has no stored sequence {shown(name)}"
        )
    terms = found["terms"][start : start + limit].tolist()
    more = start + limit < found["length"]
    return {
        "id": format_id(number),
        "name": name,
        "offset": found["offset"],
        "length": found["length"],
        "description": found["description"],
        "capped": found["length"] >= MAX_TERMS,
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
    from catalog.store import search as searching  # the index serves this alone

    check_int(offset, "offset", 0, MAX_SEARCH_OFFSET)
    check_int(limit, "limit", 1, MAX_SEARCH_LIMIT)
    parsed = searching.parse(query)
    with store.reading() as connection:
        results, more = searching.search(connection, parsed, offset, limit)
    shown = parsed.get("terms", parsed.get("words"))
    return {
        "query": shown,
        "results": results,
        "next": offset + limit if more else None,
    }


#: The sequence an entry is exported as: a_n for symmetric games (the lower
#: Wythoff sequence for W000001), else the column sequence y(x).
MAIN_SEQUENCES = ("a", "y")


@dataclass(frozen=True)
class MainSequence:
    """What an entry is exported as: ``terms`` from index ``offset`` on.

    ``capped``: the stored sequence stops at :data:`MAX_TERMS` terms, so the
    bound asked for would reach further than the terms given.
    """

    name: str
    offset: int
    terms: np.ndarray
    capped: bool


def _main_sequence(store: Store, wid: str, n: int) -> MainSequence:
    """The main sequence, the terms the bound n covers.

    Games whose first columns hold several P-positions (a Box forced P) have
    neither a_n nor y(x) from column 0; they are exported as y(x) from the
    first column after which every column holds one P-position.
    """
    number = entry_number(store, wid)
    with store.sessions() as session:
        repo.get_entry(session, number)
        sequences = repo.read_sequences(session, number)
        name = next((s for s in MAIN_SEQUENCES if s in sequences), None)
        extent = repo.get_extent(session, number)
        tail = None
        if name is None and extent is not None and extent.y_bound is None:
            found = repo.read_positions(session, number, 0, n, cache=store.cache)
            tail = column_tail(found, min(n, extent.x_bound))
    if name is not None:
        seq = sequences[name]
        stored = seq["terms"]
        if name == "y":
            terms, capped = stored[:n], n > len(stored)
        else:
            terms = stored[stored < n]
            capped = len(stored) >= MAX_TERMS and len(terms) == len(stored)
        return MainSequence(name, seq["offset"], terms, capped)
    if tail is None:
        raise UnknownSequence(
            f"{format_id(number)} has no integer sequence to export: it needs "
            "symmetric pairs, or whole columns that hold one P-position each "
            "from some column on (wythoff export --format csv gives every "
            "P-position)"
        )
    x0, column = tail
    return MainSequence("y", x0, column[:MAX_TERMS], len(column) > MAX_TERMS)


def capped_note(count: int) -> str:
    """Why an export stops early, for a comment line."""
    return (
        f"capped: the catalog keeps the first {MAX_TERMS} terms of each derived "
        f"sequence; these {count} terms stop there"
    )


def bfile(
    store: Store, wid: str, n: int, start: int = 0, limit: int | None = None
) -> str:
    """The main sequence as OEIS b-file lines ``index value``; a comment line
    says when the sequence is capped."""
    main = _main_sequence(store, wid, n)
    terms = main.terms
    stop = len(terms) if limit is None else start + limit
    header = (
        f"# {format_id(entry_number(store, wid))} sequence {main.name}, "
        f"offset {main.offset}\n"
    )
    if main.capped:
        header += f"# {capped_note(len(terms))}\n"
    lines = (
        f"{main.offset + i} {v}\n"
        for i, v in enumerate(terms[start:stop].tolist(), start)
    )
    return header + "".join(lines)


def oeis(store: Store, wid: str, n: int) -> str:
    """The entry in the OEIS internal format (%I %S %T %U %N %C %F %Y %K %O)."""
    positions(store, wid, n)
    doc = show(store, wid)
    main = _main_sequence(store, wid, n)
    terms = main.terms
    wid = doc["id"]
    lines = [f"%I {wid}"]
    for tag, text in zip("STU", _term_lines(terms.tolist()), strict=False):
        lines.append(f"%{tag} {wid} {text}")
    what = {
        "a": "a(n) = the smaller coordinate of the n-th P-position pair",
        "y": "a(n) = the row of the P-position in column n",
    }[main.name]
    if main.name == "y" and main.offset:
        what += (
            f", for n >= {main.offset} (each column before holds several P-positions)"
        )
    lines.append(f"%N {wid} {doc['name']}: {what}.")
    for text in (doc["description"], doc["provenance"]):
        if text:
            lines.append(f"%C {wid} {text}")
    extent = doc["computed"]
    lines.append(
        f"%C {wid} Computed by the Wythoff Variant Catalog up to x < "
        f"{extent['x_bound']} ({extent['engine']})."
    )
    if main.capped:
        lines.append(f"%C {wid} {capped_note(len(terms)).capitalize()}.")
    game = canonicalize(doc["definition"])
    if closed.is_wythoff(game) and main.name == "a":
        lines.append(f"%F {wid} a(n) = floor(n*phi), phi = (1+sqrt(5))/2.")
        lines.append(f"%F {wid} a(n) = (n + floor(sqrt(5*n^2)))/2 (integer division).")
    if doc["xrefs"]:
        lines.append(f"%Y {wid} Cf. {', '.join(doc['xrefs'])}.")
    keywords = ["nonn", *doc["keywords"]]
    lines.append(f"%K {wid} {','.join(keywords)}")
    big = np.flatnonzero(np.abs(terms) > 1)
    lines.append(f"%O {wid} {main.offset},{int(big[0]) + 1 if big.size else 1}")
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
