"""The entry page's words: forced cells written back as boxes, the
definition in sentences."""

from hypothesis import given
from hypothesis import strategies as st

from catalog.api.words import describe
from catalog.games.boxes import as_input, boxes
from catalog.games.definition import canonicalize
from catalog.store.seed import read_seed, seed_dir

cells = st.sets(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=80)


@given(cells)
def test_boxes_cover_exactly_the_cells(found):
    rectangles, single = boxes([list(c) for c in found])
    covered = [
        (x, y)
        for x0, y0, w, h in rectangles
        for x in range(x0, x0 + w)
        for y in range(y0, y0 + h)
    ] + [tuple(c) for c in single]
    assert len(covered) == len(set(covered))  # no cell twice
    assert set(covered) == found


@given(cells, cells)
def test_as_input_is_the_same_game(p_cells, n_cells):
    definition = {
        "rays": [[1, 0], [0, 1], [1, 1]],
        "alter": {"P": sorted(p_cells), "N": sorted(n_cells - p_cells)},
    }
    assert canonicalize(as_input(definition)) == canonicalize(definition)


def test_a_forced_box_reads_as_a_box():
    seed = read_seed(seed_dir() / "W000015.json")["definition"]
    stored = canonicalize(seed).to_json()  # what the catalog keeps: every cell
    assert len(stored["alter"]["P"]) == 100 * 100
    assert as_input(stored)["alter"] == {
        "P": [],
        "P_boxes": [[0, 0, 100, 100]],
        "N": [],
    }
    assert describe(stored)[-1] == "Forced P-positions: the 100×100 box from (0, 0)."


def test_describe_wythoff_and_maharaja():
    wythoff = read_seed(seed_dir() / "W000001.json")["definition"]
    assert describe(wythoff) == [
        "A move may take any number of stones from pile 1; or take any number of "
        "stones from pile 2; or take the same number of stones from both piles."
    ]
    maharaja = read_seed(seed_dir() / "W000004.json")["definition"]
    assert "single moves (1, 2), (2, 1)" in describe(maharaja)[0]
