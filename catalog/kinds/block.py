"""Blocking: ``"block": b`` lets the player who moved block up to b of the
next player's options, so a position is P iff at most b of its options are
P (Larsson's Blocking Wythoff Nim blocks k − 1: ``"block": k - 1``).

Sprague–Grundy values are not defined for such games (the options a player
has depend on the opponent's choice), so ``grundy`` refuses them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalog.kinds.base import Definition, Kind, integer

#: Largest ``block``.
MAX_BLOCK = 64


class Block(Kind):
    name = "block"
    field = "block"
    summary = "after each move, the mover may block up to b of the next options"
    papers = (
        "U. Larsson, Blocking Wythoff Nim, Electron. J. Combin. 18 (2011), "
        "arXiv:1010.5816",
    )
    page = "kinds/block.md"
    no_grundy = (
        "block: a blocking game's options depend on the opponent's blocks, so "
        "its Grundy values are not defined"
    )
    sentences = True

    def parse(self, data: Mapping[str, Any], fields: dict[str, Any]) -> None:
        fields["block"] = integer(data.get("block", 0), "block", 0, MAX_BLOCK)

    def present(self, game: Definition) -> bool:
        return game.block > 0

    def engines(self, game: Definition) -> frozenset[str]:
        # The sparse sweep needs both Nim rays (catalog.compute.modes says);
        # every other blocking game is counted cell by cell in a box.
        return frozenset({"blocking", "dense"})

    def describe(self, game: Definition) -> list[str]:
        options = "option" if game.block == 1 else "options"
        return [
            f"After each move the mover may block up to {game.block} of the next "
            f"player's {options}: a position is P iff at most {game.block} of its "
            f"options are P."
        ]
