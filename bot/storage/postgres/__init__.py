"""PostgreSQL persistence: the same :class:`bot.storage.protocol.Store` API on an asyncpg pool."""

from bot.storage.postgres.store import PgStore, PgStoreOpenError, redact

__all__ = ["PgStore", "PgStoreOpenError", "redact"]
