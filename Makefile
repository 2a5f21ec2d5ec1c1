# One command set for people and CI. `make run` and `make test` install what is missing first:
# a virtualenv with the package, and Debian's chromium when no browser is found.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: help setup browser run test bench clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed: installing python3-venv"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip && \
	  rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); }

$(STAMP): pyproject.toml | $(BIN)/python
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

setup: $(STAMP) browser  ## install everything

run: setup  ## the service with its demo at http://127.0.0.1:8000/demo/
	$(BIN)/pling-browser serve --host $(HOST) --port $(PORT)

test: setup  ## the whole test suite against a real Chromium
	$(BIN)/python -m pytest

$(VENV)/.bench-installed: pyproject.toml | $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	@touch $@

bench: setup $(VENV)/.bench-installed  ## the benchmarks (tables, bench/results/): latency, MiniWoB++ against Playwright MCP, unseen MiniWoB++ (drafts)
	$(BIN)/python -m bench
	$(BIN)/python -m bench --suite miniwob
	$(BIN)/python -m bench --suite unseen

clean:
	rm -rf $(VENV) .pytest_cache bench/results
