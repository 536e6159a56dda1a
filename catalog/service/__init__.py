"""What the command line and the web API do, one function per command.

Each function takes a :class:`Store` and plain arguments and returns one
JSON-ready document; the session lifecycle lives here, not in the callers.
The modules follow the jobs: :mod:`.store` (the database, resolving an entry
argument), :mod:`.adding` (add), :mod:`.entries` (show, invariants, seed,
verify), :mod:`.positions` (compute on demand, pages, is-p, Grundy values),
:mod:`.sequences` (sequences, bit-strings, exports, search) and
:mod:`.listings` (families, seeding them, list, tables).

Every name but :class:`Store` and the entry arguments' helpers is imported
on first use (PEP 562): ``wythoff is-p`` loads what reading an entry's
positions needs, ``wythoff show`` what reading its document needs, neither
the families, the exports nor the ORM, and ``wythoff add`` neither numpy
nor the compute layer (``tests/cli/test_startup.py`` holds this). The
function ``positions`` shares its module's name, and the import system sets
a submodule, once loaded, as an attribute of its package: the package's
module object (:class:`_Package`) keeps the function there.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from catalog.inputs import MAX_LIST_LIMIT
from catalog.service.store import Store, entry_game, entry_number, entry_version

if TYPE_CHECKING:
    from catalog.service.adding import add
    from catalog.service.entries import (
        compute_many,
        copy_catalog,
        entry_document,
        entry_invariants,
        reindex,
        seed,
        show,
        verify,
    )
    from catalog.service.listings import families, list_entries, seed_families, table
    from catalog.service.positions import (
        MAX_EXACT_COORDINATE,
        adjoinable,
        compute,
        grundy_json,
        grundy_pieces,
        grundy_table,
        grundy_values,
        is_p,
        positions,
        positions_page,
        positions_window,
        work_needed,
    )
    from catalog.service.sequences import (
        MAIN_SEQUENCES,
        UnknownSequence,
        bfile,
        bitstring,
        export,
        oeis,
        search,
        sequence,
    )

#: The names imported on first use, by module (as above).
_LAZY = {
    "catalog.service.adding": ("add",),
    "catalog.service.entries": (
        "compute_many",
        "copy_catalog",
        "entry_document",
        "entry_invariants",
        "reindex",
        "seed",
        "show",
        "verify",
    ),
    "catalog.service.listings": ("families", "list_entries", "seed_families", "table"),
    "catalog.service.positions": (
        "MAX_EXACT_COORDINATE",
        "adjoinable",
        "compute",
        "grundy_json",
        "grundy_pieces",
        "grundy_table",
        "grundy_values",
        "is_p",
        "positions",
        "positions_page",
        "positions_window",
        "work_needed",
    ),
    "catalog.service.sequences": (
        "MAIN_SEQUENCES",
        "UnknownSequence",
        "bfile",
        "bitstring",
        "export",
        "oeis",
        "search",
        "sequence",
    ),
}
_MODULES = {name: module for module, names in _LAZY.items() for name in names}

__all__ = [
    "MAIN_SEQUENCES",
    "MAX_LIST_LIMIT",
    "MAX_EXACT_COORDINATE",
    "Store",
    "UnknownSequence",
    "add",
    "adjoinable",
    "bfile",
    "bitstring",
    "compute",
    "compute_many",
    "copy_catalog",
    "entry_document",
    "entry_game",
    "entry_invariants",
    "entry_number",
    "entry_version",
    "export",
    "families",
    "grundy_json",
    "grundy_pieces",
    "grundy_table",
    "grundy_values",
    "is_p",
    "list_entries",
    "oeis",
    "positions",
    "positions_page",
    "positions_window",
    "reindex",
    "search",
    "seed_families",
    "seed",
    "sequence",
    "show",
    "table",
    "verify",
    "work_needed",
]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is not None:
        return getattr(importlib.import_module(module), name)
    raise AttributeError(f"module 'catalog.service' has no attribute {name!r}")


class _Package(types.ModuleType):
    """This package's module object. Loading a submodule sets it as an
    attribute of its package: the module :mod:`.positions` would then hide
    the function ``positions`` (found by :func:`__getattr__` while that
    attribute is missing), so that one attribute is refused."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "positions" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
