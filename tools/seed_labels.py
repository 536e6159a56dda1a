"""Write ``seeds/labels.json``: the label rows of the seeds whose games are
family members, and the labels of every game that more than one member
holds, with the fingerprint of the families and seeds they come from
(``FamilySet.seed_labels``, ``FamilySet.shared``).

Seeding a catalog labels its seeds (``maharaja.1.2`` names W000004 from the
start), and seeding one family gives each member the W-number and labels
of every member of its game; without this file both mean expanding all
10,591 members of the shipped families. Run it after changing a family or a seed file:
``python tools/seed_labels.py``. A stale file is never used (its fingerprint
differs), and ``tests/families/test_files.py`` fails until it is written.
"""

from __future__ import annotations

import json
from pathlib import Path

from catalog.families.registry import SEED_LABELS, load_families

ROOT = Path(__file__).resolve().parents[1]


def current() -> dict:
    """What the file should hold, for the checkout's families and seeds."""
    fs = load_families(ROOT / "seeds" / "families", ROOT / "seeds")
    return {
        "fingerprint": fs.fingerprint,
        "labels": fs.computed_seed_labels(),
        "shared": fs.computed_shared(),
    }


def main() -> None:
    path = ROOT / "seeds" / SEED_LABELS
    path.write_text(json.dumps(current(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
