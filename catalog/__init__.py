"""The Wythoff Variant Catalog.

``p_positions(definition, n)`` is the pure entry point of the contract: every
P-position with x < n and y < n as a (k, 2) integer array.
"""

from catalog.compute.ptable import p_positions
from catalog.games.definition import DefinitionError

__all__ = ["DefinitionError", "p_positions"]
