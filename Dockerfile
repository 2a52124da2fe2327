# Magister in a container: the pinned requirements, the code, a non-root user. See docs/deploy.md
# ("Processes and containers") and compose.yaml.
#
#   docker build -t magister .
#   docker run -d --env-file .env -v magister-data:/data magister                # one process, every shard
#   docker run -d --env-file .env magister --shards 0-3 --shard-count 8          # one of several processes

# Build stage: install requirements.txt (every version pinned) into a virtualenv; pip stays here.
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements.txt /tmp/requirements.txt
RUN python -m venv /venv && /venv/bin/pip install --no-compile -r /tmp/requirements.txt

# Run stage: the virtualenv and the code, run as an unprivileged user.
FROM python:3.11-slim-bookworm
ENV PATH=/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    MPLCONFIGDIR=/tmp/matplotlib \
    MAGISTER_DB=/data/magister.sqlite3
RUN groupadd --system --gid 10001 magister \
    && useradd --system --uid 10001 --gid magister --home-dir /app --no-create-home --shell /usr/sbin/nologin magister \
    && mkdir /data && chown magister:magister /data
COPY --from=build /venv /venv
WORKDIR /app
COPY bot/ bot/
COPY cogs/ cogs/
COPY rules/ rules/
COPY data/ data/
COPY docs/rulings.md docs/rulings.md
# Bytecode compiled once here, since PYTHONDONTWRITEBYTECODE keeps the running bot from writing it: without it every
# start compiles ~200 modules from source again (a third of a second; issue 23's start-up figure).
RUN python -m compileall -q bot cogs rules
# Each book validated once here and kept beside its tables (data/<id>/__pycache__/, bot/table/books.py), for the same
# reason: the running bot reads it back instead of parsing and validating the tables again (a change to them or to
# the rules' code is simply validated afresh at that start).
RUN PYTHONDONTWRITEBYTECODE= python -c "from bot.table.registry import Registry; Registry.discover()"
USER magister:magister
# The SQLite file (MAGISTER_DB), backups and exports; a new named volume takes this folder's owner, so the user
# can write it. The working directory too, so a relative MAGISTER_DB (.env.example's) lands here as well.
VOLUME ["/data"]
WORKDIR /data
ENTRYPOINT ["python", "-m", "bot"]
