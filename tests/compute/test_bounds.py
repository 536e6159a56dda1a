"""The compiled kernels once more with numba's bounds checking on.

Without it an index past an array's end reads whatever lies there: a wrong
answer, a crash of the test's process, or a loop that never ends. With
``NUMBA_BOUNDSCHECK=1`` the same read raises ``IndexError``. The kernels'
own tests run in a child process with the setting, and a cache of compiled
code of their own (bounds-checked machine code must not be reused by the
normal runs, nor the other way round). Under pytest-xdist the child starts
before the workers, while the controller compiles the normal kernels
(:mod:`tests.bounds`).
"""

from __future__ import annotations

import pytest

from tests import bounds


@pytest.mark.long
@pytest.mark.timeout(bounds.LIMIT + 60)
def test_the_kernels_with_bounds_checking(tmp_path):
    code, output = bounds.run(tmp_path)
    assert code == 0, output
    assert " passed" in output
