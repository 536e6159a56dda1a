"""Mutation testing of the templates' escaping, which cosmic-ray cannot reach.

Run: ``make mutate-templates`` (or ``python tools/mutate_templates.py``).
For each ``{{ … }}`` in ``catalog/api/templates/*.html``, one at a time, the
script adds ``|safe`` (turning Jinja's autoescaping off for that one value),
runs the pages' escaping tests and restores the file. A mutant the tests do
not fail *survived*: markup in that value would reach the browser unseen.

Values that can never hold markup (a URL from ``url_for``, which quotes
``<``, ``>`` and ``"``; a number; a fixed word) are listed in ``EQUIVALENT``
with the reason and not run; ``--all`` runs them too. Values already marked
``|safe`` or passed through ``|tojson`` (which returns markup-safe JSON) are
left alone.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "catalog" / "api" / "templates"
#: The tests that plant markup in every text a page shows (names,
#: descriptions, references, keywords, what the user typed), on SQLite only:
#: escaping does not depend on the database.
TESTS = [
    "tests/pages/test_pages.py",
    "tests/pages/test_family_pages.py",
    "tests/pages/test_identify_page.py",
    "-k",
    "escap and not postgresql",
]
PYTEST = [
    sys.executable,
    "-m",
    "pytest",
    "-x",
    "-q",
    "-p",
    "no:cacheprovider",
    "-p",
    "pytest_timeout",
    "-p",
    "_hypothesis_pytestplugin",
    "-o",
    "addopts=",
]
EXPRESSION = re.compile(r"\{\{-?(.*?)-?\}\}", re.DOTALL)

#: "template:expression" → why ``|safe`` on it cannot change the page.
EQUIVALENT: dict[str, str] = {}
URL_FOR = (
    'url_for percent-quotes <, > and " in what it is given, so no tag or '
    "attribute can start inside the link"
)


def equivalent(name: str) -> str | None:
    """Why ``|safe`` on this expression cannot change the page, if it cannot."""
    if name.split(":", 1)[1].startswith("url_for("):
        return URL_FOR
    return EQUIVALENT.get(name)


def mutants() -> list[tuple[Path, re.Match[str]]]:
    """Every ``{{ … }}`` that autoescaping guards, in file order."""
    found = []
    for path in sorted(TEMPLATES.glob("*.html")):
        for match in EXPRESSION.finditer(path.read_text()):
            body = match.group(1).strip()
            if not re.search(r"\|\s*(safe|tojson)\s*$", body):
                found.append((path, match))
    return found


def key(path: Path, match: re.Match[str]) -> str:
    return f"{path.name}:{match.group(1).strip()}"


def line(path: Path, match: re.Match[str]) -> int:
    return path.read_text().count("\n", 0, match.start()) + 1


def mutate(path: Path, match: re.Match[str]) -> bool:
    """Add ``|safe`` to one expression, run the tests; True if they failed."""
    original = path.read_text()
    body = match.group(1)
    stripped = body.rstrip()
    safe = f"({stripped.strip()})|safe" + body[len(stripped) :]
    mutated = original[: match.start(1)] + " " + safe + original[match.end(1) :]
    path.write_text(mutated)
    try:
        env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
        done = subprocess.run(
            PYTEST + TESTS, cwd=ROOT, env=env, capture_output=True, check=False
        )
        return done.returncode != 0
    finally:
        path.write_text(original)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="run EQUIVALENT too")
    args = parser.parse_args()
    start = time.monotonic()
    counts = {"mutants": 0, "killed": 0, "equivalent": 0, "survived": 0}
    for path, match in mutants():
        counts["mutants"] += 1
        name = key(path, match)
        if equivalent(name) and not args.all:
            counts["equivalent"] += 1
            continue
        where = f"{path.relative_to(ROOT)}:{line(path, match)}"
        if mutate(path, match):
            counts["killed"] += 1
            print(f"killed    {where}  {{{{ ({match.group(1).strip()})|safe }}}}")
        else:
            counts["survived"] += 1
            print(f"SURVIVED  {where}  {{{{ ({match.group(1).strip()})|safe }}}}")
    live = counts["mutants"] - counts["equivalent"]
    score = round(100 * counts["killed"] / live, 1) if live else 100.0
    minutes = round((time.monotonic() - start) / 60, 1)
    print(f"templates: {counts} score {score} % in {minutes} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
