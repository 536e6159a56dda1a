"""The schema comes only from Alembic, and models and migrations agree."""

from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, select, text

from catalog.store import search
from catalog.store.db import (
    alembic_config,
    head_revision,
    make_engine,
    make_sessionmaker,
    upgrade_to_head,
)
from catalog.store.derived import xref_ids
from catalog.store.fill import fill
from catalog.store.models import Base
from catalog.store.seed import load_seeds
from catalog.store.tables import facts, search_postings, xref_links


def test_the_head_read_from_file_names_is_alembics():
    # Opening an up-to-date catalog compares with head_revision() and so
    # never imports Alembic; a migration named out of order would break that.
    script = ScriptDirectory.from_config(alembic_config())
    assert script.get_heads() == [head_revision()]
    revisions = sorted(r.revision for r in script.walk_revisions())
    assert revisions == [f"{k:04d}" for k in range(1, len(revisions) + 1)]


def test_upgrade_check_downgrade_upgrade(fresh_url):
    engine = make_engine(fresh_url)
    try:
        with engine.begin() as connection:
            cfg = alembic_config(engine)
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
            # Fails with "New upgrade operations detected" if models drifted.
            command.check(cfg)
        assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "base")
        assert inspect(engine).get_table_names() == ["alembic_version"]
        with engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")
        assert set(Base.metadata.tables) <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _postings(conn) -> set[tuple[int, int, int]]:
    """The index's (kind, gram, entry) triples, whatever its segments."""
    rows = conn.execute(
        select(
            search_postings.c.kind, search_postings.c.gram, search_postings.c.entries
        )
    ).all()
    return {
        (kind, gram, int(entry))
        for kind, gram, blob in rows
        for entry in search.unpack(blob)
    }


def test_0010_rebuilds_the_search_index_from_the_sequences(fresh_url):
    """A catalog with the old index (search_grams, here with a stray row)
    gets the postings a fill writes, and the old table goes."""
    engine = make_engine(fresh_url)
    try:
        upgrade_to_head(engine)
        maker = make_sessionmaker(engine)
        with maker.begin() as session:
            load_seeds(session)
        for number in (1, 4, 7):  # Wythoff, Maharaja Nim, a Nimhoff game
            fill(maker, number, 300)
        with engine.connect() as conn:
            written = _postings(conn)
            found = search.search(conn, {"terms": [1, 2, 4, 5]})
        assert {entry for _, _, entry in written} == {1, 4, 7}
        starts = {search.START + code for code in search.NAMES}
        assert {kind for kind, _, _ in written} == {1, 2, 3, 4, 6} | starts
        with engine.begin() as connection:
            cfg = alembic_config(engine)
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "0009")
            assert "search_postings" not in inspect(connection).get_table_names()
            connection.execute(text("INSERT INTO search_grams VALUES (1, 4, 5, 0)"))
            command.upgrade(cfg, "head")
        with engine.connect() as conn:
            assert _postings(conn) == written
            assert search.search(conn, {"terms": [1, 2, 4, 5]}) == found
            assert "search_grams" not in inspect(conn).get_table_names()
    finally:
        engine.dispose()


def test_0011_keeps_every_cross_reference_as_groups(fresh_url):
    """Pairs become groups and links and back again: the same
    cross-references and classes at each step, and the index's old head
    grams (kind 7) are rebuilt on the way down and dropped on the way up."""
    engine = make_engine(fresh_url)
    try:
        upgrade_to_head(engine)
        maker = make_sessionmaker(engine)
        with maker.begin() as session:
            load_seeds(session)
        # Wythoff's Nim further than the three games that share its
        # P-positions (Ho's restriction and extension, an adjoinable pair):
        # two groups, linked; Maharaja Nim and a Nimhoff game apart.
        filled = {1: 300, 22: 150, 23: 150, 24: 150, 4: 150, 7: 150}
        for number, n in filled.items():
            fill(maker, number, n)

        def relation(conn) -> tuple[dict, dict]:
            xrefs = {n: xref_ids(conn, n) for n in filled}
            classes = dict(
                conn.execute(select(facts.c.entry_id, facts.c.xref_class)).all()
            )
            return xrefs, classes

        with engine.connect() as conn:
            xrefs, classes = relation(conn)
            assert conn.execute(select(xref_links)).all() != []
        assert xrefs[1] == [22, 23, 24] and xrefs[23] == [1, 22, 24]
        assert xrefs[4] == [] and {classes[n] for n in (1, 22, 23, 24)} == {1}
        with engine.begin() as connection:
            cfg = alembic_config(engine)
            cfg.attributes["connection"] = connection
            command.downgrade(cfg, "0010")
            pairs = set(
                connection.execute(text("SELECT entry_id, other_id FROM xrefs"))
            )
            heads = {e for kind, _, e in _postings(connection) if kind == 7}
            command.upgrade(cfg, "head")
        assert pairs == {(n, o) for n, others in xrefs.items() for o in others}
        assert heads == set(filled)
        with engine.connect() as conn:
            assert relation(conn) == (xrefs, classes)
            assert 7 not in {kind for kind, _, _ in _postings(conn)}
            assert "xrefs" not in inspect(conn).get_table_names()
    finally:
        engine.dispose()
