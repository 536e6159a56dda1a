"""A server warm from its first request: create_app calls every kernel once
(catalog.compute.warm) unless WARM is off; a fresh process checks it."""

import json
import subprocess
import sys

import pytest

SCRIPT = """
import json, sys
from catalog.api import create_app
from catalog.compute import kernel, warm
create_app({"DATABASE_URL": sys.argv[1], "WARM": sys.argv[2] == "1"})
compiled = [
    name for name, value in vars(kernel).items()
    if getattr(value, "signatures", None)
]
print(json.dumps({"warmed": warm._done, "compiled": compiled}))
"""


@pytest.mark.parametrize("on", [True, False])
def test_create_app_loads_every_kernel_before_serving(tmp_path, on):
    url = f"sqlite:///{tmp_path / 'catalog.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, url, "1" if on else "0"],
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["warmed"] is on
    if on:  # machine code loaded: the column sweep's kernels have signatures
        assert {"_sweep", "_assemble"} <= set(found["compiled"])
    else:
        assert found["compiled"] == []
