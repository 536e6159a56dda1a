"""The members of a family: expansion from parameter values, and labels.

A member's label is ``FAMILY.P1.P2…``: the family name, then each parameter
value as label components (``box.8.13``, ``cell.P.4.0``,
``nimhoff.1-0.0-1.1-1``). A label names exactly one member and never changes.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import product
from threading import Lock
from typing import Any

from catalog.families.params import LabelError, shell_index
from catalog.families.spec import (
    Family,
    FamilyFileError,
    render_definition,
    render_text,
)
from catalog.games.definition import Definition, DefinitionError, canonicalize
from catalog.kinds import label as p_set
from catalog.kinds.star import resolve


@dataclass(frozen=True)
class Member:
    """One member of a family, with everything a seed file would hold."""

    family: str
    label: str
    #: Parameter values by name, in the family's order, as JSON.
    parameters: dict[str, Any]
    definition: dict[str, Any]
    game: Definition
    name: str
    description: str
    keywords: list[str]
    references: list[dict[str, Any]]
    provenance: str
    #: Position in the family's range-independent enumeration.
    index: int
    #: ``id_base + index``: the W-number this member claims for its game.
    slot: int
    #: The parameter values as the store keeps them (see ``Parameter.code``).
    codes: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "family": {"name": self.family, "parameters": self.parameters},
            "definition": self.game.to_json(),
            "name": self.name,
        }


def expand(family: Family, values: tuple[Any, ...]) -> Member:
    """The member with these parameter values (not checked; see :func:`member`)."""
    params = family.parameters
    by_name = {p.name: v for p, v in zip(params, values, strict=True)}
    pairs = list(zip(params, values, strict=True))
    as_json = {p.name: p.to_json(v) for p, v in pairs}
    meanings = {p.name: p.meaning(v) for p, v in pairs}
    as_text = {key: text for p, v in pairs for key, text in p.texts(v).items()}
    parts = [
        part for p, v in zip(params, values, strict=True) for part in p.label_parts(v)
    ]
    label = ".".join([family.name, *parts])
    definition = render_definition(family.definition, meanings)
    try:
        # A ``star`` naming a seed or a label gets its definition written
        # out: the member's definition is then what the catalog stores.
        definition = dict(resolve(definition, family.names))
        game = canonicalize(definition)
        if family.misere_of is not None:
            _check_misere(family, label, game)
            definition = misere(definition)
            game = canonicalize(definition)
    except DefinitionError as exc:
        raise FamilyFileError(f"{family.file}: definition: {label}: {exc}") from None
    index = shell_index([p.offset(by_name[p.name]) for p in params])
    template = family.member
    provenance = template.get("provenance") or (
        f"Member {label} of the family {family.name} ({family.title})."
    )
    return Member(
        family=family.name,
        label=label,
        parameters=as_json,
        definition=definition,
        game=game,
        name=render_text(template["name"], as_text),
        description=render_text(template.get("description", ""), as_text)
        or family.description,
        keywords=[render_text(k, as_text) for k in template.get("keywords", [])],
        references=_render_all(family.references, as_text),
        provenance=render_text(provenance, as_text),
        index=index,
        slot=family.id_base + index,
        codes=tuple(p.code(by_name[p.name]) for p in params),
    )


def misere(definition: dict[str, Any]) -> dict[str, Any]:
    """The same definition with (0, 0) forced N (the misère version)."""
    out = copy.deepcopy(definition)
    alter = out.setdefault("alter", {})
    alter["N"] = [*alter.get("N", []), [0, 0]]
    return out


def _check_misere(family: Family, label: str, base: Definition) -> None:
    """A misère version needs (0, 0) to be the base game's only terminal
    position, and (0, 0) not forced P by the base game; a family whose range
    holds other games needs a constraint that leaves them out."""
    steps = set(base.rays) | set(base.moves)
    if base.star is not None:
        # G⋆ moves by G's P-positions: (1, 0) and (0, 1) among them give it
        # Nim's single steps (the ⋆ of a Beatty game has them: G has no move
        # that empties a pile).
        steps |= p_set(base.star, 2) - {(0, 0)}
    problem = None
    if base.special:
        problem = "special rules may leave other positions without a move"
    elif not {(1, 0), (0, 1)} <= steps:
        problem = "(0, 0) is not its only terminal position: (1,0) or (0,1) is missing"
    elif (0, 0) in base.forced_p or (0, 0) in base.forced_n:
        problem = "the base game already forces (0, 0)"
    if problem:
        raise FamilyFileError(
            f"{family.file}: constraints: {label} has no misère version ({problem})"
        )


def satisfies(family: Family, values: tuple[Any, ...]) -> str | None:
    """The text of the first constraint ``values`` break, or None."""
    by_name = {p.name: v for p, v in zip(family.parameters, values, strict=True)}
    for constraint in family.constraints:
        try:
            ok = constraint(by_name)
        except (TypeError, ValueError, ZeroDivisionError) as exc:
            raise FamilyFileError(
                f"{family.file}: constraints: {constraint.text!r} fails on "
                f"{by_name}: {exc}"
            ) from None
        if not ok:
            return constraint.text
    return None


def members(family: Family) -> list[Member]:
    """Every member of the family within its ranges, in slot order. Families
    built from the same data share one expansion: a process that loads the
    families again (a catalog with its own families folder, most of them
    the shipped ones) expands only what changed. Members are frozen, and
    the list is a copy."""
    key = family.source and family.source + family.names_source
    with _lock:
        found = _expanded.get(key) if key else None
    if found is None:
        ranges = [list(p.all_values()) for p in family.parameters]
        found = sorted(
            (
                expand(family, values)
                for values in product(*ranges)
                if satisfies(family, values) is None
            ),
            key=lambda m: m.index,
        )
        if key:
            with _lock:
                while len(_expanded) >= MAX_EXPANDED:
                    del _expanded[next(iter(_expanded))]
                _expanded[key] = found
    return list(found)


#: Families whose expansion :func:`members` keeps (the shipped ones are 8).
MAX_EXPANDED = 32
_expanded: dict[str, list[Member]] = {}
_lock = Lock()


def parse_values(family: Family, parts: list[str]) -> tuple[Any, ...]:
    """Parameter values from the label components after the family name."""
    params = family.parameters
    fixed = len(params) - (1 if params[-1].type == "subset" else 0)
    shape = ".".join(
        ["NAME"] + [p.name.upper() if p.type != "subset" else "A-B…" for p in params]
    ).replace("NAME", family.name)
    if len(parts) < len(params) or (fixed == len(params) and len(parts) != fixed):
        raise LabelError(
            f"{family.name} labels have {'at least ' if fixed < len(params) else ''}"
            f"{len(params)} parameter{'s' if len(params) > 1 else ''} "
            f"({shape}), not {len(parts)}"
        )
    values = [p.parse([parts[i]]) for i, p in enumerate(params[:fixed])]
    if fixed < len(params):
        values.append(params[-1].parse(parts[fixed:]))
    out = tuple(values)
    broken = satisfies(family, out)
    if broken is not None:
        raise LabelError(
            f"{family.name}: no member with {_show(family, out)}: needs {broken}"
        )
    return out


def member(family: Family, parts: list[str]) -> Member:
    """The member named by the label components ``parts``."""
    return expand(family, parse_values(family, parts))


def _show(family: Family, values: tuple[Any, ...]) -> str:
    return ", ".join(
        f"{p.name}={p.text(v)}" for p, v in zip(family.parameters, values, strict=True)
    )


def _render_all(value: Any, as_text: dict[str, str]) -> Any:
    if isinstance(value, str):
        return render_text(value, as_text)
    if isinstance(value, list):
        return [_render_all(v, as_text) for v in value]
    if isinstance(value, dict):
        return {k: _render_all(v, as_text) for k, v in value.items()}
    return value
