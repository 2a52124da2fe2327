# Two commands for a fresh machine (README "Quick start"): `make run` and `make test`.
VENV := .venv
PY := $(VENV)/bin/python

$(VENV)/installed: requirements.txt requirements-dev.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

.PHONY: run test lint bench
run: $(VENV)/installed
	$(PY) -m bot

test: $(VENV)/installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest

bench: $(VENV)/installed
	$(PY) -m bot.bench
