"""Packaging: one top-level package, and the README's two install commands
run one after the other in the same checkout and venv.

The second test builds a venv of its own and installs a copy of the checkout
into it twice (``pip install .``, then ``pip install -e .``), as a user who
runs the README's first command and then its second does. It runs in CI like
every test; the dependencies come from the venv running the tests (a ``.pth``
line), so only the catalog itself is installed. That venv also lends pip and
the build backend: the new venv is made without pip (``ensurepip`` took a
third of the test) and builds without isolation, ``--check-build-dependencies``
checking that the backend lent satisfies ``[build-system] requires``. numba
compiles once, in the first install (what the regression needs: its cache
left beside the package); the editable install reads the positions back
from the same catalog instead of compiling the kernels again.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
FOLDERS = {"catalog": "catalog", "catalog.cli": "cli"}
FOLDERS |= {"catalog.migrations": "migrations", "catalog.seeds": "seeds"}
FOLDERS |= {"catalog.docs": "docs"}


def test_the_package_list_names_every_package_folder():
    """``[tool.setuptools] packages`` is a list: a new sub-package must be
    added to it, or installs would miss it."""
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert setuptools["package-dir"] == {
        k: v for k, v in FOLDERS.items() if k != "catalog"
    }
    found = set()
    for package, folder in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((package, *parts)))
    assert sorted(setuptools["packages"]) == sorted(found)
    assert PYPROJECT["project"]["scripts"] == {"wythoff": "catalog.cli.main:cli"}


def test_the_code_imports_the_installed_names_only():
    """Inside the repository ``cli``, ``migrations`` and ``seeds`` are
    importable as top-level packages (the working directory is on the path),
    but installed they exist only as ``catalog.cli`` and so on: an import of
    the short name works in the tests and breaks for users."""
    short = {"cli", "migrations", "seeds"}
    wrong = []
    for folder in FOLDERS.values():
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                names = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                for name in names:
                    if name.split(".")[0] in short:
                        wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert wrong == []


def _copy_checkout(target: Path) -> Path:
    ignore = shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", "build", "*.egg-info", ".pytest_cache"
    )
    shutil.copytree(ROOT, target, ignore=ignore)
    return target


NO_ISOLATION = ("--no-build-isolation", "--check-build-dependencies")


@pytest.mark.long
@pytest.mark.packaging
def test_install_then_editable_install_in_the_same_venv(tmp_path):
    source = _copy_checkout(tmp_path / "checkout")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The dependencies, pip and setuptools: those of the venv running the tests.
    (Path(site) / "outer.pth").write_text(sysconfig.get_path("purelib") + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("WYTHOFF_")}
    env.pop("PYTHONPATH", None)
    env.pop("NUMBA_CACHE_DIR", None)  # the default is what is tested
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    wythoff = str(venv / "bin" / "wythoff")

    def run(*args: str | Path, data: str | None = None) -> str:
        extra = {"WYTHOFF_DATA_DIR": str(tmp_path / data)} if data else {}
        done = subprocess.run(
            [str(a) for a in args],
            cwd=source,
            env=env | extra,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def install(*how: str) -> None:
        run(python, "-m", "pip", "install", "-q", "--no-deps", *NO_ISOLATION, *how)

    def where() -> Path:
        out = run(python, "-I", "-c", "import catalog; print(catalog.__file__)")
        return Path(out.strip()).parent

    install(".")
    installed = where()
    assert installed == Path(site) / "catalog"
    assert "Usage: wythoff" in run(wythoff, "--help")
    # First use: migrations and seeds found; computing compiles with numba's cache.
    assert "W000004" in run(wythoff, "seed", "--n", "0", "--json", data="one")
    assert "P-positions" in run(
        wythoff, "positions", "W000001", "--n", "50", data="one"
    )
    cached = list((tmp_path / "cache" / "wythoff-catalog" / "numba").rglob("*.nbi"))
    beside = [p for p in installed.rglob("*") if p.suffix in (".nbi", ".nbc")]

    install("-e", ".")
    leftover = installed.exists()
    assert "Usage: wythoff" in run(wythoff, "--help")
    # The same catalog, as a user who reinstalls keeps it: the migrations and
    # seeds are found again, and the positions computed above are read back
    # (computing from an editable install is what the rest of the suite does).
    assert "W000004" in run(wythoff, "seed", "--n", "0", "--json", data="one")
    assert "P-positions" in run(
        wythoff, "positions", "W000001", "--n", "50", data="one"
    )
    # numba's cache went to the user cache directory, not into site-packages.
    assert cached, "numba compiled nothing with its cache"
    assert beside == []
    assert not leftover  # nothing of the first install is left in site-packages
    assert where() == source / "catalog"
