"""identify against the literal rule and an exhaustive search on tiny windows.

The reference (:mod:`catalog.compute.reference`) applies "P iff no option is
P" cell by cell; the exhaustive search tries every set of rules (and forced
cells) by increasing size. The solver's least size must be theirs, and every
game it proposes must give the data exactly, by the reference.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools

import numpy as np
import pytest

from catalog.compute import identify as module
from catalog.compute import maximal as model
from catalog.compute import reference
from catalog.compute.identify import (
    Game,
    Window,
    covered_by,
    differences,
    identify,
    maximal,
    reproduces,
    step_grid,
)
from catalog.errors import BadInput

WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}
MAHARAJA = {"rays": [[1, 0], [0, 1], [1, 1]], "moves": [[1, 2], [2, 1]]}
EMPTY = {"rays": [], "moves": [], "special": []}


def data(definition, n, symmetric=False):
    return Window.of(reference.p_positions(definition, n).tolist(), n, symmetric)


def gives(definition, window):
    """Does the game have exactly the window's cells as P-positions below n?"""
    found = reference.outcome_grid(definition, window.n)
    return bool((found == window.grid).all())


def rules(n):
    """Every rule of the window: each step as a move, and as a ray where it
    has two multiples inside."""
    steps = [(a, b) for a in range(n) for b in range(n) if (a, b) != (0, 0)]
    moves = [("moves", s) for s in steps]
    rays = [("rays", s) for s in steps if 2 * s[0] < n and 2 * s[1] < n]
    return rays + moves


def orbits(items, symmetric):
    """Rules (or cells) with their mirror images, each orbit once."""
    if not symmetric:
        return [[item] for item in items]
    seen, out = set(), []
    for kind, (a, b) in items:
        if (kind, (a, b)) in seen:
            continue
        orbit = {(kind, (a, b)), (kind, (b, a))}
        seen |= orbit
        out.append(sorted(orbit))
    return out


def as_definition(chosen):
    definition = {"rays": [], "moves": [], "alter": {"P": [], "N": []}}
    for kind, cell in chosen:
        target = definition["alter"][kind] if kind in "PN" else definition[kind]
        target.append(list(cell))
    return definition


def least(window, with_cells, most):
    """The least size of a game (with forced cells if ``with_cells``) that
    gives the window, by trying every set of orbits, smallest first."""
    items = orbits(rules(window.n), window.symmetric)
    if with_cells:
        cells = [
            ("P" if window.grid[x, y] else "N", (x, y))
            for x in range(window.n)
            for y in range(window.n)
        ]
        items += orbits(cells, window.symmetric)
    for size in range(most + 1):
        for combo in itertools.combinations(items, size):
            chosen = [item for orbit in combo for item in orbit]
            if gives(as_definition(chosen), window):
                return size
    return None


def random_games(seed, count, n):
    rng = np.random.default_rng(seed)
    steps = [(a, b) for a in range(n) for b in range(n) if (a, b) != (0, 0)]
    for _ in range(count):
        picks = rng.choice(len(steps), size=rng.integers(1, 4), replace=False)
        rays = [list(steps[i]) for i in picks[: rng.integers(0, len(picks) + 1)]]
        moves = [list(steps[i]) for i in picks if list(steps[i]) not in rays]
        yield {"rays": rays, "moves": moves}


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_least_size_of_random_games_is_the_exhaustive_one(seed, n):
    for definition in random_games(seed, 6, n):
        window = data(definition, n)
        answer = identify(window, limit=3)
        assert answer.invariant and answer.exact
        best = least(window, False, answer.games[0].size)
        assert answer.games[0].size == best, definition
        for game in answer.games:
            assert game.size == best
            assert gives(game.definition, window), (definition, game.definition)
        keys = [repr(g.definition) for g in answer.games]
        assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("implied", [32, 0])
@pytest.mark.parametrize("seed", range(6))
def test_least_altered_game_of_random_data_is_the_exhaustive_one(
    seed, implied, monkeypatch
):
    """Also with every rule's forced cells posted as one linear row (what
    rules joining more than 32 cells get), not as implications."""
    from catalog.compute import smallest

    monkeypatch.setattr(smallest, "_IMPLIED", implied)
    rng = np.random.default_rng(100 + seed)
    n = 3
    grid = rng.random((n, n)) < 0.4
    grid[0, 0] = grid[0, 0] or not grid.any()
    window = Window(n, grid)
    answer = identify(window, limit=3)
    assert answer.exact
    if answer.invariant:
        best = least(window, False, answer.games[0].size)
        assert answer.games[0].size == best
        smaller = [g.size for g in answer.altered]
        assert all(size < best for size in smaller)
    else:
        assert not answer.games
        best = least(window, True, answer.altered[0].size)
        assert answer.altered[0].size == best
    for game in answer.games + answer.altered:
        assert gives(game.definition, window), game.definition


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(3))
def test_maximal_game_is_every_step_joining_no_two_cells(seed, n):
    rng = np.random.default_rng(seed * 10 + n)
    grid = rng.random((n, n)) < 0.35
    grid[0, 0] = True
    window = Window(n, grid)
    cells = [tuple(c) for c in np.argwhere(grid).tolist()]
    joined = {
        (t[0] - s[0], t[1] - s[1])
        for s in cells
        for t in cells
        if t != s and t[0] >= s[0] and t[1] >= s[1]
    }
    found = maximal(window)
    assert {tuple(c) for c in np.argwhere(differences(grid)).tolist()} == joined
    for a in range(n):
        for b in range(n):
            assert found.allowed[a, b] == ((a, b) != (0, 0) and (a, b) not in joined)
    # Invariant iff the maximal game, written out as moves, gives the data.
    moves = [list(map(int, m)) for m in np.argwhere(found.allowed)]
    assert found.absorbing == gives({"moves": moves}, window)
    for a, b in found.rays:
        multiples = [(k * a, k * b) for k in range(1, n) if k * a < n and k * b < n]
        assert len(multiples) >= 2
        assert all(found.allowed[m] for m in multiples)


@pytest.mark.parametrize("n", [10, 30, 60])
def test_wythoffs_p_positions_give_wythoffs_rules(n):
    """Below 10 (3 Beatty pairs) the smallest rule set; from 8 pairs on (n =
    30, 60) ⋆ of the Beatty game of φ comes first, one rule, and Wythoff's
    rays right after it (1-Wythoff: tests/compute/test_identify_beatty.py)."""
    answer = identify(data(WYTHOFF, n))
    assert answer.invariant and answer.exact
    star = n > 10
    rules = answer.games[1 if star else 0]
    assert rules.definition == {
        "rays": [[0, 1], [1, 0], [1, 1]],
        "moves": [],
        "special": [],
    }
    assert rules.size == 2  # (1,0) and (0,1) are one mirror pair
    if star:
        first = answer.games[0]
        assert (first.definition, first.size) == (
            {**EMPTY, "star": {"beatty": "(1+sqrt(5))/2"}},
            1,
        )
    assert not answer.altered


@pytest.mark.parametrize("n", [8, 30])
def test_misere_wythoff_is_wythoff_with_the_corner_forced_n(n):
    answer = identify(data({**WYTHOFF, "alter": {"N": [[0, 0]]}}, n))
    assert not answer.invariant and not answer.games
    assert answer.maximal.unreached == [(0, 0)]
    first = answer.altered[0]
    assert first.definition["rays"] == [[0, 1], [1, 0], [1, 1]]
    assert first.definition["alter"] == {"P": [], "N": [[0, 0]]}
    assert (first.size, first.forced) == (3, 1)


def test_maharaja_nim_comes_out_among_the_smallest():
    answer = identify(data(MAHARAJA, 30))
    assert answer.games[0].size == 3
    assert {
        "rays": [[0, 1], [1, 0], [1, 1]],
        "moves": [[1, 2], [2, 1]],
        "special": [],
    } in [g.definition for g in answer.games]


def test_nimhoff_rays_of_the_paper():
    """Linear Nimhoff {(1,0),(0,2),(1,1)}: not symmetric, three rules."""
    answer = identify(data({"rays": [[1, 0], [0, 2], [1, 1]]}, 40))
    assert answer.games[0].size == 3
    assert answer.games[0].definition["rays"] == [[0, 2], [1, 0], [1, 1]]


def test_a_ray_may_skip_its_primitive_step():
    """(2, 2) can be a ray of the maximal game where (1, 1) is not."""
    window = data({"rays": [[1, 0], [0, 1]]}, 12)  # Nim: the diagonal is P
    rays = maximal(window).rays
    assert (1, 1) not in rays and (2, 2) not in rays
    window = data({"rays": [[1, 0], [0, 1], [2, 2]]}, 12)
    found = maximal(window)
    assert not found.allowed[1, 1] and (2, 2) in found.rays


def test_the_whole_window_needs_no_rule():
    window = Window(5, np.ones((5, 5), dtype=bool))
    answer = identify(window)
    assert answer.invariant and answer.games[0].size == 0
    assert answer.games[0].definition == {"rays": [], "moves": [], "special": []}


def test_symmetric_adds_mirror_images_and_counts_pairs_once():
    window = Window.of([(0, 0), (1, 2), (3, 5)], 6, symmetric=True)
    assert window.grid[2, 1] and window.grid[5, 3] and window.symmetric
    assert identify(window).games[0].size == 2


def test_a_search_out_of_time_says_so():
    box = {**WYTHOFF, "alter": {"P_boxes": [[0, 0, 8, 13]]}}
    answer = identify(data(box, 60), seconds=0.05)
    assert not answer.exact


@pytest.mark.parametrize(
    ("cells", "n", "message"),
    [
        ([], 4, "positions: give at least one"),
        ([(0, -1)], 4, "positions[0]: (0, -1) has a negative coordinate"),
        ([(0, 4)], 4, "positions[0]: (0, 4) lies outside x, y < n = 4"),
        ([(0, 1.5)], 4, "positions[0]: must be a pair of integers"),
        ([(0, True)], 4, "positions[0]: must be a pair of integers"),
        ([(0, 1, 2)], 4, "positions[0]: must be a pair of integers"),
        ([(0, 0)], 0, "n: must be a positive integer"),
        ([(0, 0)], 257, "n: at most 256"),
        ([(0, 0)], True, "n: must be a positive integer"),
        ([(0, 0)], 4.0, "n: must be a positive integer"),
        ([(-1, 0)], 4, "positions[0]: (-1, 0) has a negative coordinate"),
        ([(4, 0)], 4, "positions[0]: (4, 0) lies outside x, y < n = 4"),
    ],
)
def test_bad_data_names_the_field(cells, n, message):
    with pytest.raises(BadInput) as caught:
        Window.of(cells, n)
    assert str(caught.value).startswith(message)


# -- the window's operations against their definitions, large windows too ---
#
# Above _SHIFTS cells of S the differences and the cover are counted by FFT
# (padded to 2n so that nothing wraps around); below, by shifted ORs. Both
# are compared with the definitions, pair by pair, on windows dense enough
# to take either path, with cells on every edge.


def differences_by_pairs(grid, exempt=None):
    """d[a, b]: (a, b) = t - s for cells s != t of S, t >= s, t not exempt."""
    cells = np.argwhere(grid)
    targets = cells if exempt is None else cells[~exempt[cells[:, 0], cells[:, 1]]]
    d = targets[None, :, :] - cells[:, None, :]
    d = d[(d >= 0).all(axis=2) & (d != 0).any(axis=2)]
    out = np.zeros_like(grid)
    out[d[:, 0], d[:, 1]] = True
    return out


def cover_by_pairs(grid, steps):
    """c[x, y]: (x, y) = s + (a, b) for a cell s of S and a step (a, b)."""
    n = grid.shape[0]
    at = np.argwhere(grid)[:, None, :] + np.argwhere(steps)[None, :, :]
    at = at[(at < n).all(axis=2)]
    out = np.zeros_like(grid)
    out[at[:, 0], at[:, 1]] = True
    return out


@pytest.mark.parametrize("path", ["fft", "shifts", "either"])
@pytest.mark.parametrize("density", [0.05, 0.3])
@pytest.mark.parametrize("seed", range(3))
def test_differences_and_cover_are_their_definitions(seed, density, path, monkeypatch):
    if path != "either":
        monkeypatch.setattr(model, "_SHIFTS", 0 if path == "fft" else 10**9)
    rng = np.random.default_rng(seed)
    n = 37 + seed  # odd and even sizes: 691 cells at 0.3 (FFT), about 70 at 0.05
    grid = rng.random((n, n)) < density
    grid[0, 0] = grid[n - 1, 0] = grid[0, n - 1] = grid[n - 1, n - 1] = True
    exempt = grid & (rng.random((n, n)) < 0.5)
    steps = rng.random((n, n)) < density
    steps[n - 1, n - 1] = True
    assert (differences(grid) == differences_by_pairs(grid)).all()
    assert (differences(grid, exempt) == differences_by_pairs(grid, exempt)).all()
    game = Game(rays=(), moves=tuple(map(tuple, np.argwhere(steps).tolist())))
    assert (covered_by(grid, game) == cover_by_pairs(grid, steps)).all()


def test_step_grid_holds_every_move_and_multiple_of_a_ray():
    n = 13
    rays = [(1, 2), (3, 0), (5, 5)]
    moves = [(2, 7), (12, 12), (13, 1), (1, 13), (0, 20)]
    expected = {(2, 7), (12, 12)}
    for a, b in rays:
        expected |= {(k * a, k * b) for k in range(1, n) if k * a < n and k * b < n}
    found = {tuple(c) for c in np.argwhere(step_grid(rays, moves, n)).tolist()}
    assert found == expected


def reproduction_cases():
    """Games (one with more than _SHIFTS P-positions: the FFT path) and
    altered games, with their P-positions in a window."""
    yield {"rays": [[1, 1]]}, 150  # P iff min(x, y) = 0: 299 cells
    yield {"rays": [[1, 0], [0, 1], [1, 1]]}, 40
    yield {"rays": [[1, 0], [0, 2], [1, 1]], "moves": [[3, 1]]}, 30
    yield {"rays": [[2, 1], [1, 2]], "moves": [[1, 0], [0, 1]]}, 30
    yield (
        {"rays": [[1, 0], [0, 1], [1, 1]], "alter": {"N": [[0, 0]], "P": [[2, 2]]}},
        25,
    )
    yield {"rays": [[1, 1]], "alter": {"P": [[5, 3], [9, 9]], "N": [[0, 4]]}}, 140


def game_of(definition):
    alter = definition.get("alter", {})
    return Game(
        rays=tuple(map(tuple, definition.get("rays", []))),
        moves=tuple(map(tuple, definition.get("moves", []))),
        forced_p=tuple(map(tuple, alter.get("P", []))),
        forced_n=tuple(map(tuple, alter.get("N", []))),
    )


@pytest.mark.parametrize(("definition", "n"), list(reproduction_cases()))
def test_reproduces_is_the_games_p_positions(definition, n):
    """A game reproduces its own P-positions, and no window one cell away
    (a cell added or taken out, near the corner or far out)."""
    window = data(definition, n)
    game = game_of(definition)
    assert reproduces(window, game)
    rng = np.random.default_rng(n)
    cells = [(0, 1), (1, 0), (n - 1, n - 1), (n - 1, 0), (0, n - 1)]
    cells += [tuple(c) for c in rng.integers(0, n, (6, 2)).tolist()]
    for x, y in cells:
        grid = window.grid.copy()
        grid[x, y] = not grid[x, y]
        if (x, y) in game.forced_p + game.forced_n:
            continue  # the forced cells themselves say nothing
        assert not gives(definition, Window(n, grid))
        assert not reproduces(Window(n, grid), game), (x, y)
    # A cell forced P must be in S, a cell forced N out of it.
    outside = tuple(map(int, np.argwhere(~window.grid)[0]))
    inside = tuple(map(int, np.argwhere(window.grid)[-1]))
    for forced in ({"forced_p": (outside,)}, {"forced_n": (inside,)}):
        assert not reproduces(window, dataclasses.replace(game, **forced))


@pytest.mark.parametrize("seed", range(4))
def test_the_maximal_games_rays_and_moves_are_their_definitions(seed):
    """Rays: the steps whose every multiple in the window is in M*, with two
    multiples at least, that are no multiple of another such step; moves:
    the other steps of M*."""
    n = 14 + 2 * seed
    rng = np.random.default_rng(seed)
    grid = rng.random((n, n)) < 0.06
    grid[0, 0] = True
    if seed % 2:
        grid = np.asarray(data({"rays": [[1, 0], [0, 1], [1, 1]]}, n).grid)
    found = maximal(Window(n, grid))
    allowed = found.allowed

    def multiples(a, b):
        return [(k * a, k * b) for k in range(1, n) if k * a < n and k * b < n]

    steps = [(a, b) for a in range(n) for b in range(n) if (a, b) != (0, 0)]
    ray_ok = {
        s
        for s in steps
        if len(multiples(*s)) >= 2 and all(allowed[m] for m in multiples(*s))
    }
    rays = {
        (a, b)
        for a, b in ray_ok
        if not any(
            (a // d, b // d) in ray_ok
            for d in range(2, max(a, b) + 1)
            if a % d == 0 and b % d == 0
        )
    }
    assert {tuple(r) for r in np.argwhere(found.ray_ok).tolist()} == ray_ok
    assert set(found.rays) == rays and rays
    on_rays = {m for r in rays for m in multiples(*r)}
    assert found.moves == sum(1 for s in steps if allowed[s] and s not in on_rays)
    reached = cover_by_pairs(grid, allowed)
    unreached = [tuple(c) for c in np.argwhere(~grid & ~reached).tolist()]
    assert found.absorbing == (not unreached)
    assert found.unreached == unreached[:20]


# -- how identify shares its time between the two searches -------------------


class Found:
    def __init__(self, sizes, exact=True, bound=None):
        self.games = [Game(rays=(), moves=(), size=s) for s in sizes]
        self.exact, self.bound = exact, bound


def recorded_searches(monkeypatch, results):
    """Run identify's searches as fakes that return ``results`` in turn
    (rule sets first), at a clock stopped at 1000 s; return the calls."""
    from catalog.compute import smallest

    calls, answers = [], iter(results)

    class FakeSearch:
        def __init__(self, window, maximal, altered, deadline):
            self.altered, self.deadline = altered, deadline

        def smallest(self, limit, deadline, below=None):
            assert deadline == self.deadline
            calls.append((self.altered, deadline, limit, below))
            return next(answers)

    monkeypatch.setattr(smallest, "Search", FakeSearch)
    monkeypatch.setattr(module.time, "monotonic", lambda: 1000.0)
    # No literature game (an m-modular one agrees with Wythoff's below 10):
    # the searches alone are timed here (tests/compute/test_recognise.py).
    monkeypatch.setattr(module, "_literature", lambda window: [])
    return calls


@pytest.mark.parametrize(
    ("seconds", "first", "last"),
    [
        (100.0, 1000 + 0.75 * 99, 1099.0),  # a second kept for the answer
        (0.5, 1000 + 0.75 * 0.45, 1000.45),  # a tenth kept, below 10 s
        (None, 1000 + 0.75 * (24 * 3600 - 1), 1000 + 24 * 3600 - 1.0),
    ],
)
def test_the_rule_sets_get_three_quarters_of_the_time(
    monkeypatch, seconds, first, last
):
    calls = recorded_searches(monkeypatch, [Found([3, 3]), Found([4])])
    answer = identify(data(WYTHOFF, 10), limit=7, seconds=seconds)
    assert calls == [
        (False, pytest.approx(first), 7, None),
        (True, pytest.approx(last), 7, 3),
    ]
    assert [g.size for g in answer.games] == [3, 3]
    assert [g.size for g in answer.altered] == [4]
    assert answer.exact and answer.seconds == 0.0


def test_an_altered_game_one_smaller_than_the_least_rule_set_is_listed():
    """Rule sets of size 3 give these data, and an altered game of size 2
    (a ray with a cell forced P): the altered search, bounded below the
    least rule set, must still reach one less."""
    definition = {
        "moves": [[0, 1], [1, 3], [0, 2], [1, 2]],
        "alter": {"N": [[0, 2]]},
    }
    window = data(definition, 4)
    assert (least(window, False, 3), least(window, True, 3)) == (3, 2)
    answer = identify(window)
    assert answer.exact and {g.size for g in answer.games} == {3}
    assert answer.altered and {g.size for g in answer.altered} == {2}
    for game in answer.games + answer.altered:
        assert gives(game.definition, window), game.definition


def test_no_altered_game_is_smaller_than_no_rule(monkeypatch):
    calls = recorded_searches(monkeypatch, [Found([0])])
    answer = identify(data(WYTHOFF, 10), seconds=10)
    assert len(calls) == 1 and answer.altered == []


def test_a_smallest_rule_set_of_one_still_asks_for_altered_games(monkeypatch):
    calls = recorded_searches(monkeypatch, [Found([1]), Found([])])
    identify(data(WYTHOFF, 10), seconds=10)
    assert [(altered, below) for altered, _, _, below in calls] == [
        (False, None),
        (True, 1),
    ]


def test_data_no_game_gives_goes_to_the_altered_search_with_all_the_time(monkeypatch):
    calls = recorded_searches(monkeypatch, [Found([2], exact=False, bound=1)])
    answer = identify(data({**WYTHOFF, "alter": {"N": [[0, 0]]}}, 10), seconds=10)
    assert calls == [(True, 1009.0, 5, None)]
    assert not answer.exact and answer.bound == 1


def test_a_rule_search_out_of_time_answers_at_once(monkeypatch):
    calls = recorded_searches(monkeypatch, [Found([], exact=False, bound=2)])
    answer = identify(data(WYTHOFF, 10), seconds=10)
    assert len(calls) == 1
    # Only the note that Wythoff's data below 10 are 3 Beatty pairs.
    others = [note for note in answer.notes if "Beatty pairs" not in note]
    assert (answer.exact, answer.bound, answer.games, others) == (False, 2, [], [])
    assert answer.seconds == 0.0  # by the stopped clock


def test_no_rule_set_within_the_limits_says_so_and_tries_altered_games(monkeypatch):
    calls = recorded_searches(monkeypatch, [Found([]), Found([5])])
    answer = identify(data(WYTHOFF, 10), seconds=10)
    assert [(altered, below) for altered, _, _, below in calls] == [
        (False, None),
        (True, None),
    ]
    assert "none with at most" in answer.notes[-1] and answer.altered[0].size == 5


@pytest.mark.parametrize("limit", [0, module.MAX_IDENTIFY_LIMIT + 1])
def test_the_limit_is_checked(limit):
    with pytest.raises(BadInput, match=f"limit: from 1 to {module.MAX_IDENTIFY_LIMIT}"):
        identify(data(WYTHOFF, 6), limit=limit)


def test_the_documented_limits_are_taken(monkeypatch):
    assert module.MAX_IDENTIFY_LIMIT == 50 and module.MAX_IDENTIFY_N == 256
    calls = recorded_searches(
        monkeypatch, [Found([3]), Found([]), Found([3]), Found([])]
    )
    identify(data(WYTHOFF, 6), limit=50)
    identify(data(WYTHOFF, 6), limit=1)
    assert [call[2] for call in calls] == [50, 50, 1, 1]
    assert Window.of([(0, 0)], 1).grid.tolist() == [[True]]
    assert not Window.of([(1, 2)], 3).grid[2, 1]  # no mirror images unless asked
    assert Window.of([(255, 0)], 256).n == 256


def test_windows_games_and_answers_are_immutable():
    window = data(WYTHOFF, 6)
    game = Game(rays=((1, 1),), moves=())
    with pytest.raises(AttributeError):
        window.n = 7
    with pytest.raises(AttributeError):
        game.size = 3
    with pytest.raises(AttributeError):
        maximal(window).moves = 1
    assert game.size == 0 and game.forced == 0


# -- simplify: rays replaced by their single steps, the longest first ---------


def simplified_by_hand(window, definition):
    """The documented rule, written out: each ray (longest step first, then
    by the step) replaced by its single move (with its mirror image when
    the data are symmetric) wherever the game still gives the data, by the
    literal reference."""
    rays = sorted(map(tuple, definition["rays"]), key=lambda r: (-(r[0] + r[1]), r))
    current = {"rays": set(rays), "moves": set(map(tuple, definition["moves"]))}
    for ray in rays:
        if ray not in current["rays"]:
            continue
        pair = {ray, ray[::-1]} if window.symmetric else {ray}
        pair &= current["rays"]
        trial = {"rays": current["rays"] - pair, "moves": current["moves"] | pair}
        listed = {k: sorted(map(list, v)) for k, v in trial.items()}
        if gives(listed, window):
            current = trial
    return sorted(current["rays"]), sorted(current["moves"])


@pytest.mark.parametrize("symmetric", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_simplify_is_the_documented_rule(seed, symmetric):
    """On random rule sets of rays and moves: simplify's game is the one the
    rule gives (same rays, same moves, same size), and it gives the data."""
    from catalog.compute.smallest import simplify

    rng = np.random.default_rng(seed)
    n = 9
    steps = [(a, b) for a in range(4) for b in range(4) if (a, b) != (0, 0)]
    tried = 0
    for _ in range(12):
        picks = rng.choice(len(steps), size=rng.integers(2, 5), replace=False)
        rays = {steps[i] for i in picks[:-1]}
        moves = {steps[picks[-1]]} - rays
        if symmetric:
            rays |= {r[::-1] for r in rays}
            moves = {m for m in moves | {m[::-1] for m in moves} if m not in rays}
        definition = {
            "rays": sorted(map(list, rays)),
            "moves": sorted(map(list, moves)),
        }
        window = data(definition, n)
        if window.symmetric != symmetric:
            continue
        game = Game(rays=tuple(sorted(rays)), moves=tuple(sorted(moves)), size=7)
        found = simplify(window, game)
        assert (list(found.rays), list(found.moves)) == simplified_by_hand(
            window, definition
        ), definition
        assert found.size == 7 and reproduces(window, found)
        tried += found.rays != game.rays
    assert tried  # some rays were replaced


def test_a_search_past_its_deadline_adds_no_cover_rows():
    import time

    from catalog.compute.smallest import Search

    window = data({**WYTHOFF, "alter": {"P_boxes": [[0, 0, 8, 13]]}}, 40)
    late = Search(window, maximal(window), True, deadline=time.monotonic() - 1)
    assert not late.rows
    found = late.smallest(5, time.monotonic() - 1)
    assert (found.games, found.exact) == ([], False)
    assert Search(window, maximal(window), True).rows  # no deadline: rows at once


@pytest.mark.parametrize(
    ("rays", "expected"),
    [
        ([(1, 2), (2, 2), (3, 2)], ([(1, 2)], [(2, 2), (3, 2)])),
        ([(2, 1), (2, 2), (2, 3)], ([(2, 1)], [(2, 2), (2, 3)])),
    ],
)
def test_simplify_replaces_the_longest_ray_first(rays, expected):
    """Games where the order matters: (2, 2) and (3, 2), or (2, 2) and
    (2, 3), can each become a move, and then (1, 2) or (2, 1) cannot."""
    from catalog.compute.smallest import simplify

    definition = {"rays": [list(r) for r in rays], "moves": []}
    window = data(definition, 6)
    found = simplify(window, Game(rays=tuple(rays), moves=()))
    assert (list(found.rays), list(found.moves)) == expected
    assert simplified_by_hand(window, definition) == expected


@pytest.mark.parametrize(
    ("rays", "expected"),
    [
        # (2, 3) alone could become a move, but not with (3, 2): both stay.
        ([(0, 3), (1, 2), (2, 1), (2, 3), (3, 0), (3, 2)], None),
        # (1, 3) and (3, 1) become moves together; (1, 2) could alone.
        (
            [(0, 1), (1, 0), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)],
            ([(0, 1), (1, 0), (1, 2), (2, 1), (2, 2)], [(1, 3), (3, 1)]),
        ),
    ],
)
def test_simplify_replaces_a_mirror_pair_together_on_symmetric_data(rays, expected):
    """On symmetric data a ray and its mirror image are one rule: simplify
    makes both moves or neither, and the game stays symmetric."""
    from catalog.compute.smallest import simplify

    window = data({"rays": [list(r) for r in rays]}, 8)
    assert window.symmetric
    found = simplify(window, Game(rays=tuple(rays), moves=()))
    expected = expected or (rays, [])
    assert (list(found.rays), list(found.moves)) == expected
    for steps in (found.rays, found.moves):
        assert {s[::-1] for s in steps} == set(steps)
    assert reproduces(window, found)


@pytest.mark.parametrize(("n", "size"), [(9, 23), (10, None)])
def test_a_rule_set_holds_at_most_max_rules_rays_and_moves(n, size):
    """S = {(0, 0)}: every other cell needs its own direction, a ray where
    two multiples fit, else a move. At n = 9 that is 13 rays and 32 moves
    (the most a definition holds; 23 mirror pairs and diagonal steps, the
    data being symmetric); at n = 10, 44 moves: no rule set."""
    import time

    from catalog.compute.smallest import Search
    from catalog.games.definition import MAX_RULES

    window = Window.of([(0, 0)], n)
    found = Search(window, maximal(window), False).smallest(1, time.monotonic() + 60)
    assert found.exact
    if size is None:
        assert found.games == []
        # The altered game needs no more than 32 of each (cells are no rules):
        # 13 rays, 32 moves and 12 cells forced N.
        (game,) = identify(window, limit=1).altered
        assert (len(game.rays), len(game.moves), len(game.forced_n)) == (13, 32, 12)
        assert game.size == 29 and gives(game.definition, window)
        return
    (game,) = found.games
    assert game.size == size and len(game.moves) == MAX_RULES == 32
    assert len(game.rays) == 13 and reproduces(window, game)


def least_games(window, most):
    """Every distinct game of least size (at most ``most``) among the rule
    sets the search chooses from: a ray for each step of M* whose every
    multiple is in M*, a move for the other steps of M* (mirror pairs one
    rule when the data are symmetric), each simplified as identify does."""
    from catalog.compute.smallest import simplify

    found = maximal(window)
    n = window.n
    items = []
    for a in range(n):
        for b in range(n):
            if not found.allowed[a, b] or (window.symmetric and (b, a) < (a, b)):
                continue
            kind = "rays" if found.ray_ok[a, b] else "moves"
            items.append((kind, {(a, b), (b, a)} if window.symmetric else {(a, b)}))
    for size in range(most + 1):
        games = set()
        for combo in itertools.combinations(items, size):
            rules = {"rays": set(), "moves": set()}
            for kind, steps in combo:
                rules[kind] |= steps
            definition = {k: sorted(map(list, v)) for k, v in rules.items()}
            if gives(definition, window):
                game = Game(
                    rays=tuple(sorted(rules["rays"])),
                    moves=tuple(sorted(rules["moves"])),
                    size=size,
                )
                games.add(repr(simplify(window, game).definition))
        if games:
            return games
    return set()


def test_every_game_of_least_size_is_listed_up_to_the_limit():
    """Several rule sets of the least size: identify lists them all (or as
    many as the limit asks), each once."""
    checked = 0
    for definition in random_games(100, 48, 4):
        window = data(definition, 4)
        answer = identify(window, limit=4)
        expected = least_games(window, answer.games[0].size)
        listed = {repr(g.definition) for g in answer.games}
        assert len(listed) == len(answer.games)
        assert listed <= expected, definition
        assert len(listed) == min(4, len(expected)), definition
        checked += len(expected) > 1
    assert checked  # some data have more than one least game


def rule_weight(rays, moves, symmetric):
    """The search's preference among games of one size (smallest._weight):
    4 (a + b) a rule, plus 1 for a ray; a mirror pair counts once."""
    total = 0
    for ray, steps in ((1, rays), (0, moves)):
        orbits = {min(s, s[::-1]) if symmetric else s for s in map(tuple, steps)}
        total += sum(4 * (a + b) + ray for a, b in orbits)
    return total


@pytest.mark.parametrize("symmetric", [False, True])
def test_games_of_least_size_are_listed_shortest_steps_first(monkeypatch, symmetric):
    """Among the games of least size, the search lists the lightest first
    (short steps, then moves before rays): the least weight of the
    exhaustive list, and never a lighter game after a heavier one. (The
    games compared as the search chose them, before simplify.)"""
    import ast

    from catalog.compute import smallest

    monkeypatch.setattr(smallest, "simplify", lambda _window, game: game)
    checked = 0
    for definition in random_games(300 + symmetric, 40, 4):
        if symmetric:
            definition = {
                k: v + [s[::-1] for s in v if s[::-1] not in v]
                for k, v in definition.items()
            }
        window = data(definition, 4, symmetric)
        games = identify(window, limit=4).games
        mirrored = window.symmetric  # symmetric data are, whatever was asked
        weights = [rule_weight(g.rays, g.moves, mirrored) for g in games]
        expected = [ast.literal_eval(d) for d in least_games(window, games[0].size)]
        lightest = min(rule_weight(d["rays"], d["moves"], mirrored) for d in expected)
        assert weights[0] == lightest, definition
        # The last may be the first solution found, kept when fewer were.
        assert weights[:-1] == sorted(weights[:-1]), definition
        checked += len(set(weights)) > 1
    assert checked


@pytest.mark.parametrize("limit", [1, 2])
def test_no_more_games_than_the_limit_and_the_lightest_first(monkeypatch, limit):
    """Data with more games of least size than the limit: exactly ``limit``
    are listed, and the first is the lightest of them all (the search's
    first solution, kept when fewer are found, is not added past it)."""
    from catalog.compute import smallest

    monkeypatch.setattr(smallest, "simplify", lambda _window, game: game)
    checked = 0
    for definition in random_games(500 + limit, 40, 4):
        window = data(definition, 4)
        games = identify(window, limit=limit).games
        expected = [ast.literal_eval(d) for d in least_games(window, games[0].size)]
        if len(expected) <= limit:
            continue
        checked += 1
        assert len(games) == limit, definition
        mirrored = window.symmetric
        lightest = min(rule_weight(d["rays"], d["moves"], mirrored) for d in expected)
        assert rule_weight(games[0].rays, games[0].moves, mirrored) == lightest
    assert checked


#: Data (n = 5) whose games of least size differ in weight in every way the
#: search's preference can: found by a search over random games.
WEIGHED = [
    ({"rays": [[2, 1]], "moves": [[1, 2], [2, 3]]}, False),
    ({"rays": [[1, 3], [4, 3], [3, 0]], "moves": []}, False),
    ({"rays": [[0, 3], [3, 1], [3, 4]], "moves": []}, False),
    ({"rays": [[1, 1], [2, 0], [2, 1]], "moves": []}, False),
    ({"rays": [[1, 2], [2, 1], [2, 3], [3, 2], [3, 4], [4, 3]], "moves": []}, True),
    ({"rays": [[1, 2], [2, 1]], "moves": [[3, 3]]}, True),
]


@pytest.mark.parametrize(("definition", "symmetric"), WEIGHED)
def test_many_games_of_least_size_come_lightest_first(
    monkeypatch, definition, symmetric
):
    """Up to twelve games of least size: the first is the lightest of them
    all and none is lighter than one before it (but the last, which may be
    the first solution found, kept when fewer were)."""
    from catalog.compute import smallest

    monkeypatch.setattr(smallest, "simplify", lambda _window, game: game)
    window = data(definition, 5, symmetric)
    games = identify(window, limit=12).games
    weights = [rule_weight(g.rays, g.moves, window.symmetric) for g in games]
    assert len(set(weights)) > 1
    assert weights[0] == min(weights)
    assert weights[:-1] == sorted(weights[:-1])


#: Data whose games need cells past the first rows the search starts with
#: (Wythoff's Nim with (12, 20) forced N, n = 30): its first solutions miss
#: some, and the rows they miss are added until a solution holds.
LAZY = {**WYTHOFF, "alter": {"N": [[12, 20]]}}


def test_rows_past_the_first_are_added_until_every_game_holds():
    import time

    from catalog.compute.smallest import Search

    window = data(LAZY, 30)
    outside = int((~window.grid).sum())
    search = Search(window, maximal(window), False, time.monotonic() + 60)
    assert len(search.rows) < outside  # the first rows leave cells out
    answer = identify(window, limit=3)
    assert answer.exact and [g.size for g in answer.games] == [4, 4, 4]
    for game in answer.games:
        assert gives(game.definition, window), game.definition


def test_the_size_counts_the_rules_that_later_rows_bring():
    """The rules a later row brings join the model's counters (the size, the
    rays, the moves), so that a bound on the size holds for them too: with
    every one of them chosen, the size counts them all."""
    import time

    from ortools.sat.python import cp_model

    from catalog.compute.smallest import Search

    window = data(LAZY, 30)
    search = Search(window, maximal(window), False, time.monotonic() + 60)
    first = set(search.vars)
    assert search._solve(False, time.monotonic() + 60)[0] == "optimal"
    later = [var for key, var in search.vars.items() if key not in first]
    assert later
    for var in later:
        search.model.add(var == 1)
    solver = cp_model.CpSolver()
    assert solver.solve(search.model) == cp_model.OPTIMAL
    chosen = sum(solver.boolean_value(var) for var in search.vars.values())
    assert solver.value(search.size) == chosen >= len(later)


def test_a_rule_only_a_later_row_brings_can_be_in_the_least_game():
    """The move (23, 23) reaches S only from cells past the first rows (the
    512 cells nearest the corner), so its variable is made by a later row.
    The counters once held such variables at 0 (OR-Tools read a domain's
    index -1 as 0), and identify answered, as exact, that no game of either
    kind gives these data."""
    definition = {"rays": [[1, 0], [0, 1], [1, 2], [2, 1]], "moves": [[23, 23]]}
    window = data(definition, 28)
    answer = identify(window)
    assert answer.exact and not answer.altered
    assert [g.definition for g in answer.games] == [
        {"rays": [[0, 1], [1, 0], [1, 2], [2, 1]], "moves": [[23, 23]], "special": []}
    ]
    assert answer.games[0].size == 3 and gives(answer.games[0].definition, window)


@pytest.mark.parametrize("seed", range(3))
def test_random_games_in_larger_windows_are_given_back_exactly(seed):
    """Random rule sets (no Wythoff's rays needed) in windows of 6 to 12:
    every game listed, invariant or altered, gives the data by the
    reference, and none is larger than the rule set the data came from. (A
    ray (a, b) with k b = n once also stood, in the search's index, for the
    step (k a + 1, 0): data of such windows found it.)"""
    rng = np.random.default_rng(seed)
    for _ in range(12):
        n = int(rng.integers(6, 13))
        steps = [(a, b) for a in range(n // 2) for b in range(n // 2) if a or b]
        picks = rng.choice(len(steps), size=int(rng.integers(2, 6)), replace=False)
        cut = int(rng.integers(0, len(picks) + 1))
        definition = {
            "rays": [list(steps[i]) for i in picks[:cut]],
            "moves": [list(steps[i]) for i in picks[cut:]],
        }
        window = data(definition, n)
        answer = identify(window, limit=3)
        assert answer.exact, definition
        for game in answer.games + answer.altered:
            assert gives(game.definition, window), (definition, game.definition)
        if answer.games:
            assert answer.games[0].size <= len(picks), definition


def test_a_weighted_search_out_of_time_falls_back_to_the_core_search(monkeypatch):
    """When the search for the lightest next game runs out of its share (here:
    every weighted solve), the plain core search, faster to find some game of
    the least size, looks for the next one with the time left."""
    import time

    from ortools.sat.python import cp_model

    from catalog.compute.smallest import Search

    real = cp_model.CpSolver
    calls: list[bool] = []

    class Impatient(real):  # type: ignore[misc, valid-type]
        def solve(self, model, *args):
            core = self.parameters.optimize_with_core
            calls.append(core)
            return super().solve(model, *args) if core else cp_model.UNKNOWN

    monkeypatch.setattr(cp_model, "CpSolver", Impatient)
    window = data({"rays": [[2, 1]], "moves": [[1, 2], [2, 3]]}, 5)
    deadline = time.monotonic() + 60
    found = Search(window, maximal(window), False, deadline).smallest(3, deadline)
    assert found.exact and len(found.games) == 3
    assert calls[0] and False in calls
    assert all(calls[i + 1] for i, core in enumerate(calls[:-1]) if not core)


class Clock:
    """time for smallest.py: a clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


def test_a_solution_checked_past_the_deadline_is_not_listed(monkeypatch):
    """The deadline passes between a solve and the check of its solution on
    the whole window: the rows the solution misses can no longer be added,
    and the solution, which holds only on the rows it had, is no game."""
    from ortools.sat.python import cp_model

    from catalog.compute import smallest

    clock = Clock()
    real = cp_model.CpSolver

    class Late(real):  # type: ignore[misc, valid-type]
        def solve(self, model, *args):
            assert clock.now < 50.0, "a solve started past the deadline"
            status = super().solve(model, *args)
            clock.now = 50.5  # just past the deadline
            return status

    monkeypatch.setattr(cp_model, "CpSolver", Late)
    monkeypatch.setattr(smallest, "time", clock)
    window = data(LAZY, 30)
    found = smallest.Search(window, maximal(window), False, 50.0).smallest(3, 50.0)
    assert (found.games, found.exact) == ([], False)


def test_a_least_size_search_out_of_time_gives_the_bound_it_proved(monkeypatch):
    """A least-size search stopped with a solution it has not proven least
    (CP-SAT's FEASIBLE) lists no game, says the answer is not exact, and
    gives the solver's proven lower bound: here the least size itself,
    since the real solve behind it did prove it."""
    from ortools.sat.python import cp_model

    real = cp_model.CpSolver

    class Unproven(real):  # type: ignore[misc, valid-type]
        def solve(self, model, *args):
            status = super().solve(model, *args)
            core = self.parameters.optimize_with_core
            return cp_model.FEASIBLE if core and status == cp_model.OPTIMAL else status

    monkeypatch.setattr(cp_model, "CpSolver", Unproven)
    answer = identify(data(MAHARAJA, 10))
    assert (answer.games, answer.altered, answer.exact) == ([], [], False)
    assert answer.bound == 3  # (1, 0) and (0, 1), (1, 1), the knight's pair


def test_simplify_keeps_a_game_within_the_definitions_limits():
    """S = {(0, 0), (4, 4)} at n = 11: the least rule set has 13 rays and 30
    single moves; making every ray that can be one a move would give 33
    moves, past what a definition holds (it was listed so, and the catalog
    refused it). Every game listed is a definition."""
    from catalog.games.definition import MAX_RULES, canonicalize

    window = Window.of([(0, 0), (4, 4)], 11)
    answer = identify(window, limit=3)
    assert answer.exact and answer.games
    for game in answer.games + answer.altered:
        assert len(game.rays) <= MAX_RULES and len(game.moves) <= MAX_RULES
        canonicalize(game.definition)
        assert gives(game.definition, window), game.definition


def test_a_mirror_pair_is_two_rules_and_a_diagonal_step_one():
    """What each orbit adds to the rays' or moves' count (the limit of 32
    is on the definition's lists): on symmetric data a step and its mirror
    image are two entries, a diagonal step one; without mirrors, one each."""
    from catalog.compute.smallest import Search

    symmetric = Window.of([(0, 0)], 6)
    plain = Window.of([(0, 0), (2, 1)], 6)
    for window, pair in ((symmetric, 2), (plain, 1)):
        search = Search(window, maximal(window), False)
        for kind in "rmPN":
            assert search._members((kind, 1, 2)) == pair
            assert search._members((kind, 3, 3)) == 1


def test_without_mirror_images_each_rule_counts_one_towards_the_limits():
    """S = {(0, 0), (8, 7)} at n = 9 is not symmetric: every step but (8, 7)
    is needed, 13 rays and 31 single moves, each one rule (within the
    32 a definition holds, though 31 moves are 15 mirror pairs and more)."""
    answer = identify(Window.of([(0, 0), (8, 7)], 9), limit=1)
    assert answer.exact and not answer.altered
    (game,) = answer.games
    assert (game.size, len(game.rays), len(game.moves)) == (44, 13, 31)
    assert gives(game.definition, answer.window)


#: The documented weights (docs/invariants/identify.md): 4 (a + b) for each
#: rule or forced cell, plus this for its kind.
KIND_WEIGHT = {"m": 0, "r": 1, "N": 2, "P": 3}


@pytest.mark.parametrize("altered", [False, True])
@pytest.mark.parametrize("symmetric", [False, True])
def test_the_searches_weigh_rules_and_cells_as_documented(altered, symmetric):
    """The least size counts each orbit once; the order among games of that
    size is the weighted search's objective: 4 (a + b) for each rule or
    cell (a, b), plus 0 for a move, 1 for a ray, 2 for a cell forced N and
    3 for a cell forced P. Read from the model the solver was given."""
    import time

    from catalog.compute.smallest import Search

    definition = {**MAHARAJA, "alter": {"P": [[0, 1]], "N": [[2, 2]]}}
    window = data(definition if altered else MAHARAJA, 7, symmetric)
    search = Search(window, maximal(window), altered)
    for weighted in (False, True):
        status, _ = search._solve(weighted, time.monotonic() + 60)
        assert status == "optimal"
        objective = search.model.proto.objective
        key_of = {var.index: key for key, var in search.vars.items()}
        got = {
            key_of[i]: c for i, c in zip(objective.vars, objective.coeffs, strict=True)
        }
        assert got.keys() == search.vars.keys()
        if not weighted:
            assert set(got.values()) == {1}
            continue
        assert got == {
            (kind, a, b): 4 * (a + b) + KIND_WEIGHT[kind] for kind, a, b in got
        }
        kinds = {kind for kind, _, _ in got}
        assert kinds == ({"m", "r", "N", "P"} if altered else {"m", "r"})


#: Where the clock below stands: not 0, where ``deadline - now`` and
#: ``deadline + now`` are the same.
NOW = 1000.0


class Frozen:
    """time for smallest.py: a clock that stands still at NOW."""

    @staticmethod
    def monotonic() -> float:
        return NOW


def solver_calls(monkeypatch):
    """Record each CP-SAT solve's parameters (the real solver still runs)."""
    from ortools.sat.python import cp_model

    from catalog.compute import smallest

    calls: list[tuple[float, int, bool]] = []
    real = cp_model.CpSolver

    class Recording(real):  # type: ignore[misc, valid-type]
        def solve(self, model, *args):
            p = self.parameters
            calls.append((p.max_time_in_seconds, p.num_workers, p.optimize_with_core))
            return super().solve(model, *args)

    monkeypatch.setattr(cp_model, "CpSolver", Recording)
    monkeypatch.setattr(smallest, "time", Frozen)
    return calls


def test_each_search_gets_its_share_of_the_time(monkeypatch):
    """On a clock that stands still with 100 s left: the least size is
    sought with 95 % of the time less 0.05 s (one worker, core-based); each
    next game of that size with its share, 100 / (2 (limit - found)) s,
    weighted and not core-based; the same shares whatever the data."""
    from catalog.compute.smallest import Search

    calls = solver_calls(monkeypatch)
    window = data({"rays": [[2, 1]], "moves": [[1, 2], [2, 3]]}, 5)
    end = NOW + 100.0
    found = Search(window, maximal(window), False, end).smallest(3, end)
    assert len(found.games) == 3 and found.exact
    first = [c for c in calls if c[2]]
    weighted = [c for c in calls if not c[2]]
    assert first and all(c[:2] == (pytest.approx(94.95), 1) for c in first)
    shares = sorted({round(c[0], 6) for c in weighted})
    expected = [0.95 * 100 / (2 * k) - 0.05 for k in (3, 2, 1)]
    assert shares == pytest.approx(sorted(expected))
    assert {c[1] for c in weighted} == {1}


def test_a_short_deadline_gives_each_search_a_quarter_second_at_least(monkeypatch):
    """With 0.6 s left the shares below 0.25 s are raised to it, and the least
    size search keeps 95 % less 0.05 s, but never less than 0.01 s."""
    from catalog.compute.smallest import Search

    calls = solver_calls(monkeypatch)
    window = data({"rays": [[2, 1]], "moves": [[1, 2], [2, 3]]}, 5)
    Search(window, maximal(window), False, NOW + 0.6).smallest(3, NOW + 0.6)
    shares = sorted({round(c[0], 6) for c in calls if not c[2]})
    # 0.6 / (2 k) for k = 3, 2 to find: 0.1 and 0.15, raised to 0.25; then 0.3
    assert shares == pytest.approx([0.95 * 0.25 - 0.05, 0.95 * 0.3 - 0.05])
    calls.clear()
    Search(window, maximal(window), False, NOW + 0.05).smallest(3, NOW + 0.05)
    assert calls and {c[0] for c in calls if c[2]} == {0.01}
