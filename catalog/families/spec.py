"""Family files: one JSON object per family in ``seeds/families/``.

Fields (``docs/families/README.md`` has the full description):

``name``, ``title``, ``description``, ``paper``
    What the family is; ``name`` is the label prefix and the file's stem.
``id_base``
    The first W-number of the family's block; a member's slot is
    ``id_base + shell_index(offsets)`` (:mod:`catalog.families.params`).
``parameters``
    Their ranges (:class:`~catalog.families.params.Parameter`).
``constraints``
    Expressions every member satisfies (:mod:`catalog.families.expr`).
``definition``
    The definition template: a string ``"$k"`` anywhere (also as an object
    key) is replaced by the value of parameter ``k``, and ``"$(…)"`` by the
    value of an integer expression over them (``"$(1 - a)"``).
``member``
    Templates of the member's ``name``, ``description``, ``keywords`` and
    ``provenance``, where ``{k}`` is replaced by the value of ``k`` (and
    ``{k.cf}`` … by its other texts, :meth:`Parameter.fields`).
``references``
    The papers, as in a seed file; their strings are templates too.
``misere_of``
    Instead of ``parameters`` and ``definition``: the misère version of
    another family, with its parameters, constraints (plus any listed here)
    and definition, and (0, 0) forced N.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from catalog.errors import BadInput
from catalog.families.expr import Constraint, Expression
from catalog.families.params import Parameter
from catalog.kinds.star import Names

FAMILY_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")
#: ``{k}``, or ``{k.field}`` for a parameter's other texts (``{alpha.cf}``,
#: :meth:`~catalog.families.params.Parameter.fields`).
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*(?:\.[a-z]+)?)\}")
MEMBER_FIELDS = ("name", "description", "keywords", "provenance")
TOP_FIELDS = {
    "name",
    "title",
    "description",
    "paper",
    "id_base",
    "parameters",
    "constraints",
    "definition",
    "member",
    "references",
    "misere_of",
}


class FamilyFileError(BadInput):
    """A family file that cannot be used; the message names file and field."""


@dataclass(frozen=True)
class Family:
    """One family, validated. ``file`` is the file name, for messages."""

    name: str
    title: str
    description: str
    paper: str
    id_base: int
    parameters: tuple[Parameter, ...]
    constraints: tuple[Constraint, ...]
    definition: Any
    member: dict[str, Any]
    references: list[dict[str, Any]]
    misere_of: str | None = None
    file: str = ""
    #: The JSON of the file's data (and of the ``misere_of`` family's):
    #: families read from the same files have the same, and share one
    #: expansion (:func:`catalog.families.members.members`).
    source: str = field(default="", repr=False)
    #: Resolves the seed IDs and labels a ``star`` of the template names
    #: (:func:`catalog.families.registry.names`); set by the loader.
    names: Names | None = field(default=None, repr=False, compare=False)
    #: What those names stand for (the seeds' and the other families' files)
    #: when the template has a ``star``, else "": part of the key of the
    #: shared expansion (:func:`catalog.families.members.members`).
    names_source: str = field(default="", repr=False, compare=False)

    def parameter(self, name: str) -> Parameter:
        for p in self.parameters:
            if p.name == name:
                return p
        raise KeyError(name)


def read_family_file(path: Path) -> dict[str, Any]:
    """The raw JSON object of a family file, with its shape checked."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FamilyFileError(f"{path.name}: {exc}") from None
    if not isinstance(data, dict):
        raise FamilyFileError(f"{path.name}: must hold a JSON object")
    unknown = sorted(set(data) - TOP_FIELDS)
    if unknown:
        raise FamilyFileError(f"{path.name}: {unknown[0]}: unknown field")
    own = ("parameters", "definition")
    if "misere_of" in data:
        for key in own:
            if key in data:
                raise FamilyFileError(
                    f"{path.name}: {key}: a misère family takes it from misere_of"
                )
        needed = ["name", "title", "description", "paper", "id_base", "member"]
    else:
        needed = ["name", "title", "description", "paper", "id_base", *own, "member"]
    for key in needed:
        if key not in data:
            raise FamilyFileError(f"{path.name}: {key}: missing field")
    if data["name"] != path.stem:
        raise FamilyFileError(
            f"{path.name}: name: {data['name']!r} must equal the file name "
            f"{path.stem!r}"
        )
    data["file"] = path.name
    return data


def build_family(data: dict[str, Any], base: Family | None = None) -> Family:
    """Validate ``data`` (from :func:`read_family_file`) into a :class:`Family`.

    ``base`` is the family named by ``misere_of``, already built.
    """
    where = data.get("file", "family")

    def fail(field_name: str, message: str) -> FamilyFileError:
        return FamilyFileError(f"{where}: {field_name}: {message}")

    name = data["name"]
    if not isinstance(name, str) or not FAMILY_NAME.match(name):
        raise fail("name", f"{name!r} must match {FAMILY_NAME.pattern}")
    for key in ("title", "description", "paper"):
        if not isinstance(data[key], str) or not data[key].strip():
            raise fail(key, "must be a non-empty string")
    id_base = data["id_base"]
    if not (isinstance(id_base, int) and not isinstance(id_base, bool)):
        raise fail("id_base", "must be an integer")

    if base is not None:
        parameters = base.parameters
        inherited = base.constraints
        definition = base.definition
    else:
        raw = data["parameters"]
        if not isinstance(raw, list) or not raw:
            raise fail("parameters", "must be a non-empty list")
        built = []
        for i, item in enumerate(raw):
            try:
                built.append(Parameter.from_json(item))
            except ValueError as exc:
                raise fail(f"parameters[{i}]", str(exc)) from None
        parameters = tuple(built)
        inherited = ()
        definition = data["definition"]
        if not isinstance(definition, dict):
            raise fail("definition", "must be an object (a definition template)")
    names = [p.name for p in parameters]
    if len(names) > 3:
        raise fail("parameters", "at most 3 (the store indexes three)")
    if len(set(names)) != len(names):
        raise fail("parameters", "names must not repeat")
    if any(p.type == "subset" for p in parameters[:-1]):
        raise fail("parameters", "a subset parameter must come last")

    raw_constraints = data.get("constraints", [])
    if not isinstance(raw_constraints, list):
        raise fail("constraints", "must be a list of expressions")
    constraints = list(inherited)
    for i, text in enumerate(raw_constraints):
        try:
            constraints.append(Constraint(text, set(names)))
        except ValueError as exc:
            raise fail(f"constraints[{i}]", str(exc)) from None

    if base is None:
        _check_template(definition, set(names), "definition", fail)
    member = data["member"]
    if not isinstance(member, dict):
        raise fail("member", "must be an object with name, keywords, ...")
    unknown = sorted(set(member) - set(MEMBER_FIELDS))
    if unknown:
        raise fail(f"member.{unknown[0]}", "unknown field")
    if not isinstance(member.get("name"), str):
        raise fail("member.name", "must be a string template")
    keywords = member.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise fail("member.keywords", "must be a list of string templates")
    for key in ("description", "provenance"):
        if not isinstance(member.get(key, ""), str):
            raise fail(f"member.{key}", "must be a string template")
    references = data.get("references", [])
    if not isinstance(references, list) or not all(
        isinstance(r, dict) and isinstance(r.get("citation"), str) for r in references
    ):
        raise fail("references", "must be a list of objects with a citation")
    placeholders = set(names) | {
        f"{p.name}.{f}" for p in parameters for f in p.fields()
    }
    for key, value in (("member", member), ("references", references)):
        _check_text(value, placeholders, key, fail)

    return Family(
        name=name,
        title=data["title"],
        description=data["description"],
        paper=data["paper"],
        id_base=id_base,
        parameters=parameters,
        constraints=tuple(constraints),
        definition=definition,
        member=member,
        references=references,
        misere_of=data.get("misere_of"),
        file=where,
        source=_source(data, base),
    )


def names_star(template: Any) -> bool:
    """Does the definition template hold a ``star`` (which may name a seed
    or a label, resolved when members are expanded)?"""
    if isinstance(template, dict):
        return "star" in template or any(map(names_star, template.values()))
    if isinstance(template, list):
        return any(map(names_star, template))
    return False


def _source(data: dict[str, Any], base: Family | None) -> str:
    """:attr:`Family.source`: the file's JSON (``data`` comes from one), and
    the ``misere_of`` family's."""
    return json.dumps([data, None if base is None else base.source])


def _check_template(value: Any, names: set[str], where: str, fail: Any) -> None:
    """Every ``$name`` in the definition template is a parameter, and every
    ``$(…)`` an expression over them."""
    if isinstance(value, str) and value.startswith("$("):
        try:
            _expression(value, frozenset(names))
        except ValueError as exc:
            raise fail(where, str(exc)) from None
    elif isinstance(value, str) and value.startswith("$"):
        if value[1:] not in names:
            raise fail(where, f"{value!r} names no parameter")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_template(item, names, f"{where}[{i}]", fail)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_template(key, names, where, fail)
            _check_template(item, names, f"{where}.{key}", fail)


def _check_text(value: Any, names: set[str], where: str, fail: Any) -> None:
    """Every ``{name}`` in a text template is a parameter."""
    if isinstance(value, str):
        for found in PLACEHOLDER.findall(value):
            if found not in names:
                what = "field" if found.split(".")[0] in names else "parameter"
                raise fail(where, f"{{{found}}} names no {what}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_text(item, names, f"{where}[{i}]", fail)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(item, names, f"{where}.{key}", fail)


@lru_cache(maxsize=256)
def _expression(template: str, names: frozenset[str]) -> Expression:
    """The expression of ``"$(…)"``, parsed once."""
    if not template.endswith(")"):
        raise ValueError(f"{template!r} must end with ')'")
    return Expression(template[2:-1], set(names))


def render_text(template: str, values: dict[str, str]) -> str:
    """``{k}`` replaced by the value of ``k``; other braces are left alone."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def render_definition(template: Any, values: dict[str, Any]) -> Any:
    """The definition template with every ``"$k"`` replaced by k's value
    and every ``"$(…)"`` by the expression's."""
    if isinstance(template, str) and template.startswith("$("):
        return _expression(template, frozenset(values)).evaluate(values)
    if isinstance(template, str) and template.startswith("$"):
        return values[template[1:]]
    if isinstance(template, list):
        return [render_definition(item, values) for item in template]
    if isinstance(template, dict):
        out: dict[str, Any] = {}
        for key, item in template.items():
            rendered_key = str(render_definition(key, values))
            rendered = render_definition(item, values)
            if isinstance(out.get(rendered_key), list) and isinstance(rendered, list):
                rendered = out[rendered_key] + rendered  # "$kind" met a literal key
            out[rendered_key] = rendered
        return out
    return template
