"""All shipped families together: labels, and the W-number of every member.

W-numbers are a function of the shipped data only, so seeding the same
families into two fresh catalogs, in any order, gives each game the same ID:

1. a game equal to a seed (``seeds/W*.json``) keeps the seed's ID;
2. otherwise it takes the slot (``id_base + index``) of its member in the
   first family, in the order of ``id_base``, that contains it
   (``adjoined.1.2`` is the game of ``maharaja.1.2``, so it takes maharaja's
   slot).

Family blocks start at :data:`FIRST_FAMILY_ID`; numbers below it are for the
seeds and for entries users add. A family's block ends where the next one
starts, and loading fails if a member would overflow it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import replace
from functools import cache, cached_property
from importlib.resources import files
from pathlib import Path

from catalog.errors import NotFound
from catalog.families.members import Member, expand, members, parse_values
from catalog.families.params import LabelError
from catalog.families.spec import (
    Family,
    FamilyFileError,
    build_family,
    names_star,
    read_family_file,
)
from catalog.games.definition import DefinitionError, canonicalize, digest
from catalog.kinds.star import Names

#: The first W-number of the family blocks; entries users add stay below it.
FIRST_FAMILY_ID = 100_000
#: The largest W-number (W and six digits).
MAX_ID = 999_999
#: The label rows of the seeds that are family members, kept beside the
#: seeds with the fingerprint of the families and seeds they were read from
#: (``tools/seed_labels.py`` writes it; a test requires it current).
SEED_LABELS = "labels.json"
#: Hex digits of a game's key that :attr:`FamilySet.primary_labels` keeps
#: (64 bits: the shipped members' games differ in them, which the tool that
#: writes the file checks, and a hit is confirmed by expanding its member).
KEY_PREFIX = 16


class UnknownFamily(NotFound):
    """No family of that name."""


def seeds_dir() -> Path:
    """The seed files shipped with the package."""
    return Path(str(files("catalog.seeds")))


def families_dir() -> Path:
    return seeds_dir() / "families"


class FamilySet:
    """Families by name and in the global order (by ``id_base``)."""

    def __init__(
        self,
        families: list[Family],
        seed_ids: dict[str, int],
        seeds: Path | None = None,
    ) -> None:
        self.ordered = sorted(families, key=lambda f: f.id_base)
        self.by_name = {f.name: f for f in self.ordered}
        self.seed_ids = seed_ids
        #: The folder of the seeds, which may keep their labels (SEED_LABELS).
        self.seeds = seeds
        self._expanded: dict[str, list[Member]] = {}
        self._games: dict[str, list[Member]] = {}  # game_members' answers
        self._check_layout()

    def _check_layout(self) -> None:
        previous: Family | None = None
        for family in self.ordered:
            if family.id_base < FIRST_FAMILY_ID or family.id_base > MAX_ID:
                raise FamilyFileError(
                    f"{family.file}: id_base: must be in {FIRST_FAMILY_ID}..{MAX_ID}"
                )
            if previous is not None and previous.id_base == family.id_base:
                raise FamilyFileError(
                    f"{family.file}: id_base: {family.id_base} is also the "
                    f"id_base of {previous.file}"
                )
            previous = family

    def block_end(self, family: Family) -> int:
        """The first W-number after the family's block."""
        later = [f.id_base for f in self.ordered if f.id_base > family.id_base]
        return min(later, default=MAX_ID + 1)

    # -- members -------------------------------------------------------------

    def family(self, name: str) -> Family:
        found = self.by_name.get(name)
        if found is None:
            known = ", ".join(f.name for f in self.ordered)
            raise UnknownFamily(f"unknown family {name!r} (families: {known})")
        return found

    def members(self, name: str) -> list[Member]:
        """Every member of the family, in slot order: expanded and checked
        on first use (of this family only), then cached."""
        found = self._expanded.get(name)
        if found is None:
            family = self.by_name[name]
            found = members(family)
            end = self.block_end(family)
            for m in found:
                if m.slot >= end:
                    raise FamilyFileError(
                        f"{family.file}: id_base: {m.label} needs slot {m.slot}, "
                        f"past the block's end {end - 1}"
                    )
            self._expanded[name] = found
        return found

    @property
    def _members(self) -> dict[str, list[Member]]:
        """Every family's members, expanded and checked in the global order."""
        return {family.name: self.members(family.name) for family in self.ordered}

    def parse_label(self, text: str) -> Member:
        """The member a label names: ``box.8.13`` → box with a=8, b=13."""
        if not isinstance(text, str) or "." not in text:
            raise LabelError(f"not a label: {text!r} (expected FAMILY.P1.P2…)")
        name, *parts = text.split(".")
        family = self.family(name)
        return expand(family, parse_values(family, parts))

    def is_label(self, text: str) -> bool:
        """Does ``text`` look like a label (a known family, then a dot)?"""
        return isinstance(text, str) and text.split(".", 1)[0] in self.by_name

    # -- W-numbers -----------------------------------------------------------

    @cached_property
    def numbers(self) -> dict[str, int]:
        """The W-number of every member's game, by the game's key."""
        out: dict[str, int] = {}
        for family in self.ordered:
            for m in self.members(family.name):
                key = m.game.key
                if key not in out:
                    out[key] = self.seed_ids.get(key, m.slot)
        return out

    def number(self, member: Member) -> int:
        """The W-number of the member's game (:attr:`numbers`), from the
        member's family and :attr:`shared` alone."""
        key = member.game.key
        if key in self.seed_ids:
            return self.seed_ids[key]
        return self.game_members(member)[0].slot

    def game_members(self, member: Member) -> list[Member]:
        """Every member of the member's game, the primary one first (as in
        :attr:`by_key`): the member alone unless :attr:`shared` names others."""
        key = member.game.key
        found = self._games.get(key)
        if found is None:
            labels = self.shared.get(key)
            found = [member] if labels is None else list(map(self.parse_label, labels))
            self._games[key] = found
        return found

    @cached_property
    def shared(self) -> dict[str, list[str]]:
        """The labels of each game that more than one member holds (by key),
        primary first: read from the seeds' :data:`SEED_LABELS` when it was
        written for these families and seeds (seeding one family then
        expands that family alone: ``seed --family maharaja`` needs the
        labels of its members' games in ``adjoined``), else computed."""
        kept = self._kept.get("shared")
        return kept if isinstance(kept, dict) else self.computed_shared()

    def computed_shared(self) -> dict[str, list[str]]:
        """:attr:`shared` from the families' members (all expanded)."""
        return {key: found for key, found in self.labels.items() if len(found) > 1}

    @cached_property
    def by_key(self) -> dict[str, list[Member]]:
        """Every member of each game (by key), the primary one first: the
        member of the first family in the global order."""
        out: dict[str, list[Member]] = {}
        for family in self.ordered:
            for m in self.members(family.name):
                out.setdefault(m.game.key, []).append(m)
        return out

    @cached_property
    def labels(self) -> dict[str, list[str]]:
        """Every label of each game (by key), primary label first."""
        return {key: [m.label for m in found] for key, found in self.by_key.items()}

    @cached_property
    def fingerprint(self) -> str:
        """What the seeds' labels are read from: every family's file and
        the seeds' games and numbers (SHA-256)."""
        return digest([[f.source for f in self.ordered], sorted(self.seed_ids.items())])

    def seed_labels(self) -> dict[str, list[dict]]:
        """The label rows of each seed's game that a family holds, by the
        game's key: read from the seeds' :data:`SEED_LABELS` when it was
        written for these families and seeds (seeding a catalog then expands
        no family: 1.3 s of ``wythoff seed``'s 2.8), else computed."""
        kept = self._kept.get("labels")
        return kept if isinstance(kept, dict) else self.computed_seed_labels()

    def computed_seed_labels(self) -> dict[str, list[dict]]:
        """:meth:`seed_labels` from the families' members (all expanded)."""
        return {
            key: self.label_rows(key) for key in self.seed_ids if key in self.by_key
        }

    @cached_property
    def _kept(self) -> dict:
        """The seeds' :data:`SEED_LABELS` if it was written for these
        families and seeds, else nothing."""
        if self.seeds is None:
            return {}
        try:
            data = json.loads((self.seeds / SEED_LABELS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("fingerprint") != self.fingerprint:
            return {}
        return data

    @cached_property
    def primary_labels(self) -> dict[str, str]:
        """The primary label of every member's game, by the first
        :data:`KEY_PREFIX` hex digits of the game's key: read from the seeds'
        :data:`SEED_LABELS` when it was written for these families and seeds
        (``wythoff add`` then finds a new game's labels without expanding a
        family: 2 s of its 2.25 s on a catalog with every family seeded),
        else computed."""
        kept = self._kept.get("members")
        return kept if isinstance(kept, dict) else self.computed_primary_labels()

    def computed_primary_labels(self) -> dict[str, str]:
        """:attr:`primary_labels` from the families' members (all expanded)."""
        return {key[:KEY_PREFIX]: found[0] for key, found in self.labels.items()}

    def key_members(self, key: str) -> list[Member]:
        """Every member of the game with this key, the primary one first (as
        in :attr:`by_key`): one member expanded through
        :attr:`primary_labels`, the rest through :attr:`shared`."""
        if "by_key" in self.__dict__:  # all expanded already
            return self.by_key.get(key, [])
        label = self.primary_labels.get(key[:KEY_PREFIX])
        if label is None:
            return []
        member = self.parse_label(label)
        return self.game_members(member) if member.game.key == key else []

    def label_rows(self, key: str) -> list[dict]:
        """The label rows the store keeps for the game with this key."""
        return self._rows(self.key_members(key))

    def game_label_rows(self, member: Member) -> list[dict]:
        """:meth:`label_rows` of the member's game (:meth:`game_members`)."""
        return self._rows(self.game_members(member))

    def _rows(self, found: list[Member]) -> list[dict]:
        return [
            {
                "label": m.label,
                "family": m.family,
                "rank": self.by_name[m.family].id_base,
                "parameters": m.parameters,
                "codes": m.codes,
            }
            for m in found
        ]


def read_seed_ids(folder: Path) -> dict[str, int]:
    """The key of each seed's game → the seed's number."""
    out: dict[str, int] = {}
    for path in sorted(folder.glob("W*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            out[canonicalize(data["definition"]).key] = int(data["id"][1:])
        except (OSError, ValueError, KeyError, TypeError, DefinitionError) as exc:
            raise FamilyFileError(f"{path.name}: {exc}") from None
    return out


def read_seed_definitions(folder: Path) -> dict[str, dict]:
    """Each seed's ID (``W000001``) → its definition, as its file gives it."""
    out: dict[str, dict] = {}
    for path in sorted(folder.glob("W*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            definition, wid = data["definition"], data["id"]
            if not isinstance(definition, dict) or not isinstance(wid, str):
                raise TypeError("id and definition: a string and an object")
            out[wid] = definition
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise FamilyFileError(f"{path.name}: {exc}") from None
    return out


def names(seeds: dict[str, dict], families: Callable[[], FamilySet]) -> Names:
    """What a family's ``star`` may name, resolved while members are
    expanded: a seed's ID (``W000004``: the seed file's definition) or a
    member's label (``star.W000004``: that member's definition, with its
    own names resolved). A label whose expansion comes back to itself is
    refused."""
    busy = threading.local()

    def lookup(text: str) -> dict:
        if text in seeds:
            return seeds[text]
        fs = families()
        if not fs.is_label(text):
            raise NotFound(
                f"{text!r} is neither a seed's ID (W000001…) nor a family "
                "member's label"
            )
        open_labels: set[str] = busy.__dict__.setdefault("labels", set())
        if text in open_labels:
            raise LabelError(f"{text!r} names itself through its family's star")
        open_labels.add(text)
        try:
            return fs.parse_label(text).definition
        finally:
            open_labels.discard(text)

    return lookup


def shipped_names() -> Names:
    """:func:`names` of the shipped seeds and families: what
    :func:`catalog.p_positions` resolves a ``star``'s ID or label by, with
    no database."""
    return names(read_seed_definitions(seeds_dir()), _shipped)


def load_families(folder: Path | None = None, seeds: Path | None = None) -> FamilySet:
    """Load and validate every ``*.json`` in ``folder`` (default: the shipped
    families) against the seeds in ``seeds`` (default: the shipped seeds).
    The shipped families are package data: they are loaded, and their
    members expanded, once per process."""
    if folder is None and seeds is None:
        return _shipped()
    return _load(folder or families_dir(), seeds or seeds_dir())


@cache
def _shipped() -> FamilySet:
    return _load(families_dir(), seeds_dir())


def _load(folder: Path, seeds: Path) -> FamilySet:
    raw = {}
    for path in sorted(folder.glob("*.json")):
        data = read_family_file(path)
        raw[data["name"]] = data
    built: dict[str, Family] = {}

    def build(name: str, chain: tuple[str, ...] = ()) -> Family:
        if name in built:
            return built[name]
        data = raw[name]
        base = None
        if "misere_of" in data:
            base_name = data["misere_of"]
            if base_name not in raw or base_name in chain:
                raise FamilyFileError(
                    f"{data['file']}: misere_of: {base_name!r} is not another family"
                )
            base = build(base_name, (*chain, name))
            if base.misere_of is not None:
                raise FamilyFileError(
                    f"{data['file']}: misere_of: {base_name!r} is itself misère"
                )
        built[name] = build_family(data, base)
        return built[name]

    for name in raw:
        build(name)
    definitions = read_seed_definitions(seeds)
    holder: list[FamilySet] = []
    lookup = names(definitions, lambda: holder[0])
    # A template with a star expands through the seeds and the other
    # families: what they hold is part of its expansion's key.
    named = json.dumps([sorted(definitions.items()), sorted(raw)], sort_keys=True)
    named += "".join(f.source for f in built.values())
    families = [
        replace(
            f,
            names=lookup,
            names_source=named if names_star(f.definition) else "",
        )
        for f in built.values()
    ]
    holder.append(FamilySet(families, read_seed_ids(seeds), seeds))
    return holder[0]
