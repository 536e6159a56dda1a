"""Each seed file is valid, and the IDs are fixed."""

import json

import pytest

from catalog.games.definition import canonicalize
from catalog.store.seed import SeedError, load_seeds, read_seed, seed_dir

FILES = sorted(seed_dir().glob("W*.json"))


def test_at_least_twenty_seeds_numbered_from_one():
    numbers = [int(p.stem[1:]) for p in FILES]
    assert len(numbers) >= 20
    assert numbers == list(range(1, len(numbers) + 1))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_seed_is_complete(path):
    seed = read_seed(path)
    assert seed["id"] == path.stem
    assert seed["name"] and seed["description"] and seed["keywords"]
    assert all(r["citation"] and r["locator"] for r in seed["references"])
    assert seed["references"], "every entry cites where it comes from"


def test_fixed_ids_of_the_contract():
    by_id = {p.stem: read_seed(p) for p in FILES}
    assert by_id["W000001"]["game"] == canonicalize({"rays": [[1, 0], [0, 1], [1, 1]]})
    assert by_id["W000002"]["game"] == canonicalize(
        {"rays": [[1, 0], [0, 1], [1, 1]], "alter": {"N": [[0, 0]]}}
    )
    assert by_id["W000004"]["game"].moves == ((1, 2), (2, 1))


def test_no_two_seeds_define_the_same_game():
    keys = [read_seed(p)["game"].key for p in FILES]
    assert len(set(keys)) == len(keys)


def test_duplicate_games_are_refused_before_writing(tmp_path, db_session):
    for name in ("W000001", "W000002"):
        data = json.loads((seed_dir() / f"{name}.json").read_text())
        data["definition"] = {"rays": [[1, 1], [1, 0], [0, 1]]}
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    with pytest.raises(SeedError, match="same game"):
        load_seeds(db_session, tmp_path)
