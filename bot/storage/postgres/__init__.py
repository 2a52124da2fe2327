"""PostgreSQL persistence: the same :class:`bot.storage.protocol.Store` API on an asyncpg pool.

Chosen by the database URL (``MAGISTER_DB=postgresql://…``, see :mod:`bot.storage.database`), so several
Magister processes can share one database. What keeps them correct:

- every write runs in a transaction that takes a transaction-scoped advisory lock per campaign it
  touches (``pg_advisory_xact_lock(campaign id)``), so actions on one campaign serialize across
  processes, and still checks the version it read (:class:`StaleCampaignError` otherwise);
- a timer is claimed with ``FOR UPDATE SKIP LOCKED``: of two processes firing it, one claims it and the
  other gets :class:`TimerClaimedError` at once, so it fires exactly once;
- after each commit the writer draws from the ``magister_writes`` sequence (non-transactional, so no row
  every write fights over); a gap in the numbers it draws, or a ``last_value`` beyond what it drew, means
  another process committed: :attr:`PgStore.generation` moves and the service drops its cache.

Writes commit in groups, as on SQLite (writes that arrive while one transaction runs share the next; if any
job fails, the group rolls back and each job is retried alone), on a few writer connections side by side, a
campaign's writes always on the same one. An action's writes are data (:class:`bot.storage.action.ActionWrite`):
a group's actions run in two statements whatever their number. Other write jobs are plain (synchronous) functions
of a ``WriteTx``, as on SQLite; they run in a greenlet on the event loop, each statement awaited in turn.

The modules, bottom up (each imports only those above it):

- :mod:`~bot.storage.postgres.errors`: :class:`PgStoreOpenError`, :func:`redact`, the dropped-connection retry,
  and the driver's connection errors as :class:`bot.storage.rows.DatabaseUnavailableError`;
- :mod:`~bot.storage.postgres.migrations`: ``PG_MIGRATIONS`` and :func:`~bot.storage.postgres.migrations.migrate`;
- :mod:`~bot.storage.postgres.statements`: the SQL of every write (``Statements``), ``?`` placeholders;
- :mod:`~bot.storage.postgres.batch`: a group's actions in two statements;
- :mod:`~bot.storage.postgres.bridge`: sync jobs on the loop (greenlet);
- :mod:`~bot.storage.postgres.writer`: ``PgWriter`` (writer lanes, group commit, ``magister_writes``),
  ``PgWriteTx``, ``PgTransaction``;
- :mod:`~bot.storage.postgres.store`: :class:`PgStore`: open, close, the reads.
"""

from bot.storage.postgres.errors import PgStoreOpenError, redact
from bot.storage.postgres.store import PgStore

__all__ = ["PgStore", "PgStoreOpenError", "redact"]
