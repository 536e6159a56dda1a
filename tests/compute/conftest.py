"""The reference grids, computed once for the normal run and the
bounds-checked pass together.

The kernels' tests compare them with :func:`catalog.compute.reference.outcome_grid`,
the slow, obviously right labelling in Python. The bounds-checked pass
(:mod:`tests.bounds`) runs the same tests in a child process started before
the workers, so the same grids were computed twice. When that child runs,
each grid of at least :data:`SHARED_N` columns is kept in a folder of the
session (``WYTHOFF_TEST_REFERENCE_DIR``) by whichever process computes it
first, and read by the others. A grid is a function of the game's key and
``n``, so a grid read is the one that would have been computed; without
the folder (one process, or a test run alone) every grid is computed.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from catalog.compute import reference
from catalog.games.definition import DefinitionError, canonicalize
from tests import bounds

#: Grids smaller than this are computed again: reading one costs as much.
SHARED_N = 40
_compute = reference.outcome_grid


def shared_outcome_grid(folder: Path):
    def outcome_grid(definition, n):
        if not isinstance(n, int) or n < SHARED_N:
            return _compute(definition, n)
        try:
            key = canonicalize(definition).key
        except DefinitionError:
            return _compute(definition, n)  # its error, as the tests expect
        path = folder / f"{key}-{n}.npy"
        try:
            return np.load(path)
        except (OSError, ValueError):
            pass  # not written yet (or being written): computed here
        grid = _compute(definition, n)
        part = path.with_name(f"{path.name}.{os.getpid()}")
        with open(part, "wb") as out:
            np.save(out, grid)
        os.replace(part, path)  # whole or not at all, for the other readers
        return grid

    return outcome_grid


@pytest.fixture(autouse=True)
def shared_reference(monkeypatch):
    folder = os.environ.get(bounds.REFERENCE)
    if folder is not None:
        monkeypatch.setattr(
            reference, "outcome_grid", shared_outcome_grid(Path(folder))
        )
