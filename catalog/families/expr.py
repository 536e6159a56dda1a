"""Constraints of a family: small Python-like expressions over its parameters.

A family file lists constraints as text, e.g. ``"k < l"`` or
``"kind == 'P' and x < 10 and y < 10 or kind == 'N' and wythoff_p(x, y)"``.
They are parsed once with :mod:`ast` and only a fixed vocabulary is allowed:
comparisons, ``and``/``or``/``not``, ``+ - * // %``, integer and string
literals, the family's parameter names and the functions in :data:`FUNCTIONS`
(no attributes, subscripts, lambdas or other names). Only a tree that passed
that check is compiled, and it runs with no builtins: thousands of members are
checked per load, and a tree walk in Python was the slowest part of it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any


def wythoff_p(x: int, y: int) -> bool:
    """Is (x, y) a P-position of Wythoff's Nim? (exact, any size)"""
    # Imported here: the closed forms load numpy, which loading the families
    # (``wythoff add`` looks a new game up among their members) does not need.
    from catalog.compute.closed import lower

    a, b = min(x, y), max(x, y)
    return a >= 0 and lower(b - a) == a


def has(rays: Any, a: int, b: int) -> bool:
    """Does the subset parameter ``rays`` hold the pair (a, b)?"""
    return (a, b) in {tuple(r) for r in rays}


def size(value: Any) -> int:
    """How many pairs a subset parameter holds."""
    return len(value)


#: The functions a constraint may call.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "wythoff_p": wythoff_p,
    "has": has,
    "size": size,
}

_COMPARE = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_BINARY = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


class Constraint:
    """One parsed constraint; call it with the parameter values."""

    def __init__(self, text: str, names: set[str]) -> None:
        if not isinstance(text, str) or not text.strip():
            raise ValueError("must be a non-empty expression")
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as exc:
            raise ValueError(f"{text!r} is not an expression: {exc.msg}") from None
        _check(tree.body, names)
        self.text = text
        self._code = compile(tree, "<constraint>", "eval")

    def __call__(self, values: Mapping[str, Any]) -> bool:
        return bool(self.evaluate(values))

    def evaluate(self, values: Mapping[str, Any]) -> Any:
        scope = {"__builtins__": {}, **FUNCTIONS}
        return eval(self._code, scope, dict(values))  # checked by _check

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Constraint) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Constraint({self.text!r})"


class Expression(Constraint):
    """An integer expression of a definition template, written ``"$(…)"``
    (``"$(1 - a)"``), in the vocabulary of constraints."""

    def evaluate(self, values: Mapping[str, Any]) -> Any:
        value = super().evaluate(values)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{self.text!r} is not an integer")
        return value


def _check(node: ast.AST, names: set[str]) -> None:
    """Refuse anything outside the vocabulary, naming it."""
    if isinstance(node, ast.BoolOp | ast.Compare):
        children: list[ast.AST] = (
            list(node.values)
            if isinstance(node, ast.BoolOp)
            else [node.left, *node.comparators]
        )
        if isinstance(node, ast.Compare) and not all(
            isinstance(op, _COMPARE) for op in node.ops
        ):
            raise ValueError("only = != < <= > >= comparisons are allowed")
        for child in children:
            _check(child, names)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        _check(node.operand, names)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, _BINARY):
        _check(node.left, names)
        _check(node.right, names)
    elif isinstance(node, ast.Name):
        if node.id not in names:
            raise ValueError(f"unknown name {node.id!r} (parameters: {sorted(names)})")
    elif isinstance(node, ast.Constant):
        if not isinstance(node.value, int | str) or isinstance(node.value, bool):
            raise ValueError(f"literal {node.value!r}: only integers and strings")
    elif isinstance(node, ast.Call):
        if not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS):
            raise ValueError(f"only the functions {sorted(FUNCTIONS)} may be called")
        if node.keywords:
            raise ValueError("functions take positional arguments only")
        for arg in node.args:
            _check(arg, names)
    else:
        raise ValueError(f"{type(node).__name__} is not allowed in a constraint")
