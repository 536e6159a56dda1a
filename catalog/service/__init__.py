"""What the command line and the web API do, one function per command.

Each function takes a :class:`Store` and plain arguments and returns one
JSON-ready document; the session lifecycle lives here, not in the callers.
The modules follow the jobs: :mod:`.store` (the database, resolving an entry
argument), :mod:`.entries` (add, show, invariants, seed, verify),
:mod:`.positions` (compute on demand, pages, is-p, Grundy values),
:mod:`.sequences` (sequences, bit-strings, exports, search) and
:mod:`.listings` (families, seeding them, list, tables).

The names of :mod:`.entries`, :mod:`.sequences` and :mod:`.listings` are
imported on first use (PEP 562): ``wythoff is-p`` loads what reading an
entry's positions needs, ``wythoff show`` what reading its document needs,
neither the families, the exports nor the ORM (``tests/cli/test_startup.py``
holds this). :mod:`.positions` is imported at once: its function
``positions`` shares the module's name, and importing the module later
would set the package's attribute to the module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from catalog.inputs import MAX_LIST_LIMIT
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
from catalog.service.store import Store, entry_game, entry_number, entry_version

if TYPE_CHECKING:
    from catalog.service.entries import (
        add,
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
    "catalog.service.entries": (
        "add",
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
