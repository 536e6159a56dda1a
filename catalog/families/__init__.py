"""Families of variants as data: loading, members, labels and W-numbers.

Pure: no database. A family is a JSON file in ``seeds/families/``
(:mod:`.spec`), its parameters have range-independent offsets
(:mod:`.params`), its members are expanded from a definition template
(:mod:`.members`), and :mod:`.registry` gives every member's game its
W-number and labels.
"""

from catalog.families.members import Member, expand, members, misere
from catalog.families.params import LabelError, Parameter, shell_index
from catalog.families.registry import (
    FIRST_FAMILY_ID,
    MAX_ID,
    FamilySet,
    UnknownFamily,
    families_dir,
    load_families,
)
from catalog.families.spec import Family, FamilyFileError

__all__ = [
    "FIRST_FAMILY_ID",
    "MAX_ID",
    "Family",
    "FamilyFileError",
    "FamilySet",
    "LabelError",
    "Member",
    "Parameter",
    "UnknownFamily",
    "expand",
    "families_dir",
    "load_families",
    "members",
    "misere",
    "shell_index",
]
