"""A full last page says that nothing follows (``next: null``), and the page
before it says where the last one starts: p-positions, sequences, entries
and search, on both databases."""

from catalog import p_positions
from catalog.store.seed import read_seed, seed_dir

MAHARAJA = read_seed(seed_dir() / "W000004.json")["definition"]


def get(client, url):
    response = client.get("/api/v1" + url)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_p_positions(client):
    everything = p_positions(MAHARAJA, 30).tolist()
    k = len(everything)
    url = "/entries/W000004/p-positions?n=30"
    assert get(client, f"{url}&limit={k}") == {
        "id": "W000004",
        "n": 30,
        "positions": everything,
        "next": None,
    }
    before = get(client, f"{url}&limit={k - 1}")
    assert before["positions"] == everything[:-1]
    x, y = everything[-1]
    assert before["next"] == (
        f"/api/v1/entries/W000004/p-positions?n=30&start={x}&start_y={y}"
        f"&limit={k - 1}&format=json"
    )
    assert get(client, before["next"].removeprefix("/api/v1"))["next"] is None


def test_sequences(client):
    get(client, "/entries/W000004/p-positions?n=100&limit=1")  # computes y(x)
    whole = get(client, "/entries/W000004/sequences/y?limit=100")
    assert whole["length"] == 100 and len(whole["terms"]) == 100
    assert whole["next"] is None and whole["capped"] is False
    last = get(client, "/entries/W000004/sequences/y?start=60&limit=40")
    assert last["terms"] == whole["terms"][60:] and last["next"] is None
    assert get(client, "/entries/W000004/sequences/y?start=60&limit=39")["next"] == 99


def test_entries(client):
    everything = get(client, "/entries?limit=1000")["entries"]
    count = len(everything)
    assert count >= 20
    full = get(client, f"/entries?limit={count}")
    assert full["entries"] == everything and full["next"] is None
    first = get(client, f"/entries?limit={count - 1}")
    assert first["entries"] == everything[:-1] and first["next"]
    last = get(client, f"/entries?limit=1&cursor={first['next']}")
    assert last == {"entries": everything[-1:], "next": None}


def test_search(client):
    get(client, "/entries/W000004/p-positions?n=100&limit=1")
    get(client, "/entries/W000001/p-positions?n=100&limit=1")
    everything = get(client, "/search?q=0,1,0,0,1&limit=1000")
    results = everything["results"]
    count = len(results)
    assert count >= 2 and everything["next"] is None
    assert get(client, f"/search?q=0,1,0,0,1&limit={count}") == everything
    last = get(client, f"/search?q=0,1,0,0,1&offset={count - 1}&limit=1")
    assert last == {"query": [0, 1, 0, 0, 1], "results": results[-1:], "next": None}
    before = get(client, f"/search?q=0,1,0,0,1&limit={count - 1}")
    assert before["results"] == results[:-1] and before["next"] == count - 1
