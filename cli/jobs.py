"""``wythoff enqueue``, ``wythoff worker`` and ``wythoff jobs``: the queue of
fills and the processes that drain it (:mod:`catalog.service.jobs`).

Nothing heavy is imported here at module level: the service (numpy, numba
kernels) is imported by the commands when they run.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from catalog.cli.output import count, table
from catalog.cli.params import Integer

STATES = ("queued", "running", "done", "failed")


def render(doc: dict[str, Any]) -> str | None:
    """The text form of a job list (``jobs --all``, ``enqueue``), of the
    queue's summary (``jobs``), or None for other documents."""
    if "counts" in doc and "running" in doc and "failed" in doc:
        return render_summary(doc)
    if "jobs" in doc and isinstance(doc["jobs"], list) and len(doc) == 1:
        rows = [
            (
                str(j["id"]),
                j["entry"],
                str(j["n"]),
                j["state"],
                f"{j.get('done', 0)}/{j['n']}",
                f"{j['rate']:g}/s" if j.get("rate") else "-",
                f"{j['eta']} s" if j.get("eta") is not None else "-",
                j.get("worker") or "-",
                str(j.get("attempts", 0)),
                j.get("error") or "",
            )
            for j in doc["jobs"]
        ]
        header = ("JOB", "ENTRY", "N", "STATE", "DONE", "RATE", "ETA", "WORKER")
        return table((*header, "ATTEMPTS", "ERROR"), rows) if rows else "no jobs"
    return None


def render_summary(doc: dict[str, Any]) -> str:
    """``wythoff jobs``: the jobs in each state, what runs (rate, ETA) and
    what failed; the whole list is ``--all`` or ``--json``."""
    counts = doc["counts"]
    total = sum(counts.values())
    if not total:
        return "no jobs"
    states = ", ".join(f"{counts[s]:,} {s}" for s in STATES if counts[s])
    lines = [f"{count(total, 'job')}: {states}"]
    for state, header, row in (
        ("running", ("JOB", "ENTRY", "N", "DONE", "RATE", "ETA", "WORKER"), _running),
        ("failed", ("JOB", "ENTRY", "N", "ATTEMPTS", "ERROR"), _failed),
    ):
        shown = doc[state]
        if not shown:
            continue
        more = counts[state] - len(shown)
        lines.append(f"\n{state}" + (f" (the latest {len(shown)})" if more else ""))
        lines.append(table(header, [row(j) for j in shown]))
        if more:
            lines.append(f"and {more:,} more: wythoff jobs --state {state}")
    lines.append("\nevery job: wythoff jobs --all, or --state STATE, or --json")
    return "\n".join(lines)


def _running(j: dict[str, Any]) -> tuple[str, ...]:
    return (
        str(j["id"]),
        j["entry"],
        str(j["n"]),
        f"{j['done']}/{j['n']}",
        f"{j['rate']:g}/s" if j.get("rate") else "-",
        f"{j['eta']} s" if j.get("eta") is not None else "-",
        j.get("worker") or "-",
    )


def _failed(j: dict[str, Any]) -> tuple[str, ...]:
    error = (j.get("error") or "").splitlines()
    return (
        str(j["id"]),
        j["entry"],
        str(j["n"]),
        str(j["attempts"]),
        error[0] if error else "",
    )


def register(cli: click.Group) -> None:
    """Add the queue's commands to the ``wythoff`` group."""
    from catalog.cli.main import common, takes_format

    @cli.command()
    @click.argument("entry_ids", metavar="ID...", nargs=-1, required=True)
    @click.option(
        "--n", "n", type=Integer(0), required=True, help="Fill up to N columns."
    )
    @click.option(
        "--priority",
        type=Integer(-1000, 1000),
        default=0,
        show_default=True,
        help="Higher runs first (requests of the API queue theirs at 10).",
    )
    @common
    def enqueue(
        store: Any, entry_ids: tuple[str, ...], n: int, priority: int
    ) -> dict[str, Any]:
        """Queue fills of the entries up to N for 'wythoff worker'; a fill
        already queued or running for the entry and bound is that job."""
        from catalog.service import jobs

        return jobs.enqueue(store, entry_ids, n, priority)

    @cli.command()
    @click.option(
        "--processes",
        type=Integer(1, 256),
        default=1,
        show_default=True,
        help="Worker processes to run (one job at a time each).",
    )
    @click.option("--once", is_flag=True, help="Run at most one job, then exit.")
    @click.option(
        "--max-idle",
        type=Integer(0),
        default=None,
        metavar="S",
        help="Exit after S seconds with nothing to do (default: run until stopped).",
    )
    @common
    def worker(
        store: Any, processes: int, once: bool, max_idle: int | None
    ) -> dict[str, Any]:
        """Drain the queue of fills: take a job, compute its chunks (each
        committed with a heartbeat) and the entry's invariants, repeat.
        SIGTERM or Ctrl-C: finish the current chunk, put the job back, exit 0.
        A job whose worker died is taken over within the lease (45 s)."""
        from catalog.service import jobs

        jobs.connect(store)  # migrate once, before any worker starts
        if processes > 1:
            return _processes(store, processes, once, max_idle)
        return _work(store, once, max_idle)

    @cli.command("jobs")
    @click.option("--state", type=click.Choice(STATES), help="Only jobs in STATE.")
    @click.option(
        "--cancel",
        type=Integer(1),
        metavar="JOB",
        help="Cancel a queued or running job first (its worker stops at its "
        "next chunk).",
    )
    @click.option(
        "--all",
        "every",
        is_flag=True,
        help="List every job (up to --limit), not the summary.",
    )
    @click.option(
        "--limit",
        type=Integer(1, 100_000),
        default=1000,
        show_default=True,
        help="Most jobs listed (--all, --state, --json).",
    )
    @common
    @takes_format
    def jobs_(
        store: Any,
        state: str | None,
        cancel: int | None,
        every: bool,
        limit: int,
        as_json: bool,
    ) -> dict[str, Any]:
        """The queue at a glance: the jobs in each state, the running ones
        (progress, rate, ETA, worker) and the latest failures. --all, --state
        and --json list the jobs: entry, bound, state, progress (columns done
        of wanted), rate, ETA, worker, attempts, error."""
        from catalog.service import jobs

        if cancel is not None:
            jobs.cancel(store, cancel)
        if as_json or every or state is not None:
            return jobs.jobs(store, state, limit)
        return jobs.summary(store)


def queue_seeded(store: Any, ids: list[str], n: int) -> list[int]:
    """``wythoff seed --queue``: the fills of the seeded entries queued (the
    workers compute them and their invariants); their job IDs."""
    from catalog.service import jobs

    return [job["id"] for job in jobs.enqueue(store, ids, n)["jobs"]]


def _work(store: Any, once: bool, max_idle: int | None) -> dict[str, Any]:
    import logging
    import signal

    from catalog.service import jobs

    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s worker %(process)d: %(message)s",
    )
    stopping = [False]

    def stop(_signum: int, _frame: Any) -> None:
        stopping[0] = True

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        return jobs.work(
            store,
            once=once,
            max_idle=max_idle,
            stopping=lambda: stopping[0],
        )
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _processes(
    store: Any, processes: int, once: bool, max_idle: int | None
) -> dict[str, Any]:
    """K worker processes of this command; SIGTERM and Ctrl-C are passed on
    to them, and their summaries added up."""
    import json
    import os
    import signal
    import subprocess

    command = [sys.executable, "-m", "catalog.cli", "worker", "--json"]
    # The URL through the environment: a password is not shown by ps.
    env = {**os.environ, "WYTHOFF_DATABASE_URL": store.settings.database_url}
    if once:
        command.append("--once")
    if max_idle is not None:
        command += ["--max-idle", str(max_idle)]
    children = [
        subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        for _ in range(processes)
    ]

    def forward(signum: int, _frame: Any) -> None:
        for child in children:
            if child.poll() is None:
                child.send_signal(signum)

    previous = {s: signal.signal(s, forward) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        outputs = [child.communicate()[0] for child in children]
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    total: dict[str, Any] = {"processes": processes, "ok": True}
    for child, out in zip(children, outputs, strict=True):
        if child.returncode != 0:
            total["ok"] = False
        try:
            summary = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            continue
        for key, value in summary.items():
            if isinstance(value, int):
                total[key] = total.get(key, 0) + value
    return total
