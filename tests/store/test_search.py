"""Search by terms, ids, keywords and words; the OEIS export; on both databases."""

import pytest

from catalog import p_positions
from catalog.store import search
from catalog.store.fill import fill
from catalog.store.seed import load_seeds, read_seed, seed_dir

MAHARAJA = read_seed(seed_dir() / "W000004.json")["definition"]


@pytest.fixture
def catalog_maker(maker):
    with maker.begin() as session:
        load_seeds(session)
    for number in (1, 4, 2, 22, 24):
        fill(maker, number, 1200)
    return maker


def run(maker, text, offset=0, limit=50):
    with maker() as session:
        return search.search(session, search.parse(text), offset, limit)


def test_lower_wythoff_finds_wythoff_first(catalog_maker):
    results, _ = run(catalog_maker, "1, 3, 4, 6, 8, 9, 11, 12")
    assert results[0] == {
        "id": "W000001",
        "name": "Wythoff's Nim",
        "sequence": "a",
        "index": 1,
    }
    # Ho's restriction and W000024 have Wythoff's P-positions: they match too.
    assert {"W000022", "W000024"} <= {r["id"] for r in results}


def test_terms_from_the_middle_of_maharaja(catalog_maker):
    found = p_positions(MAHARAJA, 1200)
    column = dict(found.tolist())
    middle = [column[x] for x in range(500, 508)]
    results, _ = run(catalog_maker, ",".join(map(str, middle)))
    assert ("W000004", "y", 500) in [
        (r["id"], r["sequence"], r["index"]) for r in results
    ]


def test_a_match_at_the_start_ranks_first(catalog_maker):
    # y(x) of misère Wythoff starts 1, 0, 2, …; W000001's b_n - a_n is 0, 1, 2, ….
    results, _ = run(catalog_maker, "0,1,2,3,4,5")
    assert results and all(r["index"] == 0 for r in results[:1])
    starts = [r["index"] == 0 for r in results]
    assert starts == sorted(starts, reverse=True)


def test_paging(catalog_maker):
    everything, more = run(catalog_maker, "1,3,4,6,8,9,11,12")
    assert not more
    first, more = run(catalog_maker, "1,3,4,6,8,9,11,12", 0, 1)
    second, _ = run(catalog_maker, "1,3,4,6,8,9,11,12", 1, 1)
    assert more and first + second == everything[:2]


def test_ids_keywords_and_words(catalog_maker):
    assert [r["id"] for r in run(catalog_maker, "id:W000004")[0]] == ["W000004"]
    maharaja = [r["id"] for r in run(catalog_maker, "keyword:maharaja")[0]]
    assert maharaja[:2] == ["W000004", "W000005"] and len(maharaja) == 8
    assert [r["id"] for r in run(catalog_maker, "ho restriction")[0]] == ["W000022"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("", "empty query"),
        ("1,-3,4", "non-negative"),
        ("1.5,2,3", "not a list of integers"),
        ("1,2", "at least 3 terms"),
        (",".join(["1"] * 65), "at most 64 terms"),
    ],
)
def test_bad_queries(query, message):
    with pytest.raises(search.BadQuery, match=message):
        search.parse(query)
