# One command set for people and CI. `make run` and `make test` install what is missing first:
# a virtualenv with the package, and Debian's chromium when no browser is found; `make test` also the
# npm toolchain (node_modules, from package-lock.json), which the JavaScript parts build and check with.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000
# Test files run on this many pytest-xdist workers, a whole file per worker (docs/testing.md);
# TEST_WORKERS=0 runs them one after another in this process.
TEST_WORKERS ?= 2

.PHONY: help setup browser nginx wordnet node node_modules js run test bench clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed: installing python3-venv"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip && \
	  rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); }

$(STAMP): pyproject.toml pling_browser/__init__.py | $(BIN)/python  # __init__.py: the version is read from it
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)

browser:  ## make sure a Chromium exists (PLING_CHROMIUM, the system's, else install one)
	@if [ -n "$$PLING_CHROMIUM" ] && [ -x "$$PLING_CHROMIUM" ]; then exit 0; fi; \
	if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "no system chromium and no root apt-get: installing Playwright's own browser"; \
	  $(BIN)/python -m playwright install chromium; \
	fi

# The npm toolchain: one install for every JavaScript part (package.json at the root, its workspaces
# such as js/). A part that needs more adds it to its own package.json and the lock; nothing else here.
NODE_STAMP := node_modules/.installed

node:  ## make sure node and npm exist (Debian's when missing)
	@if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian's nodejs and npm"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
	else echo "node and npm are needed (and no root apt-get to install them)"; exit 1; fi

# --ignore-scripts: no package's install script runs (esbuild's only checks its binary, which its
# platform package already holds); the same on every npm, which differ on whether they ask first.
$(NODE_STAMP): package.json package-lock.json js/package.json tests/mcp_ts/package.json | node
	npm ci --no-audit --no-fund --ignore-scripts
	@touch $@

node_modules: $(NODE_STAMP)  ## the npm toolchain (npm ci)

js: $(NODE_STAMP)  ## build the bridge (js_bridge/dist) and the declaration package (js/dist) with its example pages; commit what changes
	node js_bridge/build.mjs
	node js/build.mjs

nginx:  ## make sure nginx exists for the router test (tests/test_router.py): Debian's, as root
	@if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian's nginx (the router test runs docker/nginx/ in front of two replicas)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
	else \
	  echo "no nginx and no root apt-get: tests/test_router.py will be skipped (and fail under CI=true)"; \
	fi

# Bench only (the product never reads it): the generic MiniWoB++ policy's thesaurus (bench/miniwob/thesaurus.py)
# reads Princeton WordNet from /usr/share/wordnet; without it, words alike in meaning are not found.
wordnet:  ## make sure WordNet's files exist for the bench's thesaurus: Debian's wordnet-base, as root
	@if [ -f /usr/share/wordnet/index.noun ]; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian's wordnet-base (the bench's thesaurus: words similar in meaning)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base >/dev/null; \
	else \
	  echo "no WordNet and no root apt-get: the thesaurus test is skipped (and fails under CI=true)"; \
	fi

setup: $(STAMP) browser  ## install everything

run: setup  ## the service with its demo at http://127.0.0.1:8000/demo/
	$(BIN)/pling-browser serve --host $(HOST) --port $(PORT)

test: setup nginx wordnet $(NODE_STAMP)  ## the whole test suite against a real Chromium (TEST_WORKERS files at once)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

$(VENV)/.bench-installed: pyproject.toml | $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	@touch $@

bench: setup wordnet $(VENV)/.bench-installed  ## the benchmarks (tables, bench/results/): latency, MiniWoB++ against Playwright MCP, unseen MiniWoB++ (drafts)
	$(BIN)/python -m bench
	$(BIN)/python -m bench --suite miniwob
	$(BIN)/python -m bench --suite unseen

clean:
	rm -rf $(VENV) .pytest_cache bench/results node_modules
