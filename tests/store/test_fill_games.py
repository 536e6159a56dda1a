"""Fills of generated games, interrupted and resumed, against p_positions and
the reference; and the memory limit of a box, on both databases."""

import random

import numpy as np
import pytest
from sqlalchemy import select

from catalog.compute import cost, reference
from catalog.compute.modes import MAX_BOX_N
from catalog.compute.ptable import p_positions, resume_sweep
from catalog.errors import TooMuchWork
from catalog.games.definition import canonicalize
from catalog.store import repository as repo
from catalog.store.fill import fill
from catalog.store.job_model import Job
from catalog.store.models import Extent
from tests.compute.test_fast_paths import kernel_game
from tests.compute.test_special_kernel import game_of_kind

#: Single moves only: a box game whose boxes are dense (P-positions grow
#: with the square of n).
DENSE_BOX = {"moves": [[1, 2], [2, 1]]}


def entry_for(maker, game):
    with maker.begin() as session:
        entry, _ = repo.add_entry(session, game, name="test")
        session.flush()
        return entry.id


def stopped_after(columns):
    """A progress callback that interrupts the fill after ``columns``."""
    done = [0]

    def progress(step):
        done[0] += step
        if done[0] >= columns:
            raise KeyboardInterrupt

    return progress


@pytest.mark.parametrize("seed", range(3))
def test_interrupted_fills_resume_to_the_same_columns(maker, seed):
    rng = random.Random(300 + seed)
    for k in range(6):
        game = kernel_game(rng) if k % 2 else game_of_kind(rng, "columns")
        number = entry_for(maker, game)
        n = rng.randint(60, 260)
        width = rng.randint(8, 48)
        with pytest.raises(KeyboardInterrupt):
            fill(maker, number, n, chunk_columns=width, progress=stopped_after(n // 2))
        with maker() as session:
            kept = repo.get_extent(session, number)
            assert kept is None or kept.x_bound < n
        fill(maker, number, n, chunk_columns=width)
        with maker() as session:
            stored = repo.read_positions(session, number, 0, n)
        # Whole columns, every y: as one uninterrupted sweep computes them.
        whole = resume_sweep(game, np.zeros((0, 2), dtype=np.int64), 0).advance(n)
        assert np.array_equal(stored, whole), game
        below = stored[stored[:, 1] < n]
        assert np.array_equal(below, p_positions(game, n)), game
        if n <= 120:
            assert np.array_equal(below, reference.p_positions(game, n)), game


def test_a_box_over_the_memory_limit_is_refused_before_anything(maker):
    game = canonicalize(DENSE_BOX)
    number = entry_for(maker, game)
    with pytest.raises(TooMuchWork, match=r"MB, over the 1024 MB a box may take"):
        fill(maker, number, MAX_BOX_N)
    with maker() as session:
        assert session.scalars(select(Job)).all() == []
        assert session.scalars(select(Extent)).all() == []
    with pytest.raises(TooMuchWork) as caught:
        p_positions(game, MAX_BOX_N)
    largest = int(str(caught.value).rsplit(" ", 1)[1])
    assert 1000 < largest < MAX_BOX_N
    assert cost.box_bytes(game, largest) <= cost.MAX_BOX_BYTES
    assert cost.box_bytes(game, largest + 1) > cost.MAX_BOX_BYTES
    cost.check_box_memory(game, largest)  # the largest n it names is accepted


def test_the_box_estimate_covers_what_a_box_holds():
    game = canonicalize(DENSE_BOX)
    n = 1500
    held = len(p_positions(game, n))
    assert held * cost.BOX_BYTES_PER_POSITION <= cost.box_bytes(game, n)
