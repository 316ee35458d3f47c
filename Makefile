# Every target sets itself up: a fresh machine needs only Python 3.10+ and make.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench e2e clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m tether demo

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m tests.bench

clean:
	rm -rf $(VENV) build *.egg-info server/*.egg-info
