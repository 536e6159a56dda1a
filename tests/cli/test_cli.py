"""The ``wythoff`` command, end to end, on both databases."""

import json
import signal
import threading

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from catalog import p_positions
from catalog.cli.main import cli
from catalog.store.db import make_engine
from catalog.store.models import Entry, Extent, PositionChunk
from catalog.store.seed import read_seed, seed_dir
from tests.cli.conftest import SEEDED_N, command
from tests.cli.racing import Forked, StopAt

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}


@pytest.fixture
def seeded(runner, seeded_url):
    """``wythoff`` on a copy of a catalog seeded as by ``seed --n 0``."""
    return command(runner, seeded_url)


def count_entries(url):
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return conn.scalar(select(func.count()).select_from(Entry))
    finally:
        engine.dispose()


def test_seed_twice_adds_nothing_the_second_time(computed):
    # The first seed, into a fresh catalog, built the copied one (conftest).
    wythoff, first = computed
    assert len(first["added"]) >= 20
    code, second, _ = wythoff("seed", "--n", str(SEEDED_N))
    assert code == 0
    assert second["added"] == [] and second["unchanged"] == first["added"]


def test_add_returns_the_existing_entry(seeded):
    shuffled = json.dumps({"rays": [[1, 1], [0, 1], [1, 0], [0, 1], [1, 0]]})
    assert seeded("add", "--definition", shuffled)[1] == {
        "id": "W000001",
        "created": False,
    }
    code, added, _ = seeded("add", "--definition", '{"rays": [[1, 2]]}', "--name", "x")
    assert code == 0 and added["created"] is True
    assert seeded("add", "--definition", '{"rays": [[1,2]]}')[1] == {
        **added,
        "created": False,
    }


def test_show_positions_is_p_compute(seeded):
    code, shown, _ = seeded("show", "W000002")
    assert code == 0
    assert shown["id"] == "W000002" and shown["definition"]["alter"]["N"] == [[0, 0]]
    assert {"offset", "defects", "saturation_column", "xrefs"} <= set(shown)
    code, doc, _ = seeded("positions", "W000001", "--n", "50")
    assert doc == {
        "id": "W000001",
        "n": 50,
        "positions": p_positions(WYTHOFF, 50).tolist(),
    }
    assert seeded("is-p", "W000001", "3", "5")[1] == {
        "id": "W000001",
        "position": [3, 5],
        "outcome": "P",
        "move_to": None,
    }
    code, doc, _ = seeded("is-p", "W000001", "10", "20")
    assert doc["outcome"] == "N" and tuple(doc["move_to"]) in {(10, 6), (6, 10)} | {
        tuple(p) for p in p_positions(WYTHOFF, 21).tolist()
    }
    code, doc, _ = seeded("compute", "W000004", "--n", "300")
    assert doc == {
        "id": "W000004",
        "n": 300,
        "count": len(p_positions({**WYTHOFF, "moves": [[1, 2], [2, 1]]}, 300)),
    }
    code, listed, _ = seeded("list", "--keyword", "maharaja")
    assert "W000004" in [e["id"] for e in listed["entries"]]


def test_export_formats(runner, seeded_url):
    csv = runner.invoke(
        cli, ["export", "W000001", "--format", "csv", "--n", "10", "--db", seeded_url]
    )
    expected = [f"{x},{y}" for x, y in p_positions(WYTHOFF, 10).tolist()]
    assert csv.stdout.splitlines() == ["x,y", *expected]
    bfile = runner.invoke(
        cli, ["export", "W000001", "--format", "bfile", "--n", "10", "--db", seeded_url]
    )
    # a_n, the lower Wythoff sequence: the P-position pairs' smaller coordinates.
    lower = sorted(
        {x for x, y in p_positions(WYTHOFF, 40).tolist() if x <= y < 40 and x < 10}
    )
    assert bfile.stdout.splitlines()[1:] == [f"{i} {a}" for i, a in enumerate(lower)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "W999999"], "no entry W999999"),
        (["show", "banana"], "not an entry ID"),
        (["add", "--definition", "{rays"], "not valid JSON"),
        (["add", "--definition", '{"rays": [[0, 0]]}'], "rays[0]: (0, 0)"),
        (["add", "--definition", '{"rays": [[-1, 2]]}'], "non-negative"),
        (
            ["add", "--definition", '{"alter": {"P": [[1,1]], "N": [[1,1]]}}'],
            "forced both P and N",
        ),
        (
            ["add", "--definition", '{"alter": {"N_boxes": [[0,0,1000,1000]]}}'],
            "more than 250000",
        ),
        (["positions", "W000001", "--n", "-3"], "n: must be non-negative"),
        (["positions", "W000001", "--n", "100000000000"], "n: must be at most"),
        (["is-p", "W000001", "--", "5", "-1"], "y: must be non-negative"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(shared, args, message):
    before = count_entries(shared.url)
    code, _, err = shared(*args)
    assert code != 0
    assert message in err and err.count("\n") == 1
    assert count_entries(shared.url) == before


def test_kill_minus_nine_leaves_whole_chunks(seeded_url, runner, monkeypatch):
    """Killed in the middle of its fourth chunk's transaction (the chunk
    written, not committed): the three chunks before it stay whole and
    nothing of the fourth does. The process stops itself there, so the kill
    never comes after the fill's end, whatever the machine's load (waiting
    for three chunks and then killing it once found it ended)."""
    chunks = {"WYTHOFF_CHUNK_COLUMNS": "500"}
    compute = ["compute", "W000001", "--n", "200000", "--db", seeded_url]
    write = StopAt("catalog.store.repository:write_chunk", call=4, after=True)
    proc = Forked(compute, env=chunks, stop=write)  # a process of its own
    engine = make_engine(seeded_url)
    bound_of_1 = select(Extent.x_bound).where(Extent.entry_id == 1)
    try:
        proc.wait_stopped()
        assert proc.send_signal(signal.SIGKILL)  # stopped: it cannot have ended
        assert proc.outcome() is None
        with engine.connect() as conn:
            bound = conn.scalar(bound_of_1)
            edges = conn.execute(
                select(PositionChunk.x0, PositionChunk.x1)
                .where(PositionChunk.entry_id == 1)
                .order_by(PositionChunk.x0)
            ).all()
        assert [tuple(e) for e in edges] == [(0, 500), (500, 1000), (1000, 1500)]
        assert bound == 1500
    finally:
        if proc.alive():
            proc.send_signal(signal.SIGKILL)
            proc.outcome()
        engine.dispose()
    # The rest of the fill, in this process: the kill is the point above.
    monkeypatch.setenv("WYTHOFF_CHUNK_COLUMNS", "500")
    code, done, err = command(runner, seeded_url)("positions", "W000001", "--n", "3000")
    assert code == 0, err
    assert done["positions"] == p_positions(WYTHOFF, 3000).tolist()


def test_is_p_on_wythoff_far_out(shared):
    x, y = 10**30, 10**30 + 12345
    code, doc, _ = shared("is-p", "W000001", str(x), str(y))
    assert code == 0 and doc["outcome"] == "N"
    a, b = doc["move_to"]
    # Onto (a_k, b_k) with k = y - x: the same number taken from both piles.
    assert (x - a, y - b) == (x - a, x - a) and b - a == 12345


def test_export_oeis_has_name_terms_and_cross_references(computed, runner):
    wythoff, _ = computed  # seeded with --n 200
    text = runner.invoke(
        cli,
        ["export", "W000001", "--format", "oeis", "--n", "200", "--db", wythoff.url],
    ).stdout
    lines = text.splitlines()
    assert lines[0] == "%I W000001"
    assert lines[1].startswith("%S W000001 0,1,3,4,6,8,9,11,12,14,")
    assert "%N W000001 Wythoff's Nim: a(n) = the smaller coordinate" in text
    assert "%Y W000001 Cf. W000022, W000023, W000024." in lines
    assert "%O W000001 0,3" in lines and "%F W000001 a(n) = floor(n*phi)" in text
    shown = wythoff("show", "W000022")[1]
    assert shown["xrefs"] == ["W000001", "W000023", "W000024"]


def test_grundy_command(shared, runner):
    code, doc, _ = shared("grundy", "W000001", "--n", "4")
    assert code == 0 and doc == {
        "id": "W000001",
        "n": 4,
        "grundy": [[0, 1, 2, 3], [1, 2, 0, 4], [2, 0, 1, 5], [3, 4, 5, 6]],
    }
    code, _, err = shared("grundy", "W000002", "--n", "4")
    assert code != 0 and "W000002 has alterations" in err and err.count("\n") == 1
    # Without --json: a line per x.
    text = runner.invoke(cli, ["grundy", "W000001", "--n", "3", "--db", shared.url])
    assert text.exit_code == 0 and text.stdout.splitlines() == [
        "W000001: Grundy values for x, y < 3, line x lists y = 0..2",
        "0 1 2",
        "1 2 0",
        "2 0 1",
    ]


def test_compute_waits_for_another_process_claim_and_says_so(seeded, monkeypatch):
    """The claim is released once the fill has seen it live (an event, not a
    fixed sleep: released after half a second, a slow start could find it
    done already and never wait)."""
    from catalog.store import fill
    from catalog.store.fill import worker_name
    from catalog.store.job_model import Job
    from catalog.store.models import utcnow

    engine = make_engine(seeded.url)
    now = utcnow()
    with engine.begin() as conn:
        conn.execute(
            Job.__table__.insert().values(
                entry_id=4,
                kind="p-positions",
                target=100,
                state="running",
                claimed_by=worker_name(),  # alive: this process
                claimed_at=now,
                heartbeat_at=now,
                created_at=now,
            )
        )

    seen = threading.Event()
    busy = fill._busy

    def seen_busy(*args, **kwargs):
        found = busy(*args, **kwargs)  # the fill has seen the claim live
        seen.set()
        return found

    monkeypatch.setattr(fill, "_busy", seen_busy)

    def release():
        seen.wait(60)  # then released anyway: the assertions below say why
        with engine.begin() as conn:
            conn.execute(Job.__table__.update().values(state="done"))

    thread = threading.Thread(target=release)
    thread.start()
    try:
        code, out, err = seeded("compute", "W000004", "--n", "300")
    finally:
        thread.join()
        engine.dispose()
    assert (code, out) == (
        0,
        {
            "id": "W000004",
            "n": 300,
            "count": len(
                p_positions(read_seed(seed_dir() / "W000004.json")["definition"], 300)
            ),
        },
    )
    assert err == (
        f"W000004 is being computed up to n=100 by another process "
        f"({worker_name()}); waiting for it\n"
    )


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_export_writes_the_format_asked_for_and_says_how_much(computed, as_json):
    run, _ = computed
    result = CliRunner().invoke(
        cli, ["export", "W000004", "--n", "20", "--db", run.url, *as_json]
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["n"] == 20 and len(doc["positions"]) == 17
    assert result.stderr == "W000004: 17 P-positions from the window x, y < 20\n"
    bfile = CliRunner().invoke(
        cli, ["export", "W000004", "--n", "100", "--format", "bfile", "--db", run.url]
    )
    terms = [line for line in bfile.stdout.splitlines() if not line.startswith("#")]
    assert bfile.stderr == f"W000004: {len(terms)} terms from the window x, y < 100\n"


def test_list_says_when_more_entries_follow(shared):
    code, first, _ = shared("list", "--limit", "10")
    assert code == 0
    assert len(first["entries"]) == 10 and first["next"] == first["entries"][-1]["id"]
    seen = [e["id"] for e in first["entries"]]
    after = first["next"]
    while after:
        code, page, _ = shared("list", "--limit", "10", "--after", after)
        seen += [e["id"] for e in page["entries"]]
        after = page["next"]
    code, whole, _ = shared("list", "--limit", "1000")
    assert seen == [e["id"] for e in whole["entries"]] and whole["next"] is None
    text = CliRunner().invoke(cli, ["list", "--limit", "3", "--db", shared.url])
    assert text.stdout.splitlines()[-1] == f"more: --after {seen[2]}"


def test_show_writes_forced_cells_as_boxes(shared):
    """Box(8,13) forces 104 cells: show writes one box, as the pages do."""
    text = CliRunner().invoke(cli, ["show", "W000017", "--db", shared.url]).stdout
    line = next(x for x in text.splitlines() if x.startswith("definition"))
    assert "8×13 box from (0,0)" in line
    assert len(line) < 200
    code, doc, _ = shared("show", "W000017")
    assert len(doc["definition"]["alter"]["P"]) == 8 * 13  # the JSON is unchanged
