"""tools/mutate.py's judgement of survivors: a mutant counts as equivalent
only where EQUIVALENT's text says so (a wrong match hides a survivor)."""

import difflib
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutate", ROOT / "tools" / "mutate.py")
assert _spec is not None and _spec.loader is not None
mutate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutate)

JOBS = "catalog/store/jobs.py"


def diff(module: str, old: str, new: str) -> str:
    """The diff of one replaced line, as cosmic-ray records it."""
    source = (ROOT / module).read_text(encoding="utf-8")
    assert source.count(old) >= 1, old
    mutated = source.replace(old, new, 1)
    lines = difflib.unified_diff(
        source.split("\n"),
        mutated.split("\n"),
        fromfile="a/" + module,
        tofile="b/" + module,
        lineterm="",
    )
    return "\n".join(["--- mutation diff ---", *lines])


def test_a_text_of_several_lines_matches_its_own_loop_only():
    """``for job in []`` is harmless before ``session.expunge(job)`` (the
    session's close detaches the rows anyway) and not in the claims' loops,
    where the same slip claims nothing."""
    expunge = diff(
        JOBS,
        "    for job in jobs:\n        session.expunge",
        "    for job in []:\n        session.expunge",
    )
    assert mutate.equivalent(JOBS, expunge)
    claims = diff(
        JOBS,
        "    for job in jobs:\n        if job.claimed_by",
        "    for job in []:\n        if job.claimed_by",
    )
    assert mutate.equivalent(JOBS, claims) is None
    picked = diff(JOBS, "for job in picked:", "for job in []:")
    assert mutate.equivalent(JOBS, picked) is None


def test_a_text_of_one_line_matches_an_added_line_not_the_context():
    """A one-line text is looked for in the lines a mutant adds; the same
    text in the unchanged lines around it does not count."""
    module, (text, reason) = next(
        (m, entry)
        for m, entries in mutate.EQUIVALENT.items()
        for entry in entries
        if "\n" not in entry[0]
    )
    added = f"--- mutation diff ---\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 1; {text}\n y = 2"
    assert mutate.equivalent(module, added) == reason
    context = f"--- mutation diff ---\n@@ -1,2 +1,2 @@\n {text}\n-x = 1\n+x = 2"
    assert mutate.equivalent(module, context) is None
    assert mutate.equivalent("no/such/module.py", added) is None
