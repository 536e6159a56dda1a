"""A family set loaded once, and a helper that edits copies of family files."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from catalog.families import FamilySet, families_dir, load_families


@pytest.fixture(scope="session")
def families() -> FamilySet:
    return load_families()


@pytest.fixture
def edited(tmp_path: Path) -> Callable[..., Path]:
    """Copy the shipped family files to a folder, let ``edit`` change the JSON
    object of the file ``name`` in place, and return the folder."""

    def make(name: str, edit: Callable[[dict], object]) -> Path:
        folder = tmp_path / "families"
        if not folder.exists():
            shutil.copytree(families_dir(), folder)
        path = folder / f"{name}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        edit(data)
        path.write_text(json.dumps(data), "utf-8")
        return folder

    return make
