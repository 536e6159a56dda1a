"""The Wythoff Variant Catalog.

``p_positions(definition, n)`` is the pure entry point of the contract: every
P-position with x < n and y < n as a (k, 2) integer array.

numba keeps the machine code it compiles (``cache=True`` in
:mod:`catalog.compute.kernel` and :mod:`catalog.compute.altered`) in
``NUMBA_CACHE_DIR``; unless the user set it, that is the user's cache
directory, never next to the installed package (a ``__pycache__`` left in
site-packages outlives an uninstall and shadows a later editable install).
Set by :mod:`catalog.compute.jit` just before it imports numba, so that
importing the catalog (the notebook client, ``wythoff show``) leaves the
environment as it found it.

``p_positions`` and ``DefinitionError`` are imported on first use (PEP 562),
so that ``import catalog.anything`` stays cheap: the command line starts
without numpy or the kernels unless its command needs them.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catalog.compute.ptable import p_positions
    from catalog.games.definition import DefinitionError

__all__ = ["DefinitionError", "p_positions"]


def _p_positions(definition: Any, n: int) -> Any:
    """Every P-position (x, y) with x < n and y < n, shape (k, 2), sorted by
    x then y: :func:`catalog.compute.ptable.p_positions` (its parameters,
    limits and errors), with a ``star`` that names a seeded entry
    (``W000001``) or a family member (``maharaja.1.2``) read from the
    shipped seeds and families: no database.

    >>> from catalog import p_positions
    >>> p_positions({"rays": [[1, 0], [0, 1], [1, 1]]}, 6).tolist()
    [[0, 0], [1, 2], [2, 1], [3, 5], [5, 3]]
    >>> p_positions({"star": "W000003"}, 3).tolist()  # Nim⋆: the axes
    [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0]]
    """
    from catalog.compute.ptable import p_positions
    from catalog.kinds.star import names_entries

    if names_entries(definition):
        from catalog.families.registry import shipped_names
        from catalog.games.definition import canonicalize

        definition = canonicalize(definition, shipped_names())
    return p_positions(definition, n)


def __getattr__(name: str) -> Any:
    if name == "p_positions":
        return _p_positions
    if name == "DefinitionError":
        from catalog.games.definition import DefinitionError

        return DefinitionError
    raise AttributeError(f"module 'catalog' has no attribute {name!r}")
