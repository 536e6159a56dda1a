"""The Wythoff Variant Catalog.

``p_positions(definition, n)`` is the pure entry point of the contract: every
P-position with x < n and y < n as a (k, 2) integer array.

numba keeps the machine code it compiles (``cache=True`` in
:mod:`catalog.compute.kernel` and :mod:`catalog.compute.altered`) in
``NUMBA_CACHE_DIR``; unless the user set it, that is the user's cache
directory, never next to the installed package (a ``__pycache__`` left in
site-packages outlives an uninstall and shadows a later editable install).
Set here, before anything imports numba.
"""

import os

import platformdirs

os.environ.setdefault(
    "NUMBA_CACHE_DIR",
    os.path.join(platformdirs.user_cache_dir("wythoff-catalog"), "numba"),
)

from catalog.compute.ptable import p_positions  # noqa: E402
from catalog.games.definition import DefinitionError  # noqa: E402

__all__ = ["DefinitionError", "p_positions"]
