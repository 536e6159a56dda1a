"""Write the generated references of docs/: every command of ``wythoff``
(from its click commands) and every route of the API (from its OpenAPI
document).

Run: ``python tools/reference.py`` after changing a command, an option or a
route; ``tests/test_site.py`` fails while a reference differs from what
this script writes.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import click

DOCS = Path(__file__).resolve().parent.parent / "docs"
CLI_PAGE = DOCS / "cli-reference.md"
HTTP_PAGE = DOCS / "http-reference.md"


def _commands(group: click.Group, prefix: str) -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []
    for name in sorted(group.commands):
        command = group.commands[name]
        path = f"{prefix} {name}"
        found.append((path, command))
        if isinstance(command, click.Group):
            found.extend(_commands(command, path))
    return found


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def cli_reference() -> str:
    """The page of every command: usage, help, options."""
    from catalog.cli.main import cli

    lines = [
        "# Command reference",
        "",
        "Generated from the commands themselves by `python tools/reference.py`;",
        "[the command line](cli.md) tells the story. Every command also takes",
        "`--json` (one JSON document on stdout) and `--db URL`.",
        "",
    ]
    for path, command in _commands(cli, "wythoff"):
        context = click.Context(command, info_name=path)
        usage = " ".join(command.collect_usage_pieces(context))
        lines += [f"## `{path}`", "", "```", f"{path} {usage}".rstrip(), "```", ""]
        help_text = inspect.cleandoc(command.help or "").replace("\b\n", "")
        if help_text:
            lines += [help_text, ""]
        rows = []
        for param in command.params:
            if not isinstance(param, click.Option) or param.hidden:
                continue
            if param.name in {"as_json", "db", "help"}:
                continue
            names = ", ".join(f"`{o}`" for o in param.opts + param.secondary_opts)
            extra = []
            if param.required:
                extra.append("required")
            if param.show_default and param.default not in (None, False, ()):
                extra.append(f"default {param.default}")
            text = _cell(param.help or "") + (f" ({', '.join(extra)})" if extra else "")
            rows.append(f"| {names} | {text} |")
        if rows:
            lines += ["| option | meaning |", "| --- | --- |", *rows, ""]
    return "\n".join(lines).rstrip() + "\n"


def http_reference() -> str:
    """The page of every route: method, path, parameters, answers."""
    from catalog.api import DEFAULTS
    from catalog.api.openapi import document

    doc = document(DEFAULTS)
    lines = [
        "# HTTP reference",
        "",
        "Generated from the OpenAPI document (`/api/v1/openapi.json`) by",
        "`python tools/reference.py`; [the HTTP API](http.md) tells the story.",
        "",
    ]
    for path, methods in doc["paths"].items():
        for method, operation in methods.items():
            lines += [
                f"## `{method.upper()} {path}`",
                "",
                _cell(operation["summary"]),
                "",
            ]
            params = operation.get("parameters", [])
            if params:
                lines += [
                    "| parameter | in | schema | meaning |",
                    "| --- | --- | --- | --- |",
                ]
                for p in params:
                    schema = _schema(p.get("schema", {}))
                    meaning = _cell(p.get("description", ""))
                    lines.append(
                        f"| `{p['name']}` | {p['in']} | `{schema}` | {meaning} |"
                    )
                lines.append("")
            lines += ["| status | meaning |", "| --- | --- |"]
            for status, answer in operation["responses"].items():
                lines.append(f"| {status} | {_cell(answer.get('description', ''))} |")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _schema(schema: dict[str, Any]) -> str:
    keep = {k: v for k, v in schema.items() if k != "description"}
    text = ", ".join(f"{k}: {v}" for k, v in keep.items())
    return text.replace("|", "\\|").replace("`", "'")


def main() -> int:
    CLI_PAGE.write_text(cli_reference())
    HTTP_PAGE.write_text(http_reference())
    print(f"wrote {CLI_PAGE.name} and {HTTP_PAGE.name} in docs/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
