# The README's two commands: `make demo` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test demo bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found; set PYTHON=/path/to/python3.11"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip setuptools
	# torch first, pinned: the CPU build; an unpinned one pulls CUDA wheels.
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev,local]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

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
