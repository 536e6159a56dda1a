"""The families as web pages: ``/families`` and ``/families/{name}``.

Like every page, a view takes the documents the JSON API returns
(``service.families``, ``service.table``, ``service.list_entries`` with
``family=``) and hands them to an autoescaped template. The table is the one
``/api/v1/families/{name}/table`` returns, drawn as an HTML grid whose cells
link to the members' entry pages.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, render_template, request

from catalog import service
from catalog.api.args import store
from catalog.api.html import html
from catalog.errors import BadInput, NotFound

bp = Blueprint("family_pages", __name__)

#: Members listed on a family's page (the API pages through all of them).
MEMBERS = 200

#: The invariant a family's page shows first: the first of these the family
#: has (a box's offset is Theorem 2; a Maharaja game's deviation range).
PREFERRED = (
    "offset",
    "deviations",
    "adjoined_moves",
    "defects",
    "one_p_per_column",
    "symmetric",
    "id",
)


@bp.get("/families")
def families() -> Response:
    """Every family, its parameters, and how much of it the catalog holds."""
    doc = service.families(store())
    return html(render_template("families.html", families=doc["families"]))


@bp.get("/families/<name>")
def family(name: str) -> Response:
    """A family: what it is, its table of one invariant, its members."""
    catalog = store()
    known = {f["name"]: f for f in service.families(catalog)["families"]}
    about = known.get(name)
    if about is None:
        raise NotFound(f"no family {name!r} (families: {', '.join(known)})")
    fix = request.args.getlist("fix")
    parameters = catalog.families.family(name).parameters
    if not fix and len(parameters) > 2:
        first = parameters[0]
        fix = [f"{first.name}={first.values[0] if first.values else first.min}"]
    asked = request.args.get("invariant")
    table, invariant, problem = _table(catalog, name, asked, fix)
    one = table is not None and len(parameters) - len(fix) == 1
    rows = _row_heads(catalog, name, table, one)
    members = service.list_entries(catalog, family=name, limit=MEMBERS + 1)["entries"]
    return html(
        render_template(
            "family.html",
            family=about,
            table=table,
            rows=rows,
            one=one,
            invariant=invariant,
            problem=problem,
            fix=fix,
            members=members[:MEMBERS],
            more=len(members) > MEMBERS,
            choices=_choices(catalog, name),
        )
    )


def _choices(store: service.Store, name: str) -> list[str]:
    """The invariants the family's menu offers: those some member has."""
    from catalog.families.filters import FIELDS

    members = store.families.members(name)
    return [
        field
        for field in PREFERRED
        if field in FIELDS and any(FIELDS[field].applies(m.game) for m in members)
    ]


def _table(
    store: service.Store, name: str, asked: str | None, fix: list[str]
) -> tuple[dict[str, Any] | None, str | None, str | None]:
    """The table of ``asked`` (a bad one is the user's 4xx), or of the first
    preferred invariant the family has: over two free parameters, or a
    column of the stored members over one (``nimhoff``'s rule sets). A
    ``fix`` that leaves no free parameter gets no table and says why."""
    if asked:
        return service.table(store, name, asked, fix), asked, None
    problem = None
    for invariant in PREFERRED:
        try:
            return service.table(store, name, invariant, fix), invariant, None
        except BadInput as exc:
            problem = str(exc)
            if "free parameters" in problem:
                break
    return None, None, problem


def _row_heads(
    store: service.Store, name: str, table: dict[str, Any] | None, one: bool
) -> list[tuple[str, str | None]]:
    """Each row's head: its parameter's value as text and, in a one-column
    table (one free parameter: each row is a member), the member's label to
    link to its page."""
    if table is None:
        return []
    values = table["rows"]["values"]
    if not one:
        return [(str(v), None) for v in values]
    param = table["rows"]["name"]
    labels = {
        json.dumps(m.parameters[param]): m.label for m in store.families.members(name)
    }
    return [(_shown(v), labels.get(json.dumps(v))) for v in values]


def _shown(value: Any) -> str:
    """A parameter's value as the pages write it: a subset of pairs as
    ``(1,0) (0,1)``."""
    if isinstance(value, list):
        return " ".join(
            f"({','.join(map(str, v))})" if isinstance(v, list) else str(v)
            for v in value
        )
    return str(value)
