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

# The suite runs twice: on SQLite, then on a throwaway PostgreSQL cluster when PostgreSQL is installed
# (tests/support/pg_cluster.py starts it on a unix socket in a temporary folder and stops it by its PID).
# MAGISTER_REQUIRE_POSTGRES=1 (CI) makes a missing PostgreSQL an error instead of a skipped pass.
test: $(VENV)/installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest
	@if $(PY) -m tests.support.pg_cluster --check; then \
		$(PY) -m tests.support.pg_cluster -- $(PY) -m pytest; \
	elif [ -n "$$MAGISTER_REQUIRE_POSTGRES" ]; then \
		echo "PostgreSQL is not installed (apt-get install -y postgresql)"; exit 1; \
	else \
		echo "PostgreSQL is not installed: the PostgreSQL pass is skipped (apt-get install -y postgresql)"; \
	fi

bench: $(VENV)/installed
	$(PY) -m bot.bench
