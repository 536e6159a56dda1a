"""The compiled kernels once more with numba's bounds checking on.

Without it an index past an array's end reads whatever lies there: a wrong
answer, a crash of the test's process, or a loop that never ends. With
``NUMBA_BOUNDSCHECK=1`` the same read raises ``IndexError``. The kernels'
own tests run in a child process with the setting, and a cache of compiled
code of their own (bounds-checked machine code must not be reused by the
normal runs, nor the other way round).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The tests that drive the compiled sweeps: the column kernels, the general
#: and special sweeps, Grundy tables, the altered games' kernel.
KERNEL_TESTS = [
    "tests/compute/test_p_positions.py",
    "tests/compute/test_special_kernel.py",
    "tests/compute/test_grundy.py",
    "tests/compute/test_fast_paths.py",
    "tests/compute/test_offsets.py",
]


@pytest.mark.long
@pytest.mark.timeout(600)
def test_the_kernels_with_bounds_checking(tmp_path):
    env = {
        **os.environ,
        "NUMBA_BOUNDSCHECK": "1",
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        # Room in -rf's lines for the reason (``IndexError: index is out of
        # bounds``) after each failed test's name.
        "COLUMNS": "200",
    }
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *KERNEL_TESTS, "-q", "-rf", "-n", "0",
         "-p", "no:cacheprovider", "-o", "addopts=", "-W", "error",
         "--timeout", "300"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
