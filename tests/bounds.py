"""The bounds-checked pass of the kernels' tests (tests/compute/test_bounds.py),
run in a child process, started early where it can be.

Under pytest-xdist the controller compiles the kernels before its workers
start (:mod:`tests.kernels`, some 20 s on a fresh checkout), on one core:
the other core idles. When the bounds-checked pass is among the tests to
run, the controller starts it then, in the background, and the test only
waits for its result; otherwise (one process, or the child not started) the
test runs it itself. Either way it is the same command, with its own numba
cache: bounds-checked machine code must not be reused by the normal runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST = ROOT / "tests" / "compute" / "test_bounds.py"
#: The tests that drive the compiled sweeps: the column kernels, the general
#: and special sweeps, Grundy tables, the altered games' kernel.
KERNEL_TESTS = [
    "tests/compute/test_p_positions.py",
    "tests/compute/test_special_kernel.py",
    "tests/compute/test_grundy.py",
    "tests/compute/test_fast_paths.py",
    "tests/compute/test_offsets.py",
]
#: The folder of the child started in the background (the workers inherit it).
FOLDER = "WYTHOFF_TEST_BOUNDS_DIR"
#: The folder of the reference grids the child writes and the workers read
#: (tests/compute/conftest.py); the child and the workers inherit it.
REFERENCE = "WYTHOFF_TEST_REFERENCE_DIR"
#: Seconds the pass may take.
LIMIT = 600

_child: subprocess.Popen | None = None


def command() -> list[str]:
    return [
        sys.executable, "-m", "pytest", *KERNEL_TESTS, "-q", "-rf",
        "-o", "addopts=", "--disable-plugin-autoload", "-p", "pytest_timeout",
        "-p", "no:cacheprovider", "-W", "error",
        "--timeout", "300",
    ]  # fmt: skip


def environment(folder: Path) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if k != FOLDER}
    return {
        **inherited,
        "NUMBA_BOUNDSCHECK": "1",
        "NUMBA_CACHE_DIR": str(folder / "numba"),
        # Room in -rf's lines for the reason (``IndexError: index is out of
        # bounds``) after each failed test's name.
        "COLUMNS": "200",
    }


def selected(config: pytest.Config) -> bool:
    """Will this session run the bounds-checked pass? No selection by name or
    marker, and a path that holds tests/compute/test_bounds.py. (A wrong
    guess costs time only: the test runs the pass itself when it was not
    started, and a pass started for nothing is stopped at the end.)"""
    if config.option.keyword or config.option.markexpr:
        return False
    for arg in config.args:
        for base in (config.invocation_params.dir, config.rootpath):
            path = (base / arg.split("::")[0]).resolve()
            if path == TEST or (path.is_dir() and path in TEST.parents):
                return True
    return False


def start(config: pytest.Config) -> None:
    """In the controller, before the workers start: the pass in the
    background, when it is among the tests to run."""
    global _child
    if not selected(config):
        return
    folder = Path(tempfile.mkdtemp(prefix="wythoff-bounds-"))
    (folder / "reference").mkdir()
    os.environ[REFERENCE] = str(folder / "reference")
    script = (
        "import subprocess, sys\n"
        "with open(sys.argv[1], 'w') as out:\n"
        "    code = subprocess.run(sys.argv[3:], stdout=out, stderr=out).returncode\n"
        "open(sys.argv[2], 'w').write(str(code))\n"
    )
    _child = subprocess.Popen(
        [sys.executable, "-c", script, str(folder / "output"), str(folder / "rc"),
         *command()],
        cwd=ROOT,
        env=environment(folder),
        start_new_session=True,
    )  # fmt: skip
    os.environ[FOLDER] = str(folder)


def stop() -> None:
    """At the session's end: a pass still running (its test deselected, or
    the run interrupted) is ended."""
    if _child is None:
        return
    if _child.poll() is None:
        os.killpg(_child.pid, 9)
        _child.wait()
    os.environ.pop(REFERENCE, None)
    shutil.rmtree(os.environ.pop(FOLDER), ignore_errors=True)


def run(tmp_path: Path) -> tuple[int, str]:
    """The pass's exit code and output: the background child's, waited for,
    or a child run now."""
    folder = os.environ.get(FOLDER)
    if folder is None:
        done = subprocess.run(
            command(),
            cwd=ROOT,
            env=environment(tmp_path),
            capture_output=True,
            text=True,
            timeout=LIMIT,
        )
        return done.returncode, done.stdout[-4000:] + done.stderr[-2000:]
    rc, output = Path(folder, "rc"), Path(folder, "output")
    deadline = time.monotonic() + LIMIT
    while not rc.exists() or not rc.read_text():
        assert time.monotonic() < deadline, "the bounds-checked pass did not end"
        time.sleep(0.2)
    return int(rc.read_text()), output.read_text()[-6000:]
