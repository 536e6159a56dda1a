"""Every command documents itself."""

import click
import pytest
from click.testing import CliRunner

from cli.main import cli


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
    } <= set(cli.commands)
