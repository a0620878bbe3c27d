# bench: one-command entry points. Every target installs what it needs (npm ci when node_modules is missing or stale).
SHELL := /bin/bash
.DEFAULT_GOAL := help

# npm ci rewrites node_modules; this stamp records which package-lock it installed.
STAMP := node_modules/.bench-installed

.PHONY: help setup venv chromium build typecheck lint layering unused test publish bench-emulator bench-runner try-k6-scripts try-tpuf-benchmark fuzz clean \
	consistency-checker consistency

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'
	@test -d node_modules/tsx && node --import tsx cli/experiments/run-experiment.ts --list || \
		echo '  make <experiment>[-smoke] one of: $(EXPERIMENTS) (make setup, then make help, describes them)'

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

# The layering of the top-level parts and no import cycles (rules and reasons: .dependency-cruiser.cjs).
layering: $(STAMP) ## check the parts import only what the layering allows (dependency-cruiser)
	npx depcruise cli core charts runner emulator report lib scenarios scripts benchmarks tests --config .dependency-cruiser.cjs

# Headless Chromium from the Debian package, for the browser test of the HTML reports and `bench report --screenshot`
# (playwright-core drives it; no browser is ever downloaded).
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium

chromium: $(CHROMIUM) ## install headless Chromium (Debian package) for the browser test

# Dead exports, files and dependencies (entries and exceptions: knip.json).
unused: $(STAMP) ## find unused files, exports and dependencies (knip)
	npx knip

# The consistency suite's checker (tests/consistency/checker/): a Go program using porcupine as a library, built
# with this machine's Go (modules from its Go proxy) into .cache/go-bin/ whenever a source is newer.
CHECKER := .cache/go-bin/consistency-checker
CHECKER_SRC := $(wildcard tests/consistency/checker/*.go) tests/consistency/checker/go.mod tests/consistency/checker/go.sum

$(CHECKER): $(CHECKER_SRC)
	mkdir -p $(dir $(CHECKER))
	cd tests/consistency/checker && go build -buildvcs=false -o $(CURDIR)/$(CHECKER) .

consistency-checker: $(CHECKER) ## build the consistency suite's checker (Go, porcupine)

test: typecheck lint layering unused $(VENV_STAMP) $(CHROMIUM) $(CHECKER) ## type-check, lint, layering, unused code and every test (what CI runs)
	npx vitest run

# HISTORIES=n (1,000 by default); CONSISTENCY_SEED, CONSISTENCY_OPS, CONSISTENCY_CLIENTS, CONSISTENCY_KILLS as in
# tests/consistency/consistency.test.ts. Stops at the first history that fails and prints its seed.
consistency: $(STAMP) $(CHECKER) ## the long consistency run: 1,000 histories of 8 clients with kill -9 (emulator/README.md)
	CONSISTENCY_HISTORIES=$(or $(HISTORIES),1000) npx vitest run tests/consistency/consistency.test.ts

# INSTANCES=N runs an experiment as N execution segments in N processes against the same target, with one merged
# result (`bench run --instances N`, a bench extension: runner/README.md).
INSTANCES_FLAG := $(if $(INSTANCES),--instances $(INSTANCES))

# Every experiment target goes through cli/experiments/run-experiment.ts, which picks the target by one rule and prints it
# (cli/experiments/target-rule.ts): BENCH_TARGET=emulator|service if given, else the real service when TURBOPUFFER_API_KEY
# is set and a fresh local emulator when it is not. Profiles: cli/experiments/experiments.ts. ARGS go to `bench run`.
# Results go to runs/ (ignored by git); `make publish` copies one into results/.
# Plain node with tsx's loader, not `npx tsx`: Ctrl+C reaches every process of the foreground group, and npm and the
# tsx CLI each relay it once more to their child, so the launcher could forward a second SIGINT to bench run, which
# k6 reads as "exit now": the run then ended with no teardown and no result (seen in 2 of 3 tries).
RUN_EXPERIMENT = node --import tsx cli/experiments/run-experiment.ts $@ $(INSTANCES_FLAG) $(ARGS)
# A failed run has said why already: ending make by SIGPIPE, which neither make nor the shell reports, spares the
# "make: *** [target] Error N" line after the message (make then exits 141 instead of 2).
QUIET_FAIL = || kill -PIPE $$PPID
# Every run ends with its report (charts, the Markdown's charts section, the HTML page beside the result, wherever
# RESULTS_DIR put it), drawn by the launcher whether or not its thresholds held; the run's own exit status is make's.
# On Ctrl+C the run stops gracefully and writes its aborted result, and the launcher draws it: a trap that runs a
# command (unlike an ignored signal, not inherited by children) keeps the recipe's /bin/sh from dying with the
# keypress, so make waits for the launcher instead of returning the prompt while it still draws.
RUN_AND_REPORT = trap : INT; $(RUN_EXPERIMENT)

# Every folder of lib/ with an experiment.ts is an experiment (lib/experiment.ts): `make <name>` runs its local
# profile against a fresh emulator (its real-service profile with TURBOPUFFER_API_KEY), `make <name>-smoke` its
# smoke profile. `make help` lists them with their profiles; docs/adding-an-experiment.md adds one.
EXPERIMENTS := $(patsubst lib/%/experiment.ts,%,$(wildcard lib/*/experiment.ts))
EXPERIMENT_TARGETS := $(EXPERIMENTS) $(addsuffix -smoke,$(EXPERIMENTS))
.PHONY: $(EXPERIMENT_TARGETS)
$(EXPERIMENT_TARGETS): build
	@$(RUN_AND_REPORT) $(QUIET_FAIL)

# RUN=runs/<name>.json (or .md); the newest run in runs/ by default.
publish: build $(CHROMIUM) ## copy a run's .md and .json from runs/ into results/ with its charts, HTML report and screenshot, to commit them (RUN=runs/<file>)
	@node bin/bench.js publish $(RUN) $(QUIET_FAIL)

# Emulator figures (issue 4): 1M x 768 by default; BENCH_N=20000 for a quick check. See emulator/README.md.
bench-emulator: build ## emulator figures: ingest, indexing, eventual/strong ANN, recall, memory, write stall
	npx tsx benchmarks/bench-emulator.ts

bench-runner: build ## runner vs vegeta (Go, installed by the script) on one loopback Go endpoint: CPU per request, drops, p99, VU start-up
	npx tsx benchmarks/bench-runner.ts

# k6 scripts written by others through `bench run`, each in a loopback-only network namespace (unshare -n), one VU
# and one iteration, killed at TRY_TIMEOUT seconds: docs/runner-measurements.md §5 on k6's examples and documentation.
try-k6-scripts: build $(CHROMIUM) ## run k6 scripts of others offline, print each exit code (K6_SCRIPTS=<dir of scripts> or K6_DOCS=<dir of Markdown>)
	@npx tsx benchmarks/try-k6-scripts.ts

# turbopuffer's benchmark tool (tpuf-benchmark's tpufbench, built elsewhere) runs each of its .toml definitions, made
# small, against a fresh emulator in a loopback-only network namespace: emulator/README.md's figures for the tool.
try-tpuf-benchmark: build ## run tpufbench's definitions small against the emulator (TPUF_BENCHMARK=<binary> TPUF_BENCHMARK_DEFS=<dir>)
	@TPUF_BENCHMARK=$(TPUF_BENCHMARK) TPUF_BENCHMARK_DEFS=$(TPUF_BENCHMARK_DEFS) npx tsx benchmarks/try-tpuf-benchmark.ts

# Issue 14's fuzz suite at length: hostile write/query/schema/metadata bodies against a real emulator process. make test
# runs the same suite with 2,000 cases and a fixed seed; a failure prints its seed and case to rerun with FUZZ_SEED=.
fuzz: build ## fuzz the emulator with hostile bodies (FUZZ_RUNS=50000 by default, a fresh FUZZ_SEED each run)
	FUZZ_RUNS=$${FUZZ_RUNS:-50000} FUZZ_SEED=$${FUZZ_SEED:-$$RANDOM} npx vitest run tests/emulator/fuzz.test.ts

clean: ## remove generated bundles
	rm -rf build dist
