"""Families and listings: list the families, seed their members, list
entries by invariant, and tabulate an invariant over a family's two
parameters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from catalog.errors import BadInput, Unprocessable
from catalog.families import Family, FamilySet, Member
from catalog.families.filters import (
    FIELDS,
    MAX_CONDITION_LENGTH,
    MAX_CONDITIONS,
    TABLE_EXTRAS,
    Condition,
    canonical,
    check_field,
    parse_sort,
    parse_where,
)
from catalog.families.params import LabelError
from catalog.inputs import (
    MAX_KEYWORD_LENGTH,
    MAX_QUERY_LENGTH,
    MAX_QUERY_WORDS,
    BadValue,
    check_text,
)
from catalog.service.store import Store, entry_number, idempotent
from catalog.store import families as by_facts
from catalog.store import labels as labelled
from catalog.store import repository as repo
from catalog.store.ids import format_id
from catalog.store.seed import SeedError, load_seeds


def families(store: Store) -> dict[str, Any]:
    """Every family with its member count and how many the catalog holds."""
    fs = store.families
    with store.sessions() as session:
        counts = labelled.family_counts(session)
    return {
        "families": [
            {
                "name": f.name,
                "title": f.title,
                "parameters": [p.describe() for p in f.parameters],
                "constraints": [c.text for c in f.constraints],
                "members": len(fs.members(f.name)),
                "seeded": counts.get(f.name, 0),
                "first_id": format_id(f.id_base),
                "misere_of": f.misere_of,
                "paper": f.paper,
            }
            for f in fs.ordered
        ]
    }


def select_families(fs: FamilySet, names: Sequence[str]) -> list[Family]:
    """``names`` as families; ``"all"`` (or none) is every family."""
    wanted = [n for name in names for n in name.split(",") if n.strip()]
    if not wanted or "all" in wanted:
        return list(fs.ordered)
    return [fs.family(name.strip()) for name in dict.fromkeys(wanted)]


def seed_families(store: Store, names: Sequence[str]) -> dict[str, Any]:
    """Load the seeds, then the members of the named families (idempotent),
    each with the W-number of :mod:`catalog.families.registry` and all the
    labels of its game. One transaction: an error leaves nothing written.

    Returns the seeds' report with the families' entries added to it (each
    ID once), ``families`` (``{name: {"members", "added"}}``) and
    ``members``: the IDs of the families' entries, in seeding order.
    """
    fs = store.families
    chosen = select_families(fs, names)

    def work() -> tuple[dict[str, Any], dict[str, dict[str, int]], dict[str, str]]:
        with store.sessions.begin() as session:
            report = load_seeds(session)
            label_seeds(session, fs)
            summary: dict[str, dict[str, int]] = {}
            states: dict[str, str] = {}
            for family in chosen:
                found = fs.members(family.name)
                seeded = _seed_members(session, fs, found)
                for member in found:
                    # The first visit says what it did.
                    states.setdefault(*seeded[member.game.key])
                summary[family.name] = {
                    "members": len(found),
                    "added": sum(state == "added" for _, state in seeded.values()),
                }
        return report, summary, states

    # Another process seeding at once may commit the same rows first.
    report, summary, states = idempotent(work)
    seeds = {w for ids in report.values() for w in ids}
    for wid, state in states.items():
        if wid not in seeds:
            report[state].append(wid)
    members = list(states)
    return {**report, "families": summary, "members": members}


def label_seeds(session: Session, fs: FamilySet) -> None:
    """Give the entries of the catalog that are family members their labels."""
    numbers = list(fs.seed_ids.values())
    found = session.execute(
        select(repo.Entry.id, repo.Entry.key).where(repo.Entry.id.in_(numbers))
    )
    rows = fs.seed_labels()
    labels = {}
    for number, key in found:
        if key in rows:
            labels[number] = rows[key]
        elif key not in fs.seed_ids and (held := fs.label_rows(key)):
            labels[number] = held  # a member's game under a seed's number
    labelled.attach_many(session, labels)


def _seed_members(
    session: Session, fs: FamilySet, members: Sequence[Member]
) -> dict[str, tuple[str, str]]:
    """Create or refresh the members' entries and give each every label of
    its game: ``{key: (ID, "added" | "updated" | "unchanged")}``, a key
    once. An entry that is a seed's, or a user's under another number, keeps
    its own fields. The new entries and labels are written in a few
    statements (:func:`repo.add_entries`)."""
    firsts: dict[str, Member] = {}
    for member in members:
        firsts.setdefault(member.game.key, member)
    entries = repo.entries_by_key(session, list(firsts))
    new = [m for key, m in firsts.items() if key not in entries]
    taken = repo.taken_numbers(session, [fs.number(m) for m in new])
    for member in new:
        number = fs.number(member)
        if number in taken:
            raise SeedError(
                f"{member.label}: its W-number {format_id(number)} holds another "
                "game (edit the family files only by widening ranges)"
            )
    repo.add_entries(
        session,
        [
            repo.NewEntry(m.game, fs.number(m), source="seed", **_fields(fs, m))
            for m in new
        ],
    )
    seed_numbers = set(fs.seed_ids.values())
    out: dict[str, tuple[str, str]] = {}
    labels: dict[int, list[dict]] = {}
    for key, member in firsts.items():
        number = fs.number(member)
        entry = entries.get(key)
        state = "added" if entry is None else "unchanged"
        if entry is not None and entry.id == number and number not in seed_numbers:
            fields = _fields(fs, member)
            changed = repo.update_entry(session, entry, member.game, **fields)
            state = "updated" if changed else "unchanged"
        held = number if entry is None else entry.id
        out[key] = (format_id(held), state)
        labels[held] = fs.game_label_rows(member)
    labelled.attach_many(session, labels)
    return out


def _fields(fs: FamilySet, member: Member) -> dict[str, Any]:
    """An entry's fields from the primary member of its game."""
    primary = fs.game_members(member)[0]
    return {
        "name": primary.name,
        "description": primary.description,
        "references": primary.references,
        "keywords": primary.keywords,
        "provenance": primary.provenance,
    }


# -- listing by invariant ------------------------------------------------------


def list_entries(
    store: Store,
    keyword: str | None = None,
    after: str | int | None = None,
    limit: int = 100,
    words: Sequence[str] = (),
    family: str | None = None,
    where: Sequence[str] = (),
    sort: str | None = None,
) -> dict[str, Any]:
    """Entries in ID order (or by ``sort``) after ``after`` (an ID, a label or
    a number), filtered by keyword, name words, family and ``where``
    conditions (``FIELD OP VALUE``)."""
    if keyword is not None:
        check_text(keyword, "keyword", MAX_KEYWORD_LENGTH)
    for word in words:
        check_text(word, "q", MAX_QUERY_LENGTH)
    if len(words) > MAX_QUERY_WORDS:
        raise BadValue("q", f"at most {MAX_QUERY_WORDS} words")
    if len(where) > MAX_CONDITIONS:
        raise BadValue("where", f"at most {MAX_CONDITIONS} conditions")
    for condition in where:
        check_text(condition, "where", MAX_CONDITION_LENGTH)
    for name, value in (("family", family), ("sort", sort)):
        if value is not None:
            check_text(value, name, MAX_KEYWORD_LENGTH)
    fs = store.families
    spec = fs.family(family) if family else None
    members = fs.members(spec.name) if spec else None
    conditions: list[Condition] = [parse_where(w, spec, members) for w in where]
    if sort is not None:
        sort = parse_sort(sort, spec, members)
    start = entry_number(store, after) if isinstance(after, str) else (after or 0)
    with store.sessions() as session:
        rows = by_facts.filter_entries(
            session,
            family=spec.name if spec else None,
            parameters=[p.name for p in spec.parameters] if spec else (),
            conditions=conditions,
            sort=sort,
            keyword=keyword,
            words=words,
            after=start,
            limit=limit,
        )
    return {"entries": rows}


# -- tables ----------------------------------------------------------------------


def table(
    store: Store, name: str, invariant: str, fix: Sequence[str] = ()
) -> dict[str, Any]:
    """The invariant over the family's two free parameters: ``{"family",
    "invariant", "rows": {"name", "values"}, "columns": {"name", "values"},
    "cells"}``; ``cells[i][j]`` is null where no stored member has it.

    A family with one free parameter (``nimhoff``'s rule sets, or two
    parameters with one fixed) gets a one-column table: a row for each
    stored member, in the parameter's order, and the one column
    ``{"name": "invariant", "values": [invariant]}``."""
    check_text(name, "family", MAX_KEYWORD_LENGTH)
    check_text(invariant, "invariant", MAX_KEYWORD_LENGTH)
    if len(fix) > 3:
        raise BadValue("fix", "at most 3 (a family has at most 3 parameters)")
    for item in fix:
        check_text(item, "fix", MAX_CONDITION_LENGTH)
    fs = store.families
    family = fs.family(name)
    members = fs.members(family.name)
    invariant = canonical(invariant)
    if invariant not in TABLE_EXTRAS:
        if invariant not in FIELDS:
            known = ", ".join([*FIELDS, *TABLE_EXTRAS])
            raise BadInput(f"unknown invariant {invariant!r} (invariants: {known})")
        check_field(invariant, family, members)
    fixed = _fixed(family, fix)
    free = [i for i, p in enumerate(family.parameters) if i not in fixed]
    if len(free) not in (1, 2):
        names = ", ".join(p.name for p in family.parameters)
        raise Unprocessable(
            f"a table needs one or two free parameters; {family.name} has {names}"
            + (f": fix {len(free) - 2} with --fix NAME=VALUE" if len(free) > 2 else "")
            + (": fix fewer" if not free else "")
        )
    if len(free) == 1:
        return _column(store, family, fixed, invariant, free[0])
    chosen = [m for m in members if all(m.codes[i] == c for i, c in fixed.items())]
    axes = [_axis(family, chosen, i) for i in free]
    where = {
        (codes[free[0]], codes[free[1]]): value
        for codes, _, value in _rows(store, family, fixed, invariant)
    }
    cells = [[where.get((r, c)) for c, _ in axes[1]] for r, _ in axes[0]]
    return {
        "family": family.name,
        "invariant": invariant,
        "rows": {
            "name": family.parameters[free[0]].name,
            "values": [v for _, v in axes[0]],
        },
        "columns": {
            "name": family.parameters[free[1]].name,
            "values": [v for _, v in axes[1]],
        },
        "cells": cells,
    }


def _column(
    store: Store, family: Family, fixed: dict[int, int], invariant: str, free: int
) -> dict[str, Any]:
    """The one-column table of a family with one free parameter: a row for
    each stored member (listing every member would be hundreds of empty
    rows for ``nimhoff``), ordered by the parameter's code."""
    param = family.parameters[free]
    by_code = {
        m.codes[free]: m.parameters[param.name] for m in _chosen(family, store, fixed)
    }
    # A stored label the family files no longer hold (a range narrowed since)
    # has no row, as it has no cell in a table of two parameters.
    stored = sorted(
        (codes[free], value)
        for codes, _, value in _rows(store, family, fixed, invariant)
        if codes[free] in by_code
    )
    return {
        "family": family.name,
        "invariant": invariant,
        "rows": {"name": param.name, "values": [by_code[c] for c, _ in stored]},
        "columns": {"name": "invariant", "values": [invariant]},
        "cells": [[value] for _, value in stored],
    }


def _chosen(family: Family, store: Store, fixed: dict[int, int]) -> list[Member]:
    members = store.families.members(family.name)
    return [m for m in members if all(m.codes[i] == c for i, c in fixed.items())]


def _rows(store: Store, family: Family, fixed: dict[int, int], invariant: str):
    with store.sessions() as session:
        return by_facts.family_rows(
            session, family.name, fixed, None if invariant == "id" else invariant
        )


def _fixed(family: Family, fix: Sequence[str]) -> dict[int, int]:
    """``NAME=VALUE`` → {parameter position: code}."""
    out: dict[int, int] = {}
    names = [p.name for p in family.parameters]
    for item in fix:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep:
            raise BadInput(f"--fix {item!r}: expected NAME=VALUE")
        if name not in names:  # well formed, but not for this family
            raise Unprocessable(
                f"--fix {item!r}: expected NAME=VALUE with NAME one of "
                f"{', '.join(names)}"
            )
        position = names.index(name)
        if position in out:
            raise Unprocessable(f"--fix {name}: given twice")
        param = family.parameters[position]
        if param.type == "subset":
            raise Unprocessable(f"--fix {name}: a subset parameter cannot be fixed")
        try:
            out[position] = param.code(param.parse([value.strip()]))
        except LabelError as exc:
            raise Unprocessable(f"--fix {exc}") from None
    return out


def _axis(family: Family, members: list[Member], position: int) -> list[tuple]:
    """(code, JSON value) of the parameter's values among ``members``."""
    param = family.parameters[position]
    seen = {m.codes[position]: m.parameters[param.name] for m in members}
    return sorted(seen.items())
