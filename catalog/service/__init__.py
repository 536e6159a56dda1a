"""What the command line and the web API do, one function per command.

Each function takes a :class:`Store` and plain arguments and returns one
JSON-ready document; the session lifecycle lives here, not in the callers.
The modules follow the jobs: :mod:`.store` (the database, resolving an entry
argument), :mod:`.entries` (add, show, list, invariants, seed, verify),
:mod:`.positions` (compute on demand, pages, is-p, Grundy values) and
:mod:`.sequences` (sequences, bit-strings, exports, search).
"""

from catalog.inputs import MAX_LIST_LIMIT
from catalog.service.entries import (
    add,
    entry_document,
    entry_invariants,
    reindex,
    seed,
    show,
    verify,
)
from catalog.service.families import (
    families,
    list_entries,
    seed_families,
    table,
)
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
from catalog.service.store import Store, entry_game, entry_number, entry_version

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
