"""Bulk commands at a terminal print a summary, never a line of every ID:
``seed --family … --queue`` (how many entries were added or already there,
the range of the jobs queued) and ``jobs`` (the jobs in each state, what
runs with its rate and ETA, what failed). ``--json`` and ``jobs --all``
still give every item."""

import json
import re
from datetime import timedelta

import pytest

from catalog import service
from catalog.cli.main import cli
from catalog.cli.output import ranges
from catalog.config import Settings
from catalog.store.db import writing
from catalog.store.job_model import Job
from catalog.store.models import utcnow

#: A W-number anywhere in a text.
W_NUMBER = re.compile(r"\bW\d{6}\b")


@pytest.fixture
def store(seeded_url):
    """A seeded catalog of its own, on each backend."""
    store = service.Store(Settings.load(seeded_url))
    yield store
    store.dispose()


def wythoff(runner, store, *args):
    result = runner.invoke(cli, [*args, "--db", store.settings.database_url])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_seeding_a_family_into_the_queue_prints_counts_and_a_range(runner, store):
    seed = ("seed", "--family", "maharaja", "--n", "50", "--queue")
    text = wythoff(runner, store, *seed)
    # Again, with --json: every entry is there now, and each fill's job is
    # the one queued before (enqueue answers with it).
    report = json.loads(wythoff(runner, store, *seed, "--json"))
    queued, members = sorted(report["jobs"]), report["members"]
    assert len(members) == 120 and queued == list(range(1, len(queued) + 1))
    entries = len(report["unchanged"])
    new = sum(int(wid[1:]) >= 100_000 for wid in members)  # not a seed's game
    assert 0 < new < 120
    assert text.splitlines() == [
        f"entries: {new} added, 0 updated, {entries - new} unchanged",
        f"maharaja: 120 members, {new} added, {120 - new} already there",
        f"queued: {len(queued)} jobs (1–{len(queued)}); 'wythoff jobs' follows "
        "them, 'wythoff worker' runs them",
        "every ID: wythoff seed … --json",
    ]
    assert W_NUMBER.search(text) is None


def _jobs(store, states):
    """Jobs of the first seeds, in these states, in this order; a running
    one has done 50 columns in 3 s (16.7 a second) and has 60 to go."""
    service.compute(store, "W000001", 300)
    start = utcnow()
    with writing(store.sessions) as session:
        rows = [
            Job(
                entry_id=number,
                kind="fill",
                target=360 if state == "running" else 100,
                state=state,
                priority=0,
                attempts=3 if state == "failed" else 0,
                entry_key=service.entry_game(store, f"W{number:06d}")[1].key,
                created_at=start,
                error=f"RuntimeError: job {number} broke"
                if state == "failed"
                else None,
                started_from=250 if state == "running" else None,
                claimed_at=start if state == "running" else None,
                heartbeat_at=start + timedelta(seconds=3)
                if state == "running"
                else None,
                claimed_by="host:1" if state == "running" else None,
            )
            for number, state in enumerate(states, start=1)
        ]
        session.add_all(rows)
        session.flush()
        return [row.id for row in rows]


def test_jobs_prints_counts_what_runs_and_what_failed(runner, store):
    states = ["running", "done", "done", "failed", "queued", "done", "queued"]
    ids = _jobs(store, states)
    text = wythoff(runner, store, "jobs")
    assert text.splitlines() == [
        "7 jobs: 2 queued, 1 running, 3 done, 1 failed",
        "",
        "running",
        "JOB  ENTRY    N    DONE     RATE    ETA  WORKER",
        f"{ids[0]:<3}  W000001  360  300/360  16.7/s  4 s  host:1",
        "",
        "failed",
        "JOB  ENTRY    N    ATTEMPTS  ERROR",
        f"{ids[3]:<3}  W000004  100  3         RuntimeError: job 4 broke",
        "",
        "every job: wythoff jobs --all, or --state STATE, or --json",
    ]
    # Every job: --all as a table, --json as the contract's list.
    table = wythoff(runner, store, "jobs", "--all").splitlines()
    assert len(table) == 1 + len(ids)
    listed = json.loads(wythoff(runner, store, "jobs", "--json"))["jobs"]
    assert sorted(job["id"] for job in listed) == ids
    assert len(wythoff(runner, store, "jobs", "--state", "done").splitlines()) == 4


def test_jobs_shows_the_latest_failures_and_says_how_many_more(runner, store):
    ids = _jobs(store, ["failed"] * 12 + ["done"] * 3)
    text = wythoff(runner, store, "jobs")
    lines = text.splitlines()
    assert lines[0] == "15 jobs: 3 done, 12 failed"
    assert "failed (the latest 10)" in lines
    shown = [int(line.split()[0]) for line in lines if "RuntimeError" in line]
    assert shown == sorted(ids[:12], reverse=True)[:10]
    assert "and 2 more: wythoff jobs --state failed" in lines
    assert "running" not in lines


def test_an_empty_queue_says_so(runner, store):
    assert wythoff(runner, store, "jobs") == "no jobs\n"


@pytest.mark.parametrize(
    ("numbers", "most", "text"),
    [
        ([], 3, "-"),
        ([7], 3, "7"),
        ([3, 1, 2, 2], 3, "1–3"),
        ([5, 3, 4, 9, 12, 13, 14, 20, 22], 3, "3–5, 9, 12–14 and 2 more runs"),
        ([1, 3, 5, 7], 3, "1, 3, 5 and 1 more run"),
        ([1, 3, 5, 7], 4, "1, 3, 5, 7"),
    ],
)
def test_ranges_of_ids(numbers, most, text):
    assert ranges(numbers, most) == text
