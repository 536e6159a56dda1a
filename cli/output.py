"""How the ``wythoff`` command prints a result: one JSON document with
``--json``, else a readable text form of it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click


class Streamed:
    """A document printed piece by piece (a Grundy table of up to 10^8
    values): ``json`` with ``--json``, ``text`` without."""

    def __init__(self, json: Iterable[str], text: Iterable[str]) -> None:
        self.json, self.text = json, text


def emit(result: Any, as_json: bool) -> None:
    # json is imported when a document is printed, not for ``--help``.
    import json

    if isinstance(result, str):  # a file's contents (export): printed as is
        click.echo(result, nl=False)
    elif isinstance(result, Streamed):
        for piece in result.json if as_json else result.text:
            click.echo(piece, nl=False)
        click.echo()
    elif as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(render(result))


def render(doc: dict[str, Any]) -> str:
    """A readable form of a result document."""
    from catalog.cli import families, jobs, theory, writing

    text = (
        families.render(doc)
        or jobs.render(doc)
        or theory.render(doc)
        or writing.render(doc)
    )
    if text is not None:
        return text
    if "entries" in doc and "ok" in doc:
        lines = []
        for e in doc["entries"]:
            lines.append(f"{e['id']}  {'ok' if e['ok'] else 'FAILED'}  (n = {e['n']})")
            lines += [f"  {name:<12} {result}" for name, result in e["checks"].items()]
        lines.append("all checks passed" if doc["ok"] else "some checks FAILED")
        return "\n".join(lines)
    if "entries" in doc:
        import json

        shown = list(dict.fromkeys(k for e in doc["entries"] for k in e["values"]))
        rows = [
            (
                e["id"],
                e["label"] or "",
                *(json.dumps(e["values"].get(k)) for k in shown),
                e["name"],
            )
            for e in doc["entries"]
        ]
        text = table(("ID", "LABEL", *(k.upper() for k in shown), "NAME"), rows)
        if doc.get("next"):
            text += f"\nmore: --after {doc['next']}"
        return text
    if "results" in doc and "query" in doc:
        return render_search(doc)
    if "positions" in doc and "n" in doc:
        pairs = " ".join(f"({x},{y})" for x, y in doc["positions"])
        count = len(doc["positions"])
        return f"{doc['id']}: {count} P-positions with x, y < {doc['n']}\n{pairs}"
    if "adjoinable" in doc:
        i, j = doc["move"]
        verdict = "can" if doc["adjoinable"] else "cannot"
        line = f"({i},{j}) and ({j},{i}) {verdict} be added to Wythoff's Nim: "
        line += doc["reason"]
        if doc["witness"]:
            (a, b), (c, d) = doc["witness"]["from"], doc["witness"]["to"]
            line += f", e.g. ({a},{b}) -> ({c},{d})"
        return line
    if "outcome" in doc:
        x, y = doc["position"]
        article = "an" if doc["outcome"] == "N" else "a"
        line = f"{doc['id']} ({x},{y}) is {article} {doc['outcome']}-position"
        if doc["move_to"]:
            line += f"; win by moving to ({doc['move_to'][0]},{doc['move_to'][1]})"
        return line
    if "definition" in doc and "invariants" in doc:
        return render_entry(doc)
    return render_fields(doc)


def render_search(doc: dict[str, Any]) -> str:
    results = doc["results"]
    if not results:
        return f"no entries match {doc['query']}"
    keys = [k for k in ("sequence", "index") if any(k in r for r in results)]
    rows = [(r["id"], *(str(r.get(k, "")) for k in keys), r["name"]) for r in results]
    lines = [table(("ID", *(k.upper() for k in keys), "NAME"), rows)]
    if doc.get("next") is not None:
        lines.append(f"more: --offset {doc['next']}")
    return "\n".join(lines)


def render_fields(doc: dict[str, Any]) -> str:
    """One field a line; a field made of records (sequences, references)
    gets a line per record, indented under it."""
    lines = []
    width = max(len(k) for k in doc)
    for key, value in doc.items():
        if (
            isinstance(value, dict)
            and value
            and all(isinstance(v, dict) for v in value.values())
        ):
            lines.append(key)
            inner = max(len(k) for k in value)
            lines += [f"  {k:<{inner}}  {readable(v)}" for k, v in value.items()]
        elif (
            isinstance(value, list)
            and value
            and all(isinstance(v, dict) for v in value)
        ):
            lines.append(key)
            lines += [f"  {readable(v)}" for v in value]
        else:
            lines.append(f"{key:<{width}}  {readable(value)}")
    return "\n".join(lines)


def readable(value: Any) -> str:
    """A value as a person reads it: no ``None``, no JSON brackets."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if not value:
            return "-"
        if all(_is_pair(v) for v in value):
            return " ".join(f"({v[0]},{v[1]})" for v in value)
        if all(not isinstance(v, dict | list) for v in value):
            return ", ".join(readable(v) for v in value)
        return "; ".join(readable(v) for v in value)
    if isinstance(value, dict):
        shown = [(k, v) for k, v in value.items() if v is not None]
        return "; ".join(f"{k} {readable(v)}" for k, v in shown) or "-"
    return str(value)


def _is_pair(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) for c in value)
    )


def render_entry(doc: dict[str, Any]) -> str:
    """``wythoff show``: the fields, then each invariant with its status, then
    the dictionary as a table."""
    from catalog.games.boxes import as_input

    theory = doc["invariants"]
    fields = {k: v for k, v in doc.items() if k not in ("invariants", "dictionary")}
    # Forced cells as boxes where they form any, as the pages write them.
    short = as_input(doc["definition"])
    for key in ("P_boxes", "N_boxes"):
        if key in short["alter"]:
            short["alter"][key] = [
                f"{w}×{h} box from ({x},{y})" for x, y, w, h in short["alter"][key]
            ]
    fields["definition"] = short
    lines = [render_fields(fields)]
    if theory:
        lines.append("\ninvariants")
        for name, item in theory.items():
            if name.startswith("dictionary"):
                continue
            value = item["value"]
            if name == "overlap":
                value = f"{value[-1][1]} at n = {value[-1][0]}"
            elif name == "adjoined_moves":
                moves = ", ".join(
                    f"({m['move'][0]},{m['move'][1]}) {m['reason']}"
                    for m in value["moves"]
                )
                same = "yes" if value["same_p_positions_as_wythoff"] else "no"
                value = f"Wythoff's P-positions: {same} ({moves})"
            elif isinstance(value, dict):
                value = ", ".join(f"{k} = {v}" for k, v in value.items())
                if item.get("checked_to") is not None:  # what an "observed" rests on
                    value += f", checked on {item['checked_to']} columns"
            lines.append(f"  {name:<11} {value}  [{item['status']}: {item['source']}]")
    book = theory.get("dictionary")
    if book:
        equations = (book.get("paper") or {}).get("equations", {})
        lines.append(
            f"\ndictionary ({book['source']}; rule {book['rule']}, "
            f"{book['columns']} columns read from column {book['start']})"
        )
        rows = [
            (
                w,
                t,
                equations.get(w, "new"),
                str(book["first"][w]),
                str(book["counts"][w]),
            )
            for w, t in book["value"].items()
        ]
        header = ("WORD", "TRANSLATE", "PAPER", "FIRST", "COUNT")
        lines.append(table(header, rows))
        unseen = (book.get("paper") or {}).get("not_seen", [])
        if unseen:
            lines.append(
                f"paper words not seen in the columns read: {', '.join(unseen)}"
            )
        for problem in book["problems"]:
            lines.append(f"  problem: {problem}")
    return "\n".join(lines)


def ranges(numbers: Iterable[int], most: int = 3) -> str:
    """Numbers as runs of consecutive ones, ascending: ``12–1030``, or
    ``3–5, 9, 12–20 and 4 more runs`` past ``most`` runs."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    shown = [f"{a}" if a == b else f"{a}–{b}" for a, b in runs[:most]]
    more = len(runs) - most
    text = ", ".join(shown) or "-"
    return f"{text} and {count(more, 'more run')}" if more > 0 else text


def count(number: int, noun: str) -> str:
    """``1,019 jobs``, ``1 job``."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*r).rstrip() for r in [header, *rows])
