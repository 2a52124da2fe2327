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

# The suite runs twice, at once: on SQLite, and on a throwaway PostgreSQL cluster when PostgreSQL is installed
# (tests/support/pg_cluster.py starts it on a unix socket in a temporary folder and stops it by its PID). The two
# passes share nothing (each its own files or databases), so they run side by side, one per core; the PostgreSQL
# pass's output is kept in .pytest-postgresql.log and printed when both are done.
# MAGISTER_REQUIRE_POSTGRES=1 (CI) makes a missing PostgreSQL an error instead of a skipped pass.
test: $(VENV)/installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	@pg=""; \
	if $(PY) -m tests.support.pg_cluster --check; then \
		echo "PostgreSQL's pass runs beside SQLite's; its output follows SQLite's."; \
		$(PY) -m tests.support.pg_cluster -- $(PY) -m pytest -p no:cacheprovider >.pytest-postgresql.log 2>&1 & pg=$$!; \
	elif [ -n "$$MAGISTER_REQUIRE_POSTGRES" ]; then \
		echo "PostgreSQL is not installed (apt-get install -y postgresql)"; exit 1; \
	else \
		echo "PostgreSQL is not installed: the PostgreSQL pass is skipped (apt-get install -y postgresql)"; \
	fi; \
	status=0; $(PY) -m pytest || status=$$?; \
	if [ -n "$$pg" ]; then \
		pg_status=0; wait $$pg || pg_status=$$?; \
		echo "==== the PostgreSQL pass ===="; cat .pytest-postgresql.log; \
		[ $$pg_status -eq 0 ] || status=$$pg_status; \
	fi; \
	exit $$status

bench: $(VENV)/installed
	$(PY) -m bot.bench
