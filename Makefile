# bench: one-command entry points. Every target installs what it needs (npm ci when node_modules is missing or stale).
SHELL := /bin/bash
.DEFAULT_GOAL := help

# npm ci rewrites node_modules; this stamp records which package-lock it installed.
STAMP := node_modules/.bench-installed

.PHONY: help setup venv build typecheck lint test backlog backlog-smoke filter-cost filter-cost-smoke bench-emulator bench-runner fuzz clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

$(STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup: $(STAMP) ## install dependencies (npm ci)

# The Python SDK conformance suite (tests/emulator/python, run by tests/emulator/sdk-python.test.ts) needs its own
# virtual environment with the pinned SDK; it is made again whenever the pinned list changes.
VENV := .venv
VENV_STAMP := $(VENV)/.bench-installed
PY_REQUIREMENTS := tests/emulator/python/requirements.txt

$(VENV_STAMP): $(PY_REQUIREMENTS)
	rm -rf $(VENV)
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-input -r $(PY_REQUIREMENTS)
	@touch $@

venv: $(VENV_STAMP) ## Python virtual environment for the Python SDK suite (.venv/, pinned packages)

build: $(STAMP) ## bundle scenarios/*.ts -> build/*.js and the runner/emulator -> dist/
	npm run --silent build

typecheck: $(STAMP) ## type-check both worlds (k6 scripts, Node code)
	npx tsc -p tsconfig.k6.json
	npx tsc -p tsconfig.node.json

lint: $(STAMP) ## lint and format check (biome)
	npx biome check .

test: typecheck lint $(VENV_STAMP) ## type-check, lint and run every test (what CI runs)
	npx vitest run

# INSTANCES=N runs an experiment as N execution segments in N processes against the same target, with one merged
# result (`bench run --instances N`, a bench extension: runner/README.md).
INSTANCES_FLAG := $(if $(INSTANCES),--instances $(INSTANCES))

# Experiment 1 (issue 5) against a fresh local emulator, started and always stopped by scripts/with-emulator.ts.
# The profiles (emulator flags and knobs) live in scripts/backlog-profiles.ts; ARGS go to `bench run`.
backlog: build ## experiment 1: querying while indexing, local profile against the emulator (<= 5 min)
	npx tsx scripts/run-backlog.ts local $(INSTANCES_FLAG) $(ARGS)

backlog-smoke: build ## experiment 1 with the published smoke values (< 2 min; results/scratch/)
	npx tsx scripts/run-backlog.ts smoke $(INSTANCES_FLAG) $(ARGS)

# Experiment 2 (issue 12): the published filter-cost study as one `bench run build/filter-cost.js` against one fresh
# emulator (profiles in scripts/filter-cost-profiles.ts); with TURBOPUFFER_API_KEY (and TPUF_BENCH_CONFIRM_COST=1)
# the real service. ARGS go to bench run (-e SEED=42, -e QUERY_MODE=workers). Knobs: npx bench run build/filter-cost.js -e HELP=1
filter-cost: build ## experiment 2: filterable-attribute cost, 12 configurations x 50,000 rows locally (about 16 min)
	npx tsx scripts/run-filter-cost.ts default $(INSTANCES_FLAG) $(ARGS)

filter-cost-smoke: build ## experiment 2, smoke profile: the whole study at tiny scale in one run (about a minute; results/scratch/)
	npx tsx scripts/run-filter-cost.ts smoke $(INSTANCES_FLAG) $(ARGS)

# Emulator figures (issue 4): 1M x 768 by default; BENCH_N=20000 for a quick check. See emulator/README.md.
bench-emulator: build ## emulator figures: ingest, indexing, eventual/strong ANN, recall, memory, write stall
	npx tsx scripts/bench-emulator.ts

bench-runner: build ## runner vs autocannon on loopback: latency at a fixed rate, max rate with 0 dropped, start lag under 30 MB bodies
	npx tsx scripts/bench-runner.ts

# Issue 14's fuzz suite at length: hostile write/query/schema/metadata bodies against a real emulator process. make test
# runs the same suite with 2,000 cases and a fixed seed; a failure prints its seed and case to rerun with FUZZ_SEED=.
fuzz: build ## fuzz the emulator with hostile bodies (FUZZ_RUNS=50000 by default, a fresh FUZZ_SEED each run)
	FUZZ_RUNS=$${FUZZ_RUNS:-50000} FUZZ_SEED=$${FUZZ_SEED:-$$RANDOM} npx vitest run tests/emulator/fuzz.test.ts

clean: ## remove generated bundles
	rm -rf build dist
