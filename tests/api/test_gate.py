"""The gate of computations (catalog.api.gate): a quota of work per client,
counted in Redis across processes or per process, compute slots per host,
trusted proxies, and the cache that makes a repeated question a read."""

import json
import logging
import os
import subprocess
import sys
import threading
import time
import uuid

import pytest
import redis
from sqlalchemy import func, select

from catalog.api import gate
from catalog.api.gate import Quota, Slots, client_address, parse_networks
from catalog.client import Catalog
from catalog.client import CatalogError as ClientError
from catalog.errors import BadInput, Throttled
from catalog.store import results
from catalog.store.tables import results as results_table
from tests.api.conftest import make_app, serve

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(scope="module")
def redis_url():
    """The Redis of every machine this project runs on (a failure if absent)."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.RedisError as exc:
        reason = f"Redis for the quota tests: {REDIS_URL}: {exc}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " (required under CI=true)")
        pytest.skip(reason)
    return REDIS_URL


def namespace():
    """A namespace of the test's own in the shared Redis."""
    return f"test-{uuid.uuid4().hex}"


# -- who the client is --------------------------------------------------------

PROXY = parse_networks("10.0.0.1, 192.168.0.0/16", "TRUSTED_PROXIES")


@pytest.mark.parametrize(
    "peer, forwarded, trusted, client",
    [
        # No trusted proxy: the header is never read, whatever it says.
        ("203.0.113.5", "1.2.3.4", [], "203.0.113.5"),
        ("203.0.113.5", "1.2.3.4", PROXY, "203.0.113.5"),
        # From a trusted proxy: the address it appended.
        ("10.0.0.1", "198.51.100.7", PROXY, "198.51.100.7"),
        # A forged entry left of the proxy's own is not believed.
        ("10.0.0.1", "1.1.1.1, 198.51.100.7", PROXY, "198.51.100.7"),
        # Two trusted proxies in a row: the first address neither appended.
        ("10.0.0.1", "1.1.1.1, 198.51.100.7, 192.168.3.4", PROXY, "198.51.100.7"),
        # Only proxies: the leftmost of them.
        ("10.0.0.1", "192.168.1.1", PROXY, "192.168.1.1"),
        # No header, or garbage where the proxy's entry should be: the proxy.
        ("10.0.0.1", None, PROXY, "10.0.0.1"),
        ("10.0.0.1", "1.1.1.1, not-an-address", PROXY, "10.0.0.1"),
        ("10.0.0.1", "2001:db8::1", PROXY, "2001:db8::1"),
        (None, None, PROXY, "unknown"),
    ],
)
def test_client_address(peer, forwarded, trusted, client):
    assert client_address(peer, forwarded, trusted) == client


def test_a_bad_trusted_proxy_is_a_clear_error(tmp_path):
    with pytest.raises(BadInput, match="'nonsense' is not an address"):
        parse_networks("10.0.0.1,nonsense", "TRUSTED_PROXIES")
    with pytest.raises(BadInput, match="QUOTA_STORAGE"):
        Quota(1, "nosuchstore://x")


# -- the quota ----------------------------------------------------------------


def test_the_quota_refuses_past_its_seconds_with_retry_after():
    quota = Quota(1.0, None)  # 100 hundredths of a second a minute
    quota.charge("a", 0.6)
    quota.check("a", 0.4)  # fits: checking counts nothing
    quota.check("a", 0.4)
    with pytest.raises(Throttled) as refused:
        quota.charge("a", 0.5)
    assert refused.value.status == 429
    assert 1 <= refused.value.retry_after <= 120
    assert "1 s of computation a minute" in str(refused.value)
    assert "WYTHOFF_QUOTA_SECONDS" in str(refused.value)
    quota.charge("a", 0.4)  # what was refused was not counted
    with pytest.raises(Throttled):
        quota.check("a", 0.01)
    quota.charge("b", 1.0)  # another client has its own


def test_work_over_the_whole_quota_is_charged_the_whole_quota():
    quota = Quota(1.0, None)
    quota.charge("a", 50.0)  # a budget larger than the quota: once a minute
    with pytest.raises(Throttled):
        quota.charge("a", 0.01)


def test_measured_work_counts_as_much_as_fits():
    quota = Quota(1.0, None)
    quota.charge("a", 0.9)
    quota.spend("a", 0.5)  # already done: the rest of the quota is spent
    with pytest.raises(Throttled):
        quota.check("a", 0.01)


def test_retry_after_is_when_the_window_has_room(monkeypatch):
    """The sliding window: a minute's count weighs less as the next goes on."""
    quota = Quota(1.0, None)
    quota.charge("a", 1.0)
    storage = quota._local.storage
    key = quota.item.key_for(quota.namespace, "a")
    previous, previous_left, current, current_left = storage.get_sliding_window(key, 60)
    assert (previous, current) == (0, 100)
    wait = quota._wait(quota._local, "a", 50)
    # The 100 units of this minute weigh 50 once half the next one is gone.
    assert wait == pytest.approx(current_left % 60 + 30, abs=1.5)
    assert wait == pytest.approx(quota._wait(quota._local, "a", 100) - 30, abs=1.5)


def test_the_quota_is_shared_by_processes_through_redis(redis_url):
    """Two API processes (two Quota objects) count one client's work once."""
    name = namespace()
    first, second = Quota(1.0, redis_url, name), Quota(1.0, redis_url, name)
    first.charge("ip:198.51.100.7", 0.6)
    with pytest.raises(Throttled):
        second.charge("ip:198.51.100.7", 0.6)
    second.charge("ip:198.51.100.8", 0.6)
    with pytest.raises(Throttled):
        first.charge("ip:198.51.100.8", 0.6)


def test_a_quota_store_that_is_gone_falls_back_to_counting_per_process(caplog):
    quota = Quota(1.0, "redis://127.0.0.1:1/0")  # nothing listens there
    with caplog.at_level(logging.WARNING, logger="catalog.api.gate"):
        quota.charge("a", 0.6)
        with pytest.raises(Throttled):
            quota.charge("a", 0.6)  # counted in the process meanwhile
        quota.charge("b", 0.1)
    failed = [r for r in caplog.records if "failed" in r.getMessage()]
    assert len(failed) == 1, "logged once"
    assert "redis://127.0.0.1:1/0" in failed[0].getMessage()


def test_the_quota_store_is_tried_again_after_a_while(redis_url, monkeypatch, caplog):
    quota = Quota(1.0, redis_url, namespace())
    shared = quota._shared
    broken = Quota(1.0, "redis://127.0.0.1:1/0")._shared
    quota._shared = broken
    quota.charge("a", 0.3)  # fails over to the process's count
    assert quota._limiter() is quota._local
    monkeypatch.setattr(gate, "STORE_RETRY_SECONDS", 0.0)
    quota._shared = shared  # the store is back
    with caplog.at_level(logging.WARNING, logger="catalog.api.gate"):
        quota.charge("a", 0.3)
    assert quota._limiter() is shared
    assert any("answers again" in r.getMessage() for r in caplog.records)


# -- compute slots ------------------------------------------------------------


def test_slots_hold_at_most_their_count(tmp_path):
    slots = Slots(2, tmp_path)
    with slots.take() as one, slots.take() as two, slots.take() as three:
        assert (one, two, three) == (True, True, False)
    with slots.take() as again:
        assert again


HOLDER = """
import sys, time
from catalog.api.gate import Slots
with Slots(1, sys.argv[1]).take() as held:
    print("held" if held else "busy", flush=True)
    time.sleep(60)
"""


def test_a_slot_is_the_hosts_and_dies_with_its_holder(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with Slots(1, tmp_path).take() as free:
            assert not free  # another process holds it
        holder.kill()  # never released by the holder itself
        holder.wait(30)
        with Slots(1, tmp_path).take() as free:
            assert free
    finally:
        holder.kill()
        holder.wait(30)
        holder.stdout.close()


# -- the server ---------------------------------------------------------------


def grundy(client, n, **headers):
    return client.get(f"/api/v1/entries/W000004/grundy?n={n}", headers=headers)


@pytest.fixture
def gated(seeded_url, tmp_path):
    """Servers whose clients may compute 0.01 s a minute (one computation),
    in a quota namespace of their own; ``config`` adds settings."""
    apps = []

    def build(**config):
        defaults = {
            "QUOTA_SECONDS": 0.01,
            "QUOTA_NAMESPACE": namespace(),
            "COMPUTE_SLOTS_DIR": str(tmp_path / "slots"),
        }
        app = make_app(seeded_url, False, **(defaults | config))
        apps.append(app)
        return app

    yield build
    for app in apps:
        app.extensions["catalog"].dispose()


@pytest.fixture
def tight(gated):
    return gated()


def test_past_its_quota_a_client_gets_429_and_reads_go_on(tight):
    client = tight.test_client()
    assert grundy(client, 60).status_code == 200
    answer = grundy(client, 61)
    assert answer.status_code == 429
    assert int(answer.headers["Retry-After"]) >= 1
    assert "quota" in answer.get_json()["error"]
    # Reads are not charged, and a question answered before is a read.
    assert client.get("/api/v1/entries/W000001").status_code == 200
    far = "/api/v1/entries/W000001/positions/1000000000/1618033988"
    assert client.get(far).status_code == 200  # a theorem's answer: no work
    again = grundy(client, 60)
    assert again.status_code == 200
    assert again.get_json()["n"] == 60


def test_a_forged_forwarded_for_gains_nothing_without_a_trusted_proxy(tight):
    client = tight.test_client()
    assert grundy(client, 60).status_code == 200
    for i in range(3):
        forged = {"X-Forwarded-For": f"198.51.100.{i}"}
        assert grundy(client, 61 + i, **forged).status_code == 429


def test_behind_a_trusted_proxy_each_client_has_its_quota(gated):
    client = gated(TRUSTED_PROXIES="127.0.0.1").test_client()
    one = {"X-Forwarded-For": "198.51.100.1"}
    two = {"X-Forwarded-For": "198.51.100.2"}
    assert grundy(client, 60, **one).status_code == 200
    assert grundy(client, 61, **one).status_code == 429
    assert grundy(client, 61, **two).status_code == 200
    # What the client writes left of the proxy's entry is not believed.
    forged = {"X-Forwarded-For": "203.0.113.9, 198.51.100.1"}
    assert grundy(client, 62, **forged).status_code == 429


def test_an_api_key_names_the_client(gated):
    client = gated(API_KEYS="k1,k2").test_client()
    assert grundy(client, 60).status_code == 200
    assert grundy(client, 61).status_code == 429
    assert grundy(client, 61, **{"X-API-Key": "k1"}).status_code == 200
    assert grundy(client, 62, **{"X-API-Key": "k1"}).status_code == 429
    assert grundy(client, 62, **{"X-API-Key": "k2"}).status_code == 200
    # An unknown key is no key: the address's spent quota.
    assert grundy(client, 63, **{"X-API-Key": "guess"}).status_code == 429


def test_the_quota_is_shared_by_two_apps_through_redis(gated, redis_url):
    shared = {"QUOTA_STORAGE": redis_url, "QUOTA_NAMESPACE": namespace()}
    first, second = gated(**shared), gated(**shared)
    assert grundy(first.test_client(), 60).status_code == 200
    assert grundy(second.test_client(), 61).status_code == 429


@pytest.fixture
def one_slot(gated):
    """Servers with one compute slot (and room in the quota)."""

    def build(**config):
        settings = {"QUOTA_SECONDS": 100_000, "INLINE_SECONDS": 1, "COMPUTE_SLOTS": 1}
        return gated(**(settings | config))

    return build


def test_with_every_slot_in_use_compute_is_refused_and_reads_answer(one_slot, tmp_path):
    client = one_slot().test_client()
    with Slots(1, tmp_path / "slots").take() as held:
        assert held
        answer = grundy(client, 60)
        assert answer.status_code == 429
        assert answer.headers["Retry-After"] == "1"
        assert "compute slot" in answer.get_json()["error"]
        fill = client.get("/api/v1/entries/W000006/p-positions?n=3000")
        assert fill.status_code == 429
        assert client.get("/api/v1/entries/W000001").status_code == 200
        assert client.get("/api/v1/search?q=1,3,4,6").status_code == 200
    assert grundy(client, 60).status_code == 200  # the slot is back


def test_with_every_slot_in_use_a_queue_takes_the_fill(one_slot, tmp_path):
    client = one_slot(QUEUE=True).test_client()
    with Slots(1, tmp_path / "slots").take():
        answer = client.get("/api/v1/entries/W000006/p-positions?n=3000")
        assert answer.status_code == 202
        assert answer.headers["Location"].startswith("/api/v1/jobs/")
        assert answer.get_json()["state"] == "queued"
        assert grundy(client, 60).status_code == 429  # nothing to queue


def test_the_client_waits_on_429_within_its_timeout(one_slot, tmp_path):
    base, stop = serve(one_slot())
    slots = Slots(1, tmp_path / "slots")
    try:
        taken = slots.take()
        assert taken.__enter__()
        threading.Timer(0.5, taken.__exit__, (None, None, None)).start()
        started = time.monotonic()
        table = Catalog(base, timeout=30).grundy("W000004", 30)
        assert table.shape == (30, 30)
        assert time.monotonic() - started >= 0.9  # waited Retry-After: 1
        with slots.take():
            with pytest.raises(ClientError) as refused:
                Catalog(base, timeout=0.5).grundy("W000004", 31)
        assert refused.value.status == 429
        assert refused.value.retry_after == 1
    finally:
        stop()


# -- the cache of pure results -------------------------------------------------


def test_a_grundy_table_is_computed_once(fresh_app, monkeypatch):
    from catalog.compute import grundy as sg

    calls = []
    real = sg.grundy
    monkeypatch.setattr(sg, "grundy", lambda *a: calls.append(a) or real(*a))
    client = fresh_app.test_client()
    first = grundy(client, 50)
    second = grundy(client, 50)
    assert first.status_code == second.status_code == 200
    assert first.data == second.data
    assert len(calls) == 1
    game = calls[0][0]
    assert json.loads(first.data)["grundy"] == real(game, 50).tolist()
    grundy(client, 51)
    assert len(calls) == 2


def test_identify_keeps_exact_answers_only(fresh_app):
    client = fresh_app.test_client()
    store = fresh_app.extensions["catalog"]
    body = {"positions": [[0, 0], [1, 2], [2, 1], [3, 5], [5, 3]], "n": 7}
    first = client.post("/api/v1/identify", json=body)
    assert first.status_code == 200 and first.get_json()["exact"]
    with store.reading() as connection:
        kinds = connection.execute(select(results_table.c.kind)).scalars().all()
    assert kinds == ["identify"]
    second = client.post("/api/v1/identify", json=body)
    one, two = first.get_json(), second.get_json()
    for doc in (one, two):
        doc.pop("seconds")
    assert one == two
    # A search stopped by its time is not an answer to keep.
    unfinished = client.post(
        "/api/v1/identify",
        json={"grid": "\n".join(["#." * 40] * 80), "seconds": 0.01},
    )
    if unfinished.status_code == 200 and not unfinished.get_json()["exact"]:
        with store.reading() as connection:
            count = connection.execute(
                select(func.count()).select_from(results_table)
            ).scalar()
        assert count == 1


def test_the_cache_drops_its_oldest_answers_past_its_bytes(fresh_app):
    store = fresh_app.extensions["catalog"]
    answers = [os.urandom(1000) for _ in range(12)]  # incompressible
    limit = 8200  # eight of them (about 1011 bytes each once compressed)
    for i, answer in enumerate(answers):
        assert results.put(store.sessions, "test", str(i), answer, None, limit)
    with store.reading() as connection:
        kept = [i for i in range(12) if results.get(connection, "test", str(i))]
        total = connection.execute(select(func.sum(results_table.c.bytes))).scalar()
        assert results.get(connection, "test", "11") == answers[11]
    assert total <= limit
    assert kept == list(range(4, 12)), "the newest stay"
    # An answer over an eighth of the cache is not kept at all.
    assert not results.put(store.sessions, "test", "big", os.urandom(9000), None, 64000)


@pytest.mark.parametrize(
    "environ, seconds", [({}, None), ({"WYTHOFF_QUOTA_SECONDS": "5"}, 5)]
)
def test_the_one_user_server_has_no_quota_unless_asked(
    seeded_url, monkeypatch, environ, seconds
):
    import werkzeug.serving
    from click.testing import CliRunner

    from catalog.cli.main import cli

    served = []
    monkeypatch.setattr(
        werkzeug.serving, "run_simple", lambda *args, **kwargs: served.append(args[2])
    )
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(cli, ["serve", "--db", seeded_url, "--port", "0"])
    assert result.exit_code == 0, result.output
    (app,) = served
    quota = app.extensions["catalog"].limits.gate.quota
    assert (quota and quota.seconds) == seconds
    app.extensions["catalog"].dispose()


def test_a_server_whose_quota_store_is_gone_still_computes(gated):
    # Nothing listens on port 1: every count goes to the process.
    app = gated(QUOTA_SECONDS=100_000, QUOTA_STORAGE="redis://127.0.0.1:1/0")
    assert grundy(app.test_client(), 40).status_code == 200
