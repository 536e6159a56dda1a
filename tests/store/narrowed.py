"""The shipped families with narrower ranges, for tests where seeding every
member is not the point."""

from __future__ import annotations

import json
import shutil

from catalog.families import families_dir, load_families


def small_families(tmp_path, **ranges):
    """The shipped families with narrower ranges: ``box=5`` makes a, b <= 5."""
    folder = tmp_path / "families"
    shutil.copytree(families_dir(), folder)
    for name, top in ranges.items():
        path = folder / f"{name}.json"
        data = json.loads(path.read_text("utf-8"))
        for param in data["parameters"]:
            if param["type"] == "int":
                param["max"] = min(param["max"], top)
        path.write_text(json.dumps(data), "utf-8")
    return load_families(folder)
