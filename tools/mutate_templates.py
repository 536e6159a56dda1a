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

NUMBER = "a number the code computes or parses (int_arg): no markup"
ENTRY_ID = "an entry ID as format_id writes it: W and six digits"
NAME = (
    "a family's or parameter's name, a label, or a parameter's value: the "
    "family files' patterns allow letters, digits, '-', '_' and '.' only"
)
FIXED = "one of a fixed set of words the code chooses"
WRITTEN = (
    "text the code writes from numbers and fixed words (a caption, a note, "
    "a sentence, JSON of computed values): no stored or typed text in it"
)
MARKUP = "already Markup (a drawn SVG, a documentation page): |safe changes nothing"
OWN = "the title of one of the project's own documentation pages"
STAMP = "a time the database wrote (digits, '-', ':' and 'T')"
VALID_INVARIANT = (
    "an invariant's name: a name the user asked for is shown only when it "
    "is one of the fields (else the page is a 400)"
)

#: "template:expression" → why ``|safe`` on it cannot change the page.
EQUIVALENT: dict[str, str] = {
    **{
        f"adjoinable.html:{e}": NUMBER
        for e in ("doc.move[0] if doc else ''", "doc.move[1] if doc else ''")
    },
    "adjoinable.html:doc.move[0]": NUMBER,
    "adjoinable.html:doc.move[1]": NUMBER,
    "adjoinable.html:doc.reason": WRITTEN,
    "doc.html:title": OWN,
    "doc.html:body": MARKUP,
    "entry.html:doc.id": ENTRY_ID,
    "entry.html:x": ENTRY_ID,
    "entry.html:label": NAME + " (or a download's fixed name)",
    "entry.html:href": "a URL the code builds (url_for, a definition page)",
    "entry.html:doc.family.name": NAME,
    "entry.html:sentence": WRITTEN,
    "entry.html:definition.text": WRITTEN,
    "entry.html:n": NUMBER,
    "entry.html:note": WRITTEN,
    "entry.html:figure.svg": MARKUP,
    "entry.html:figure.caption": WRITTEN,
    "entry.html:row.name": FIXED + " (the invariants' names)",
    "entry.html:row.value": WRITTEN,
    "entry.html:row.details": WRITTEN,
    "entry.html:row.status": FIXED + " (an invariant's status)",
    "entry.html:row.source": FIXED + " (an invariant's source)",
    "entry.html:row.word": "a word of the bit-string: 0s and 1s",
    "entry.html:row.translate": "a word of the bit-string: 0s and 1s",
    "entry.html:row.equation": FIXED + " (Larsson–Wästlund's equation numbers)",
    "entry.html:row.first": NUMBER,
    "entry.html:row.count": NUMBER,
    "entry.html:dictionary|length": NUMBER,
    "entry.html:dictionary_size": NUMBER,
    "entry.html:name": FIXED + " (the sequences' names)",
    "entry.html:s.description": FIXED + " (the sequences' descriptions)",
    "entry.html:s.offset": NUMBER,
    "entry.html:s.length": NUMBER,
    "entry.html:s.first_terms|join(', ')": NUMBER + "s",
    "entry.html:doc.computed.x_bound": NUMBER,
    "entry.html:doc.computed.y_bound": NUMBER,
    "entry.html:doc.computed.count": NUMBER,
    "entry.html:doc.computed.mode": FIXED + " (column or box)",
    "entry.html:doc.computed.engine": FIXED + " (the engines' names)",
    "entry.html:doc.xrefs|length - 200": NUMBER,
    "entry.html:doc.source": FIXED + " (seed or user)",
    "entry.html:doc.created": STAMP,
    "entry.html:doc.updated": STAMP,
    "error.html:status": NUMBER,
    "families.html:f.name": NAME,
    "families.html:f.members": NUMBER,
    "families.html:f.seeded": NUMBER,
    "families.html:f.first_id": ENTRY_ID,
    "family.html:family.name": NAME,
    "family.html:family.misere_of": NAME,
    "family.html:family.members": NUMBER,
    "family.html:family.seeded": NUMBER,
    "family.html:family.first_id": ENTRY_ID,
    "family.html:href": "a definition page's URL, which the code builds",
    "family.html:invariant": VALID_INVARIANT,
    "family.html:c": NAME + " (or an invariant's name in the menu)",
    "family.html:r": NAME,
    "family.html:table.rows.name": NAME,
    "family.html:table.columns.name": NAME,
    "family.html:v": WRITTEN + " (a table's cell)",
    "family.html:v|join(',')": WRITTEN + " (a table's cell)",
    "family.html:m.label": NAME,
    "family.html:m.id": ENTRY_ID,
    "family.html:members|length": NUMBER,
    "home.html:count": NUMBER,
    "home.html:number": NUMBER,
    "home.html:row.id": ENTRY_ID,
    "identify.html:max_n": NUMBER,
    "identify.html:max_limit": NUMBER,
    "identify.html:doc.cells": NUMBER,
    "identify.html:doc.n": NUMBER,
    "identify.html:e.id": ENTRY_ID,
    "identify.html:e.label": NAME,
    "identify.html:doc.catalog_total - doc.catalog|length": NUMBER,
    "identify.html:r[0]": NUMBER,
    "identify.html:r[1]": NUMBER,
    "identify.html:m[0]": NUMBER,
    "identify.html:m[1]": NUMBER,
    "identify.html:c[0]": NUMBER,
    "identify.html:c[1]": NUMBER,
    "identify.html:doc.maximal.moves": NUMBER,
    "identify.html:doc.maximal.unreached|length - 5": NUMBER,
    "identify.html:note": WRITTEN,
    "identify.html:title": FIXED + " (the two lists' titles)",
    "identify.html:games[0].size": NUMBER,
    "identify.html:kind": FIXED + " (P or N)",
    "identify.html:g.id": ENTRY_ID,
    "identify.html:doc.bound": NUMBER,
    "identify.html:doc.unseen": WRITTEN,
    "identify.html:'%.2f'|format(doc.seconds)": NUMBER,
    "identify.html:p.title": WRITTEN,
    "identify.html:p.forced": NUMBER,
    'identify.html:"s" if p.forced != 1': FIXED,
    "identify.html:p.svg": MARKUP,
    "search.html:offset + 1": NUMBER,
    "search.html:offset + rows|length": NUMBER,
    "search.html:row.id": ENTRY_ID,
    "search.html:row.sequence": FIXED + " (the sequences' names)",
    "search.html:row.index": NUMBER,
    "search.html:row.context.before|join(', ')": NUMBER + "s",
    "search.html:row.context.match|join(', ')": NUMBER + "s",
    "search.html:row.context.after|join(', ')": NUMBER + "s",
}
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
