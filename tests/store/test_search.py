"""Search by terms, ids, keywords and words; the OEIS export; on both databases."""

import random

import numpy as np
import pytest
from sqlalchemy import select

from catalog import p_positions
from catalog.games.definition import canonicalize
from catalog.store import search
from catalog.store.db import make_engine, make_sessionmaker
from catalog.store.derived import read_sequences, replace_sequences
from catalog.store.entries import add_entry
from catalog.store.fill import fill
from catalog.store.ids import format_id
from catalog.store.models import Entry, Label
from catalog.store.seed import load_seeds, read_seed, seed_dir
from tests.conftest import BACKENDS, new_database_url
from tests.databases import migrated, rolled_back

MAHARAJA = read_seed(seed_dir() / "W000004.json")["definition"]
WYTHOFF = {"rays": [[1, 0], [0, 1], [1, 1]]}
#: Columns filled: past the indexed terms, and past x = 508 of Maharaja.
FILLED = 1200


@pytest.fixture(scope="module", params=BACKENDS)
def catalog_engine(request, tmp_path_factory):
    """Every seed, and Wythoff's Nim with a far-off move pair added (their
    sequences share long prefixes with Wythoff's), filled past the indexed
    terms so that queries can straddle the index's end: built once per
    module."""
    folder = tmp_path_factory.mktemp("search")
    engine = make_engine(new_database_url(request.param, request, folder, migrated))
    maker = make_sessionmaker(engine)
    with maker.begin() as session:
        load_seeds(session)
        for a, b in ((40, 70), (90, 130), (7, 300)):
            game = canonicalize({**WYTHOFF, "moves": [[a, b], [b, a]]})
            add_entry(session, game, name=f"adjoined ({a},{b})")
    with maker() as session:
        numbers = list(session.scalars(select(Entry.id).order_by(Entry.id)))
    for number in numbers:
        fill(maker, number, FILLED)
    yield engine
    engine.dispose()


@pytest.fixture
def catalog_maker(catalog_engine):
    """Sessions on that catalog whose writes are rolled back after the test."""
    with rolled_back(catalog_engine) as maker:
        yield maker


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


def test_words_say_whether_more_follow_the_page(catalog_maker):
    """Eight entries have the keyword maharaja: a page of 8 is all of them,
    a page of 7 has more after it."""
    assert run(catalog_maker, "keyword:maharaja", limit=8)[1] is False
    assert run(catalog_maker, "keyword:maharaja", limit=7)[1] is True
    assert run(catalog_maker, "keyword:maharaja", offset=1, limit=7)[1] is False


def test_a_word_with_another_field_is_a_word_of_the_names(catalog_maker):
    """Only id:, family: and keyword: are fields; "x:maharaja" is looked for
    in the names as it is (none holds it), not as a keyword."""
    assert run(catalog_maker, "x:maharaja")[0] == []
    assert len(run(catalog_maker, "keyword:maharaja")[0]) == 8


@pytest.mark.parametrize(
    ("word", "plain"),
    [("wyth_ff", "wythoff"), ("maha%aja", "maharaja"), ("mah%", "mah")],
)
def test_a_word_is_matched_as_written_not_as_a_like_pattern(catalog_maker, word, plain):
    """``_`` and ``%`` in a word are characters to find, not LIKE's wildcards
    ("wyth_ff" is not "wythoff"; no name holds a "%")."""
    assert run(catalog_maker, word)[0] == []
    assert run(catalog_maker, plain)[0] != []


def test_a_family_members_label_finds_that_entry_alone(catalog_maker):
    with catalog_maker() as session:
        for number, label in ((4, "maharaja.1.2"), (5, "maharaja.2.1")):
            session.add(
                Label(
                    label=label,
                    entry_id=number,
                    family="maharaja",
                    rank=number,
                    parameters={"k": number - 3, "l": 6 - number},
                )
            )
        session.flush()
        found = search.search(session, search.parse("id:maharaja.2.1"))[0]
        assert [r["id"] for r in found] == ["W000005"]
        both = search.search(session, search.parse("family:maharaja"))[0]
        assert [r["id"] for r in both] == ["W000004", "W000005"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("", "empty query"),
        ("1,-3,4", "non-negative"),
        ("1.5,2,3", "not a list of integers"),
        ("1, 2, x", "not a list of integers"),
        ("1,2", "at least 3 terms"),
        (",".join(["1"] * 65), "at most 64 terms"),
        ("1,2," + "9" * 19, "at most 4611686018427387903"),
        ("1,2,٣", "ASCII digits"),
        ("１ ２ ３", "ASCII digits"),
        ("wythoff\x00", "NUL"),
        ("nim " * 600, "at most 2000 characters"),
        ("nim " * 17, "at most 16 words"),
        ("id:W００００01", "not an entry ID"),
        ("keyword:" + "k" * 65, "at most 64 characters"),
    ],
)
def test_bad_queries(query, message):
    with pytest.raises(search.BadQuery, match=message):
        search.parse(query)


# -- every answer against a brute-force search over the stored sequences ---


def test_a_keyword_of_the_most_characters_is_taken():
    """keyword: at most 64 characters: 64 are a query (65 are refused above)."""
    word = "keyword:" + "k" * 64
    assert search.parse(word) == {"words": [word]}


def stored_sequences(session):
    """(entry number, name, sequence name, offset, terms) of every stored
    sequence."""
    entries = session.execute(select(Entry.id, Entry.name).order_by(Entry.id)).all()
    return [
        (number, name, kind, s["offset"], s["terms"].tolist())
        for number, name in entries
        for kind, s in read_sequences(session, number).items()
    ]


#: docs/cli.md: "a search finds exactly the sequences whose first 1000 terms
#: hold" the query (the reference is the documented scope, not the constant).
SEARCHED_TERMS = 1000


def indexed_texts(stored):
    """The first SEARCHED_TERMS terms of each stored sequence as text."""
    return [
        (number, name, kind, offset, ",".join(map(str, terms[:SEARCHED_TERMS])))
        for number, name, kind, offset, terms in stored
    ]


def reference(texts, want):
    """Every (entry, sequence) whose first SEARCHED_TERMS terms hold ``want``,
    at its first place, ranked: at the start first, then by sequence, then
    by entry. A text search over every stored sequence (``indexed_texts``)."""
    needle = "," + ",".join(map(str, want)) + ","
    hits = []
    for number, name, kind, offset, terms in texts:
        text = "," + terms + ","
        found = text.find(needle)
        if found >= 0:
            place = text.count(",", 0, found)  # terms before the match
            rank = (place != 0, search.KINDS[kind], number)
            doc = {
                "id": format_id(number),
                "name": name,
                "sequence": kind,
                "index": offset + place,
            }
            hits.append((rank, doc))
    return [doc for _, doc in sorted(hits, key=lambda hit: hit[0])]


def random_queries(stored, rng, count):
    """Runs of stored terms (some across the indexed end), the same with one
    term changed, and random 0/1 runs: lengths 3 to 64."""
    queries: list[list[int]] = []
    while len(queries) < count:
        terms = rng.choice(stored)[-1]
        length = rng.choice([3, 4, 5, 8, 12, 15, 16, 17, 24, 40, 64])
        style = rng.random()
        if style < 0.15:
            queries.append([rng.randrange(2) for _ in range(length)])
            continue
        if len(terms) < length:
            continue
        start = rng.randrange(len(terms) - length + 1)
        if style < 0.3:  # near the end of the indexed terms
            start = max(0, SEARCHED_TERMS - length + rng.randrange(-3, 4))
            start = min(start, len(terms) - length)
        query = terms[start : start + length]
        if style > 0.8:
            i = rng.randrange(length)
            query[i] = max(0, query[i] + rng.choice([-1, 1]))
        queries.append(query)
    return queries


def test_every_answer_is_the_brute_force_answer(catalog_maker):
    rng = random.Random(14)
    with catalog_maker() as session:
        stored = stored_sequences(session)
        texts = indexed_texts(stored)
        queries = random_queries(stored, rng, 150)
        # Twelve terms of W000001's bits (A003849): shorter than the bits' gram.
        fibonacci = [0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0]
        wythoff = {"id": "W000001", "name": "Wythoff's Nim", "sequence": "bits"}
        assert {**wythoff, "index": 1} in reference(texts, fibonacci)
        queries.append(fibonacci)
        # Long 0/1 queries at the start of a bit sequence and just after it.
        for _, _, kind, _, terms in stored:
            if kind == "bits" and len(terms) > 60:
                queries += [terms[:20], terms[:41], terms[1:30]]
        for want in queries:
            expected = reference(texts, want)
            query = search.parse(",".join(map(str, want)))
            got, more = search.search(session, query, 0, 1000)
            assert (got, more) == (expected, False), want
            # Pages of 3 agree with the whole list: from a random offset, and
            # the last full page, which has nothing after it.
            for offset in (rng.randrange(len(expected) + 1), len(expected) - 3):
                if offset >= 0:
                    page, more = search.search(session, query, offset, 3)
                    assert page == expected[offset : offset + 3], (want, offset)
                    assert more == (offset + 3 < len(expected)), (want, offset)


def test_a_sequence_read_past_its_first_bytes(catalog_maker, monkeypatch):
    """When the first bytes of a stored sequence do not hold its indexed
    terms, the whole sequence is read: the answer is the same."""
    query = search.parse("1,3,4,6,8,9,11,12")
    with catalog_maker() as session:
        expected = search.search(session, query)
        monkeypatch.setattr(search, "_HEAD_BYTES", 8)
        whole = []
        real = session.scalar

        def scalar(statement, params=None, **kw):
            if statement is search._WHOLE:
                whole.append(params["entry"])
            return real(statement, params, **kw)

        monkeypatch.setattr(session, "scalar", scalar)
        assert search.search(session, query) == expected
    assert expected[0] and whole  # the whole sequences were read


def test_a_match_at_the_start_outranks_a_more_specific_sequence(catalog_maker):
    """Integer queries that start a less specific sequence (b, b-a) and stand
    inside a more specific one (y, a) elsewhere: the match at the start comes
    first, as documented. Found in the stored data, so that the ranking's two
    keys are tested against each other (a bug that swapped them was not seen
    by queries that never split them)."""
    with catalog_maker() as session:
        stored = stored_sequences(session)
        texts = indexed_texts(stored)
        splitting = []
        for _, _, kind, _, terms in stored:
            if kind not in ("b", "b-a"):
                continue
            for length in (3, 4, 5, 6):
                want = terms[:length]
                expected = reference(texts, want)
                kinds = [(doc["index"] == 0, doc["sequence"]) for doc in expected]
                starts = [k for at_start, k in kinds if at_start]
                inside = [k for at_start, k in kinds if not at_start]
                if any(
                    search.KINDS[i] < search.KINDS[s] for s in starts for i in inside
                ):
                    splitting.append(want)
                    got, _ = search.search(
                        session, search.parse(",".join(map(str, want))), 0, 1000
                    )
                    assert got == expected, want
        assert len(splitting) >= 3, "no query splits the ranking's keys"


def test_a_sequence_as_short_as_a_query_is_found(catalog_maker):
    """A stored sequence of MIN_QUERY_TERMS terms is matched, at its start,
    by a query of all of them (its start grams are indexed)."""
    short = {"y": [70001, 70002, 70003], "a": [7, 8, 9], "bits": [1, 1, 0]}
    assert all(len(t) == search.MIN_QUERY_TERMS for t in short.values())
    with catalog_maker() as session:
        replace_sequences(
            session, 1, {k: (0, np.array(v), "short") for k, v in short.items()}
        )
        search.index_sequences(session, 1, {k: np.array(v) for k, v in short.items()})
        texts = indexed_texts(stored_sequences(session))
        for kind, want in short.items():
            got, _ = search.search(session, search.parse(str(want)[1:-1]), 0, 1000)
            assert got == reference(texts, want), want
            start = {"id": "W000001", "name": "Wythoff's Nim", "index": 0}
            assert {**start, "sequence": kind} in got, want


def test_an_entry_indexed_again_matches_only_its_new_terms(catalog_maker):
    """An entry whose sequences change keeps its older postings until a
    merge or a rebuild: they may name it as a candidate, never as a match.
    Brute force over the catalog after W000001's y, a and bits change."""
    rng = random.Random(5)
    with catalog_maker() as session:
        before = stored_sequences(session)
        old = {kind: terms for number, _, kind, _, terms in before if number == 1}
        new = {
            "y": [t + 1 for t in old["y"]],
            "a": [t + 7 for t in old["a"]],
            "bits": [1 - t for t in old["bits"]],
        }
        replace_sequences(
            session,
            1,
            {k: (0, np.array(v), "changed") for k, v in new.items()},
        )
        search.index_sequences(session, 1, {k: np.array(v) for k, v in new.items()})
        texts = indexed_texts(stored_sequences(session))
        queries = [
            terms[s : s + 8]
            for terms in (*old.values(), *new.values())
            for s in (0, 5, 300)
        ]
        queries += random_queries(stored_sequences(session), rng, 40)
        for want in queries:
            query = search.parse(",".join(map(str, want)))
            got, _ = search.search(session, query, 0, 1000)
            assert got == reference(texts, want), want
        lower = search.search(session, search.parse("1,3,4,6,8,9,11,12"), 0, 1000)
        assert ("W000001", "a") not in {(r["id"], r["sequence"]) for r in lower[0]}
