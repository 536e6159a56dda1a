"""Every command documents itself."""

import re

import click
import pytest
from click.testing import CliRunner

from catalog.cli.main import cli


def all_commands(group, prefix=()):
    for name, command in group.commands.items():
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from all_commands(command, (*prefix, name))


@pytest.mark.parametrize(
    ("path", "command"),
    list(all_commands(cli)),
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else "",
)
def test_every_command_has_help(path, command):
    assert command.help and command.help.strip()
    result = CliRunner().invoke(cli, [*path, "-h"])
    assert result.exit_code == 0 and command.help.split("\n")[0] in result.stdout


def test_contract_commands_exist():
    assert {
        "seed",
        "add",
        "show",
        "positions",
        "is-p",
        "compute",
        "list",
        "export",
        "db",
        "search",
        "adjoinable",
        "grundy",
        "serve",
    } <= set(cli.commands)


def test_readme_lists_every_command_and_docs_page():
    """The README's command table names every command, and every page the
    docs index links to exists."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    for name in cli.commands:
        assert f"`wythoff {name}" in readme, name
    index = (root / "docs" / "README.md").read_text()
    pages = re.findall(r"\]\(([^)#]+\.md)\)", index)
    assert len(pages) >= 10
    for page in pages:
        assert (root / "docs" / page).is_file(), page
