"""The documentation site: ``mkdocs build --strict`` of docs/ (mkdocs.yml)
passes, and fails on a broken link or a page left out of the navigation."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def build(root: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=110,
    )


def test_the_site_builds_strictly(tmp_path):
    result = build(ROOT, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "invariants" / "offset" / "index.html").is_file()
    assert (tmp_path / "site" / "search" / "search_index.json").is_file()


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (
            lambda docs: (docs / "cli.md").write_text(
                (docs / "cli.md").read_text() + "\n[gone](no-such-page.md)\n"
            ),
            "no-such-page.md",
        ),
        (lambda docs: (docs / "orphan.md").write_text("# Orphan\n"), "orphan.md"),
    ],
    ids=["broken link", "page not in the navigation"],
)
def test_the_build_fails_on(tmp_path, change, complaint):
    copy = tmp_path / "repo"
    copy.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", copy)
    shutil.copytree(
        ROOT / "docs", copy / "docs", ignore=shutil.ignore_patterns("__pycache__")
    )
    change(copy / "docs")
    result = build(copy, tmp_path / "site")
    assert result.returncode != 0
    assert complaint in result.stderr


def test_the_references_are_what_the_code_says():
    """docs/cli-reference.md and docs/http-reference.md are generated from
    the click commands and the OpenAPI document: run tools/reference.py
    after changing either."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import reference
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert reference.CLI_PAGE.read_text() == reference.cli_reference(), (
        "docs/cli-reference.md is stale: run python tools/reference.py"
    )
    assert reference.HTTP_PAGE.read_text() == reference.http_reference(), (
        "docs/http-reference.md is stale: run python tools/reference.py"
    )
