"""An empty catalog at the schema's head, for the store tests that write;
family sets with narrower ranges, loaded once per module."""

from __future__ import annotations

import json
import shutil

import pytest

from catalog.families import families_dir, load_families
from tests.conftest import BACKENDS, new_database_url
from tests.databases import migrated


@pytest.fixture(params=BACKENDS)
def migrated_url(request, tmp_path) -> str:
    """An empty database of each backend at the schema's head, for one test:
    a copy of one migrated per session (a store opened on it has no
    migration to run)."""
    return new_database_url(request.param, request, tmp_path, migrated)


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


@pytest.fixture(scope="module")
def family_sets(tmp_path_factory):
    """Family sets by their ranges, loaded once per module: their members
    are expanded once, not once per store (a store only reads them)."""
    folder = tmp_path_factory.mktemp("families")
    made = {}

    def get(**ranges):
        key = tuple(sorted(ranges.items()))
        if key not in made:
            made[key] = (
                small_families(folder / str(len(made)), **ranges)
                if ranges
                else load_families()
            )
        return made[key]

    return get
