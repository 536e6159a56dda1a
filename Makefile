.PHONY: help install test lint fmt docs serve-docs mutate mutate-strings mutate-templates bench bench-api bench-cli bench-cost bench-batches bench-families bench-fills bench-pages bench-search bench-seed bench-theory bench-identify bench-identify-beatty bench-gate bench-copy bench-warm bench-workers bench-cones bench-cones-survey bench-block bench-star serve
PY ?= .venv/bin/python

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

install:  ## create .venv with the package and its test dependencies
	python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]'

test:  ## lint, type-check and run the tests
	.venv/bin/ruff check . && .venv/bin/mypy && $(PY) -m pytest

lint:  ## ruff and mypy
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy

fmt:  ## format the code
	.venv/bin/ruff format . && .venv/bin/ruff check --fix .

mutate:  ## mutation testing (tools/mutate.py): every listed module and the templates, or MODULE=catalog/inputs.py
	.venv/bin/pip install -q -e '.[mutate]' && $(PY) tools/mutate.py $(MODULE) $(ARGS)
	$(if $(MODULE),,$(PY) tools/mutate_templates.py)
	$(if $(MODULE),,$(PY) tools/mutate.py --strings)

mutate-strings:  ## the string constants of the queue's modules (tools/mutate.py --strings: its states, job keys, errors), or MODULE=catalog/store/jobs.py
	.venv/bin/pip install -q -e '.[mutate]' && $(PY) tools/mutate.py --strings $(MODULE) $(ARGS)

mutate-templates:  ## the templates' escaping: |safe added to each {{ ... }} in turn (tools/mutate_templates.py)
	$(PY) tools/mutate_templates.py

docs:  ## the documentation site from docs/ into site/ (mkdocs.yml; pip install -e '.[docs]')
	.venv/bin/mkdocs build --strict

serve-docs:  ## the documentation site at http://127.0.0.1:8001/ while you edit docs/
	.venv/bin/mkdocs serve -a 127.0.0.1:8001

bench:  ## the compute engine's goals (benchmarks/run.py)
	$(PY) benchmarks/run.py

bench-api:  ## the read API under load: one page, then the mix on SQLite and PostgreSQL (benchmarks/api.py)
	$(PY) benchmarks/api.py
	$(PY) benchmarks/api.py --mix

bench-star:  ## Beatty games, their star and Maharaja* through p_positions: goals at 10^4, the largest n in a minute (benchmarks/star.py)
	$(PY) benchmarks/star.py

bench-gate:  ## a reader beside 32 heavy clients, and the quota across processes (benchmarks/gate.py; needs Redis)
	$(PY) benchmarks/gate.py

bench-copy:  ## wythoff db copy into SQLite and PostgreSQL on the full family catalog (benchmarks/snapshot.py)
	$(PY) benchmarks/snapshot.py

bench-warm:  ## p99 of a fresh gunicorn's first 15 s under the mixed load (benchmarks/warm.py)
	$(PY) benchmarks/warm.py

bench-cones:  ## issue 40's engines: cone sweep vs Maharaja at 10^6, mex paths vs closed form at 10^7, dense (benchmarks/cones.py)
	$(PY) benchmarks/cones.py

bench-cones-survey:  ## goal 2 of issue 40 on 40 random cone games (benchmarks/cones.py --survey 40)
	$(PY) benchmarks/cones.py --survey 40

bench-block:  ## the blocking sweep: Blocking Wythoff and Maharaja (block 1..4) vs Maharaja Nim at 10^6, CPU ratios (benchmarks/block.py)
	$(PY) benchmarks/block.py

bench-cli:  ## how fast the command starts, as ratios to python -c "import ..." (benchmarks/cli.py)
	$(PY) benchmarks/cli.py

bench-fills:  ## peak memory of the store's fills at n = 10^7 on SQLite (benchmarks/fills.py)
	$(PY) benchmarks/fills.py

bench-pages:  ## entry pages: render time and page weight (benchmarks/pages.py)
	$(PY) benchmarks/pages.py

bench-theory:  ## invariants: adjoinable, far-out is-p, each seed's invariants (benchmarks/theory.py)
	$(PY) benchmarks/theory.py

bench-identify:  ## identify: the seeds recognised, random games explained, the times (benchmarks/identify.py)
	$(PY) benchmarks/identify.py

bench-identify-beatty:  ## identify on Beatty data as a new process: the star proposals, 2-Wythoff's data under 2 s (benchmarks/identify.py --beatty)
	$(PY) benchmarks/identify.py --beatty

bench-cost:  ## the work estimate: measure its constants, print estimate vs timing (benchmarks/cost.py)
	$(PY) benchmarks/cost.py

bench-families:  ## seed every family, then filtered lists and tables on SQLite and PostgreSQL (benchmarks/families.py)
	$(PY) benchmarks/families.py

bench-batches:  ## seeding in batches: entries a second and CPU an entry, per family (benchmarks/batches.py)
	$(PY) benchmarks/batches.py

bench-seed:  ## wythoff seed on SQLite and PostgreSQL, side by side (benchmarks/seed.py)
	$(PY) benchmarks/seed.py

bench-search:  ## search over 10,000 entries on SQLite and PostgreSQL (benchmarks/search.py)
	$(PY) benchmarks/search.py

bench-workers:  ## the queue: 200 fills at n=10^5 with 1, 2, 8 workers on PostgreSQL (benchmarks/workers.py)
	$(PY) benchmarks/workers.py

serve:  ## run the API for one user on 127.0.0.1:8000
	.venv/bin/wythoff serve
