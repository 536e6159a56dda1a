"""Write ``seeds/labels.json``: the label rows of the seeds whose games are
family members, and the labels of every game that more than one member
holds, and the primary label of every member's game by its key's first
digits, with the fingerprint of the families and seeds they come from
(``FamilySet.seed_labels``, ``FamilySet.shared``,
``FamilySet.primary_labels``).

Seeding a catalog labels its seeds (``maharaja.1.2`` names W000004 from the
start), and seeding one family gives each member the W-number and labels
of every member of its game, and ``wythoff add`` labels a new game that is
a member; without this file each means expanding every member of the
shipped families. Run it after changing a family or a seed file:
``python tools/seed_labels.py``. A stale file is never used (its fingerprint
differs), and ``tests/families/test_files.py`` fails until it is written.
"""

from __future__ import annotations

import json
from pathlib import Path

from catalog.families.registry import KEY_PREFIX, SEED_LABELS, load_families

ROOT = Path(__file__).resolve().parents[1]


def current() -> dict:
    """What the file should hold, for the checkout's families and seeds."""
    fs = load_families(ROOT / "seeds" / "families", ROOT / "seeds")
    return {
        "fingerprint": fs.fingerprint,
        "labels": fs.computed_seed_labels(),
        "shared": fs.computed_shared(),
        "members": fs.computed_primary_labels(),
    }


def main() -> None:
    found = current()
    games = load_families(ROOT / "seeds" / "families", ROOT / "seeds").labels
    if len(found["members"]) != len(games):
        raise SystemExit(f"two games' keys share their first {KEY_PREFIX} digits")
    path = ROOT / "seeds" / SEED_LABELS
    path.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
