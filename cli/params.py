"""Parameter types of the ``wythoff`` command, parsed as the API parses them.

click's ``type=int`` takes whatever Python's ``int()`` takes, ``٣٠`` and
``1_000`` included; :class:`Integer` takes ASCII digits only, through
:func:`catalog.inputs.parse_int`, and fails with the API's message as one
line (``Error: n: must be an integer, not '٣٠'``).
"""

from __future__ import annotations

from typing import Any

import click

from catalog.errors import CatalogError
from catalog.inputs import check_int, parse_int


def user_error(exc: CatalogError) -> click.ClickException:
    """The one line a user sees for ``exc`` (stderr, exit status 1)."""
    return click.ClickException(str(exc))


class Integer(click.ParamType):
    """An integer in ASCII digits within [minimum, maximum]."""

    name = "integer"

    def __init__(self, minimum: int | None = None, maximum: int | None = None):
        self.minimum = minimum
        self.maximum = maximum

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        label = param.name if param is not None and param.name else "value"
        try:
            if isinstance(value, int) and not isinstance(value, bool):  # a default
                return check_int(value, label, self.minimum, self.maximum)
            return parse_int(value, label, self.minimum, self.maximum)
        except CatalogError as exc:
            raise user_error(exc) from None
