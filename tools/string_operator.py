"""A cosmic-ray operator for string constants (``tools/mutate.py --strings``).

cosmic-ray's own operators never change a string, and the states of the
queue (``"queued"``, ``"running"``, ``"done"``, ``"failed"``), the keys of
the job documents and the error kinds (``"cancelled"``, ``"dropped: …"``)
are strings: ``cancel`` writing ``"done"`` for ``"failed"`` passed every
test while its module scored 100 %. This operator makes, for each string
constant of the module that is code (not a docstring nor a bare string
statement):

- a word of one of its ``groups`` (the states, the worker's outcomes):
  one mutant for each other word of that group (the first group holding
  it), the slip that still reads as a valid state;
- any other constant, and each f-string: one mutant with ``XX`` written
  inside its quotes at both ends (mutmut's string mutation; an f-string's
  only at its start), unless ``only`` names the values to mutate.

cosmic-ray finds operators through the entry points of installed packages,
and the checkout installs only the catalog: :func:`register` adds the
provider ``strings`` in the running process, which is how ``tools/mutate.py``
starts cosmic-ray (``python tools/string_operator.py init|exec …`` is
cosmic-ray's own command line with the provider added; its local
distributor mutates and runs the tests from that process). The operator
takes arguments, so cosmic-ray makes its mutants only where a session's
configuration asks for them (``[cosmic-ray.operators]``): the other
modules' sessions are unchanged.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from typing import Any

import parso.python.tree
from cosmic_ray.operators.operator import Argument, Example, Operator

PROVIDER = "strings"
NAME = "ReplaceStringConstant"
#: The operator's name as sessions record it.
OPERATOR = f"{PROVIDER}/{NAME}"


def _is_code(node: Any) -> bool:
    """Not a docstring nor any other bare string statement (implicitly
    joined pieces included), which no program reads."""
    parent = node.parent
    if parent is not None and parent.type == "strings":
        parent = parent.parent
    return parent is None or parent.type != "simple_stmt"


def _opening(literal: str) -> int:
    """Where a string literal's text starts: after its prefix and quotes."""
    at = 0
    while literal[at] not in "'\"":
        at += 1
    quote = literal[at] * 3 if literal[at : at + 3] in ('"""', "'''") else literal[at]
    return at + len(quote)


def _written(literal: str, value: str) -> str:
    """``value`` as a literal in the quotes of ``literal``, else repr's."""
    quote = literal[_opening(literal) - 1]
    if quote in value or "\\" in value or "\n" in value or literal[0] not in "'\"":
        return repr(value)
    return quote + value + quote


class ReplaceStringConstant(Operator):
    """Replace a string constant: a word of a group by each other word of its
    group, any other string by itself with ``XX`` at both ends."""

    def __init__(self, groups: list[list[str]], only: list[str] | None = None) -> None:
        self.groups = [list(group) for group in groups]
        self.only = None if only is None else set(only)

    @classmethod
    def arguments(cls) -> tuple[Argument, ...]:
        return (
            Argument("groups", "lists of interchangeable words (the states)"),
            Argument("only", "if given, the only other values to mutate"),
        )

    def _value(self, node: Any) -> str | None:
        if node.type != "string" or not _is_code(node):
            return None
        try:
            value = ast.literal_eval(node.value)
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None

    def _others(self, value: str) -> list[str]:
        """The replacements of a constant, in order."""
        for group in self.groups:
            if value in group:
                return [word for word in group if word != value]
        if self.only is not None and value not in self.only:
            return []
        return ["XX" + value + "XX"]

    def mutation_positions(self, node: Any) -> Iterator[tuple[Any, Any]]:
        if node.type == "fstring_start" and _is_code(node.parent):
            if self.only is None:
                yield (node.start_pos, node.end_pos)
            return
        value = self._value(node)
        if value is not None:
            for _ in self._others(value):
                yield (node.start_pos, node.end_pos)

    def mutate(self, node: Any, index: int) -> Any:
        if node.type == "fstring_start":
            return parso.python.tree.FStringStart(
                node.value + "XX", node.start_pos, node.prefix
            )
        value = self._value(node)
        assert value is not None, "no string constant here"
        new = self._others(value)[index]
        if new == "XX" + value + "XX":
            old = node.value
            at = _opening(old)
            end = len(old) - (at - len(old[:at].rstrip("'\"")))  # the closing quotes
            literal = old[:at] + "XX" + old[at:end] + "XX" + old[end:]
        else:
            literal = _written(node.value, new)
        return parso.python.tree.String(literal, node.start_pos, node.prefix)

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        states = {"groups": [["queued", "running", "done", "failed"]]}
        return (
            Example('s = "failed"', 's = "queued"', 0, states),
            Example('s = "failed"', 's = "done"', 2, states),
            Example("e = 'cancelled'", "e = 'XXcancelledXX'", 0, states),
            Example('e = f"dropped: {r}"', 'e = f"XXdropped: {r}"', 0, states),
            Example('"""Doc."""\ns = "x"', '"""Doc."""\ns = "XXxXX"', 0, states),
        )


class Provider:
    """The cosmic-ray operator provider ``strings``."""

    def __iter__(self) -> Iterator[str]:
        return iter([NAME])

    def __getitem__(self, name: str) -> type[Operator]:
        if name != NAME:
            raise KeyError(name)
        return ReplaceStringConstant


def register() -> None:
    """Add the provider to cosmic-ray in this process."""
    import cosmic_ray.plugins

    cosmic_ray.plugins.OPERATOR_PROVIDERS.setdefault(PROVIDER, Provider())


if __name__ == "__main__":
    register()
    from cosmic_ray.cli import main

    sys.exit(main())
