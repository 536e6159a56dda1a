"""The notebook client on its own: ``pip install ./client`` (the
``wythoff-client`` distribution) gives ``catalog.client`` with numpy and
nothing else, leaves the environment alone, refuses floats, and reads a
live server; with the whole catalog, the frames."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from catalog import client as full_client
from catalog import inputs
from catalog.client import Catalog
from tests.api.conftest import serve

ROOT = Path(__file__).resolve().parents[2]
LENT = ("numpy", "numpy.libs", "setuptools", "pkg_resources", "_distutils_hack")


@pytest.fixture(scope="module")
def base(app):
    url, stop = serve(app)
    yield url
    stop()


@pytest.fixture(scope="module")
def alone(tmp_path_factory):
    """A venv holding the client alone (numpy and the build backend lent
    from the test venv, nothing of the catalog)."""
    folder = tmp_path_factory.mktemp("client-alone")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    lent = folder / "lent"
    lent.mkdir()
    outer = Path(sysconfig.get_path("purelib"))
    for name in LENT:
        for found in outer.glob(f"{name}*"):  # the package and its dist-info
            if found.name == name or found.name.startswith(f"{name}-"):
                (lent / found.name).symlink_to(found)
    # Named to come before the .pth that imports _distutils_hack from it.
    (site / "0-lent.pth").write_text(f"{lent}\n")
    # setuptools' own distutils, as in the venv it comes from.
    hack = outer / "distutils-precedence.pth"
    if hack.exists():
        (site / hack.name).write_text(hack.read_text())
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("WYTHOFF_", "NUMBA_"))
    }
    env.pop("PYTHONPATH", None)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            str(ROOT / "client"),
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return python, site, env, folder


def run_alone(alone, script: str) -> dict:
    python, _, env, folder = alone
    done = subprocess.run(
        [python, "-I", "-c", script],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_client_alone_needs_numpy_only(alone):
    _, site, _, _ = alone
    metadata = next(site.glob("wythoff_client-*.dist-info")) / "METADATA"
    required = [
        line.split(": ", 1)[1]
        for line in metadata.read_text().splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    assert required == ["numpy>=1.26"]
    assert sorted(
        p.name for p in (site / "catalog").iterdir() if p.suffix == ".py"
    ) == ["client.py"]


def test_the_client_alone_leaves_the_environment_and_loads_nothing_else(alone):
    found = run_alone(
        alone,
        "import json, os, sys\n"
        "before = dict(os.environ)\n"
        "from catalog.client import Catalog\n"
        "print(json.dumps({'same': dict(os.environ) == before,"
        " 'modules': sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('catalog', 'numba', 'sqlalchemy', 'flask', 'pandas'))}))",
    )
    assert found == {"same": True, "modules": ["catalog", "catalog.client"]}


def test_the_client_alone_reads_a_live_server(alone, base, app):
    found = run_alone(
        alone,
        "import json\n"
        "from catalog.client import Catalog, CatalogError\n"
        f"cat = Catalog({base!r})\n"
        "out = {'repr': repr(cat)}\n"
        "out['positions'] = cat.p_positions('maharaja.1.2', 40).tolist()\n"
        "out['far'] = cat.is_p('W000001', 10**30, 10**30)\n"
        "out['whole'] = cat.position('W000001', 10**30, 10**30)['outcome']\n"
        "try:\n"
        "    cat.is_p('W000001', 1e30, 1e30)\n"
        "except TypeError as exc:\n"
        "    out['float'] = str(exc)\n"
        "try:\n"
        "    cat.entry('W999999')\n"
        "except CatalogError as exc:\n"
        "    out['missing'] = exc.status\n"
        "try:\n"
        "    cat.table_frame('box', 'offset')\n"
        "except ImportError as exc:\n"
        "    out['frames'] = str(exc)\n"
        "print(json.dumps(out))",
    )
    from catalog import p_positions
    from catalog.store.seed import read_seed, seed_dir

    maharaja = read_seed(seed_dir() / "W000004.json")["definition"]
    assert found["repr"] == f"Catalog({base!r})"
    assert found["positions"] == p_positions(maharaja, 40).tolist()
    assert found["far"] is False and found["whole"] == "N"
    assert "x: an integer is needed, not float 1e+30" in found["float"]
    assert found["missing"] == 404
    assert found["frames"] == "table_frame needs pandas: pip install pandas"


def test_the_clients_limits_are_the_apis():
    assert full_client.MAX_SEARCH_LIMIT == inputs.MAX_SEARCH_LIMIT
    assert full_client.MAX_SEARCH_OFFSET == inputs.MAX_SEARCH_OFFSET
    assert full_client.MAX_LIST_LIMIT == inputs.MAX_LIST_LIMIT


def test_client_link_is_the_catalogs_module():
    link = ROOT / "client" / "catalog" / "client.py"
    assert link.is_symlink() and link.resolve() == ROOT / "catalog" / "client.py"


@pytest.mark.parametrize("bad", [1.0, 1e30, "7", True, None, np.float64(3)])
def test_floats_and_other_non_integers_are_refused(bad):
    cat = Catalog("http://127.0.0.1:1")
    with pytest.raises(TypeError, match="an integer is needed"):
        cat.is_p("W000001", bad, 3)
    with pytest.raises(TypeError, match="n: an integer is needed"):
        cat.p_positions("W000001", bad)


def test_numpy_integers_are_integers(base):
    cat = Catalog(base)
    assert cat.is_p("W000001", np.int64(1), np.uint8(2)) is True


def test_frames(base, app):
    from catalog import service

    service.seed_families(app.extensions["catalog"], ["box"])
    cat = Catalog(base)
    frame = cat.table_frame("box", "offset")
    doc = cat.table("box", "offset")
    assert frame.index.name == doc["rows"]["name"]
    assert frame.columns.name == doc["columns"]["name"]
    assert frame.shape == (len(doc["rows"]["values"]), len(doc["columns"]["values"]))
    assert frame.attrs == {"family": "box", "invariant": "offset"}
    entries = cat.entries_frame(family="box")
    assert entries.index.name == "id" and len(entries) == len(
        list(cat.entries(family="box"))
    )
    assert {"label", "name"} <= set(entries.columns)
