"""Entries, chunks and fills on both databases."""

import json

import numpy as np
import pytest
from sqlalchemy import func, select

from catalog import p_positions
from catalog.games.definition import canonicalize
from catalog.store import chunks
from catalog.store import repository as repo
from catalog.store.fill import fill
from catalog.store.job_model import Job
from catalog.store.models import Entry, Extent, PositionChunk
from catalog.store.seed import SeedError, load_seeds, seed_dir

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}


def entry_for(session, definition, name="test"):
    entry, _ = repo.add_entry(session, canonicalize(definition), name=name)
    session.flush()
    return entry.id


@pytest.mark.parametrize("n", [0, 1, 2, 100, 5000])
def test_chunk_round_trip(maker, n):
    found = p_positions(WYTHOFF, n)
    with maker.begin() as session:
        number = entry_for(session, WYTHOFF)
        repo.write_chunk(session, number, 0, n, None, found)
    with maker() as session:
        assert np.array_equal(repo.read_positions(session, number, 0, n), found)


def test_encoding_round_trips_many_columns_per_row():
    found = p_positions({"rays": [[1, 0], [0, 2], [1, 1]]}, 3000)
    encoding, data = chunks.encode_positions(found)
    assert np.array_equal(chunks.decode_positions(encoding, data, len(found)), found)
    assert len(data) < found.nbytes / 8


def test_fill_in_chunks_equals_p_positions(maker):
    game = {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}
    with maker.begin() as session:
        number = entry_for(session, game)
    fill(maker, number, 700, chunk_columns=64)
    fill(maker, number, 1000, chunk_columns=64)  # resumes at column 700
    with maker() as session:
        rows = repo.chunk_rows(session, number)
        assert [r.x0 for r in rows] == list(range(0, 1000, 64))
        assert all(r.x1 == min(r.x0 + 64, 1000) for r in rows)
        stored = repo.read_positions(session, number, 0, 1000, 1000)
        extent = repo.get_extent(session, number)
        assert (extent.x_bound, extent.y_bound) == (1000, None)
        assert extent.engine == "kernel-v1"
        assert extent.count == sum(r.count for r in rows)
        assert session.scalar(select(func.count()).select_from(Job)) == 2
    assert np.array_equal(stored, p_positions(game, 1000))


def test_partial_reads_load_only_covering_chunks(maker):
    with maker.begin() as session:
        number = entry_for(session, WYTHOFF)
    fill(maker, number, 512, chunk_columns=128)
    with maker.begin() as session:
        # Break the chunk of columns 0..127: reads that skip it still work.
        broken = session.get(PositionChunk, (number, 0))
        broken.checksum = "0" * 64
    with maker() as session:
        part = repo.read_positions(session, number, 200, 300)
        expected = p_positions(WYTHOFF, 600)
        expected = expected[(expected[:, 0] >= 200) & (expected[:, 0] < 300)]
        assert np.array_equal(part, expected)
        with pytest.raises(chunks.CorruptChunk, match="column 0"):
            repo.read_positions(session, number, 100, 130)


def test_box_mode_records_its_box_and_grows(maker):
    game = {"rays": [[1, 0], [1, 1]], "moves": [[0, 1]]}  # no vertical ray
    with maker.begin() as session:
        number = entry_for(session, game)
    fill(maker, number, 50, chunk_columns=16)
    with maker() as session:
        extent = repo.get_extent(session, number)
        assert (extent.x_bound, extent.y_bound) == (50, 50)
    fill(maker, number, 90, chunk_columns=16)  # taller: recomputed whole
    with maker() as session:
        extent = repo.get_extent(session, number)
        assert (extent.x_bound, extent.y_bound) == (90, 90)
        assert extent.engine == "transposed-kernel-v1"
        stored = repo.read_positions(session, number, 0, 90, 90)
        assert extent.count == len(stored)
        assert {r.y_bound for r in repo.chunk_rows(session, number)} == {90}
    assert np.array_equal(stored, p_positions(game, 90))


@pytest.mark.parametrize(
    ("stop", "said"),
    [
        (KeyboardInterrupt(), "KeyboardInterrupt"),
        # gunicorn's worker abort (a timeout) raises SystemExit(1) in the request
        (SystemExit(1), "SystemExit: 1"),
    ],
)
def test_interrupted_fill_leaves_whole_chunks_and_resumes(maker, stop, said):
    with maker.begin() as session:
        number = entry_for(session, WYTHOFF)
    done = []

    def progress(step):
        done.append(step)
        if len(done) == 150:
            raise stop

    with pytest.raises(type(stop)):
        fill(maker, number, 400, chunk_columns=64, progress=progress)
    with maker() as session:
        extent = repo.get_extent(session, number)
        assert extent.x_bound == 128  # two whole chunks, nothing of the third
        assert [r.x0 for r in repo.chunk_rows(session, number)] == [0, 64]
        job = session.scalars(select(Job)).one()
        assert (job.state, job.error) == (
            "failed",
            f"interrupted ({said}); columns below 128 are stored and kept",
        )
    fill(maker, number, 400, chunk_columns=64)
    with maker() as session:
        stored = repo.read_positions(session, number, 0, 400, 400)
    assert np.array_equal(stored, p_positions(WYTHOFF, 400))


def test_seeding_is_idempotent(db_session):
    first = load_seeds(db_session)
    assert len(first["added"]) >= 20 and not first["unchanged"]
    second = load_seeds(db_session)
    assert second == {"added": [], "updated": [], "unchanged": first["added"]}
    assert db_session.scalar(select(func.count()).select_from(Entry)) == len(
        first["added"]
    )


def test_edited_seed_is_updated_not_duplicated(db_session, tmp_path):
    for path in seed_dir().glob("W00000[1-3].json"):
        (tmp_path / path.name).write_text(path.read_text())
    load_seeds(db_session, tmp_path)
    edited = json.loads((tmp_path / "W000003.json").read_text())
    edited["name"] = "Nim on two piles"
    edited["definition"]["alter"] = {"P": [[5, 5]]}
    (tmp_path / "W000003.json").write_text(json.dumps(edited))
    report = load_seeds(db_session, tmp_path)
    assert report == {
        "added": [],
        "updated": ["W000003"],
        "unchanged": ["W000001", "W000002"],
    }
    entry = db_session.get(Entry, 3)
    assert entry.name == "Nim on two piles"
    assert entry.definition["alter"]["P"] == [[5, 5]]
    assert db_session.scalar(select(func.count()).select_from(Entry)) == 3


def _three_seeds(folder, definitions=None):
    """W000001-W000003 copied into ``folder``, with these definitions."""
    for path in seed_dir().glob("W00000[1-3].json"):
        data = json.loads(path.read_text())
        if definitions and path.stem in definitions:
            data["definition"] = definitions[path.stem]
        (folder / path.name).write_text(json.dumps(data))


def test_a_seed_may_take_the_game_an_earlier_seed_gave_up(db_session, tmp_path):
    """Seeds are read in order: W000002 moves to a new game, then W000003
    takes W000002's old one (held by W000002 until the line before)."""
    _three_seeds(tmp_path)
    load_seeds(db_session, tmp_path)
    old_two = db_session.get(Entry, 2).definition
    new_two = {"rays": [[1, 0], [0, 1]], "moves": [[2, 3]]}
    _three_seeds(tmp_path, {"W000002": new_two, "W000003": old_two})
    report = load_seeds(db_session, tmp_path)
    assert report == {
        "added": [],
        "updated": ["W000002", "W000003"],
        "unchanged": ["W000001"],
    }
    assert db_session.get(Entry, 3).key == canonicalize(old_two).key
    assert db_session.get(Entry, 2).key == canonicalize(new_two).key
    # The other way round, W000002 would take a game W000003 still holds.
    _three_seeds(tmp_path, {"W000002": old_two, "W000003": new_two})
    with pytest.raises(SeedError, match=r"^W000002: its new game is already"):
        load_seeds(db_session, tmp_path)


def test_a_new_seed_whose_game_is_a_user_s_entry_is_refused(db_session, tmp_path):
    _three_seeds(tmp_path)
    load_seeds(db_session, tmp_path)
    held = entry_for(db_session, {"rays": [[1, 0], [0, 1]], "moves": [[4, 1]]})
    data = json.loads((tmp_path / "W000003.json").read_text())
    data.update(id="W000007", definition={"rays": [[0, 1], [1, 0]], "moves": [[4, 1]]})
    (tmp_path / "W000007.json").write_text(json.dumps(data))
    with pytest.raises(
        SeedError, match=rf"^W000007: its game is already entry W{held:06d}$"
    ):
        load_seeds(db_session, tmp_path)


def test_equal_definitions_are_one_entry(seeded_session):
    shuffled = canonicalize({"rays": [[1, 1], [0, 1], [1, 0], [1, 1]], "moves": []})
    entry, created = repo.add_entry(seeded_session, shuffled)
    assert (entry.id, created) == (1, False)
    new, created = repo.add_entry(seeded_session, canonicalize({"rays": [[1, 2]]}))
    assert created and new.id == max(
        e.id for e in seeded_session.scalars(select(Entry))
    )
    again, created = repo.add_entry(seeded_session, canonicalize({"rays": [[1, 2]]}))
    assert (again.id, created) == (new.id, False)


def test_extent_is_removed_with_results(maker):
    with maker.begin() as session:
        number = entry_for(session, WYTHOFF)
    fill(maker, number, 100)
    with maker.begin() as session:
        repo.clear_results(session, session.get(Entry, number))
    with maker() as session:
        assert session.get(Extent, number) is None
        assert repo.chunk_rows(session, number) == []
