# bench: one-command entry points. Every target installs what it needs (npm ci when node_modules is missing or stale).
SHELL := /bin/bash
.DEFAULT_GOAL := help

# npm ci rewrites node_modules; this stamp records which package-lock it installed.
STAMP := node_modules/.bench-installed

.PHONY: help setup build typecheck lint test backlog backlog-smoke clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

$(STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup: $(STAMP) ## install dependencies (npm ci)

build: $(STAMP) ## bundle scenarios/*.ts -> build/*.js and the runner/emulator -> dist/
	npm run --silent build

typecheck: $(STAMP) ## type-check both worlds (k6 scripts, Node code)
	npx tsc -p tsconfig.k6.json
	npx tsc -p tsconfig.node.json

lint: $(STAMP) ## lint and format check (biome)
	npx biome check .

test: typecheck lint ## type-check, lint and run every test (what CI runs)
	npx vitest run

# Experiment 1 (issue 5) against a fresh local emulator, started and always stopped by scripts/with-emulator.ts.
# Local profile: the real service's limits scaled by 1/32 (2 GiB backlog limit -> 64 MiB, 128 MiB eventual tail ->
# 4 MiB, windows 512 MiB / 1.75 GiB / 2.10 GiB -> 16 / 56 / 67.2 MiB), paced so all three phases fit in 5 minutes.
BACKLOG_EMULATOR := --backlog-limit 64MiB --eventual-tail-limit 4MiB --index-throughput 4MiB
BACKLOG_ENV := -e ALLOW_SMALL_THRESHOLDS=1 -e SEED_ROWS=10000 -e MAX_TOTAL_ROWS=300000 \
	-e LT_START_BYTES=16MiB -e LT_CAP_BYTES=56MiB -e GT_START_BYTES=67.2MiB \
	-e QUERY_DURATION_S=30 -e QUERY_WARMUP_S=5 -e QUERY_RATE=20 -e WRITERS=2 -e PHASE_TIMEOUT_S=30
# Smoke profile: the issue's published smoke values against an emulator with a matching (scaled) limit.
SMOKE_EMULATOR := --backlog-limit 6MiB --eventual-tail-limit 512KiB --index-throughput 512KiB
SMOKE_ENV := -e ALLOW_SMALL_THRESHOLDS=1 -e SEED_ROWS=1000 -e MAX_TOTAL_ROWS=10000 -e QUERY_DURATION_S=5 \
	-e QUERY_WARMUP_S=1 -e LT_START_BYTES=1MiB -e LT_CAP_BYTES=4MiB -e GT_START_BYTES=8MiB \
	-e QUERY_RATE=10 -e WRITERS=1 -e PHASE_TIMEOUT_S=15 -e RESULTS_DIR=results/scratch

backlog: build ## experiment 1: querying while indexing, local profile against the emulator (<= 5 min)
	@mkdir -p results
	npx tsx scripts/with-emulator.ts $(BACKLOG_EMULATOR) -- build/backlog.js $(BACKLOG_ENV) $(ARGS)

backlog-smoke: build ## experiment 1 with the published smoke values (< 2 min; results/scratch/)
	@mkdir -p results/scratch
	npx tsx scripts/with-emulator.ts $(SMOKE_EMULATOR) -- build/backlog.js $(SMOKE_ENV) $(ARGS)

clean: ## remove generated bundles
	rm -rf build dist
