"""Imported by the fork server of :mod:`tests.cli.racing` only: warms it
before it forks any process."""

from tests.cli.racing import warm

warm()
