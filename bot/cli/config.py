"""Settings from the environment and ``.env``.

The token is a ``SecretStr`` so it never appears in a repr, a log line or a
traceback. Bad settings stop the program with one clear line and exit code 2.

Read as pydantic-settings would (a variable named like the field in any case; the environment over ``.env``
over the defaults; keyword arguments over both), by a plain model: importing pydantic-settings cost ~30 ms of
every start (issue 23).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any, Literal, NoReturn
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

EXIT_BAD_CONFIG = 2
ENV_FILE = ".env"


def environment_values(fields: dict[str, Any], env_file: str | Path | None = ENV_FILE) -> dict[str, Any]:
    """The values of these fields from ``env_file`` (python-dotenv's syntax, read only when it exists), then from
    the environment, which wins; names match in any case (``DISCORD_TOKEN`` sets ``discord_token``)."""
    values: dict[str, Any] = {}
    if env_file is not None and Path(env_file).is_file():
        from dotenv import dotenv_values

        found = dotenv_values(env_file, encoding="utf-8").items()
        values |= {key.lower(): value for key, value in found if value is not None}  # a bare NAME line sets nothing
    values |= {key.lower(): value for key, value in os.environ.items()}
    return {name: values[name] for name in fields if name in values}


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    def __init__(self, _env_file: str | Path | None = ENV_FILE, **values: Any) -> None:
        """Keyword arguments, then the environment, then ``_env_file`` (None: no file), then the defaults."""
        super().__init__(**(environment_values(type(self).model_fields, _env_file) | values))

    discord_token: SecretStr | None = Field(default=None, description="Bot token from the Discord developer portal")
    magister_db: str = Field(
        default="magister.sqlite3",
        description="The database: a SQLite file (path or sqlite:///path) or postgresql://user:password@host/name",
    )
    magister_dev_guild: int | None = Field(default=None, description="Guild that gets instant command sync")
    magister_log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR")
    magister_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL",
        description="FULL: every reply survives power loss. NORMAL: faster, survives a crash of the bot "
        "but an OS crash or power cut can lose the last moments",
    )
    magister_health_port: int | None = Field(
        default=None, ge=1, le=65535, description="Serve /livez and /readyz on this port (docs/deploy.md); unset: off"
    )
    magister_health_host: str = Field(default="127.0.0.1", description="Address the health checks listen on")
    magister_health_max_lag: int = Field(
        default=120, ge=1, description="Seconds the oldest due timer may wait before /readyz says not ready"
    )

    magister_web_port: int | None = Field(
        default=None, ge=1, le=65535, description="Serve the campaigns' pages on this port (docs/web.md); unset: off"
    )
    magister_web_host: str = Field(default="127.0.0.1", description="Address the web pages listen on")
    magister_web_url: str | None = Field(
        default=None,
        description="The pages' public address behind a proxy (https://magister.example.org); "
        "unset: http://MAGISTER_WEB_HOST:MAGISTER_WEB_PORT",
    )
    magister_web_secret: SecretStr | None = Field(
        default=None,
        min_length=32,
        description="The key that signs web links (32 characters or more); unset: one made once and kept in the "
        "database",
    )
    magister_web_link_days: int = Field(default=30, ge=1, le=365, description="Days a new web link opens for")

    @field_validator("discord_token", "magister_web_secret", "magister_web_url", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("magister_db", mode="before")
    @classmethod
    def _path_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, Path) else value

    @field_validator("magister_dev_guild", "magister_health_port", "magister_web_port", mode="before")
    @classmethod
    def _blank_guild_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("magister_synchronous", mode="before")
    @classmethod
    def _upper_synchronous(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("magister_log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @field_validator("magister_web_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip().rstrip("/")
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise ValueError("must be an address such as https://magister.example.org (http:// or https://)")
        return value

    @property
    def web_url(self) -> str | None:
        """Where links point: MAGISTER_WEB_URL, else this process's own address; None while the pages are off."""
        if self.magister_web_port is None:
            return None
        if self.magister_web_url:
            return self.magister_web_url
        host = self.magister_web_host if self.magister_web_host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        return f"http://{host}:{self.magister_web_port}"

    @property
    def token(self) -> str | None:
        return self.discord_token.get_secret_value() if self.discord_token else None


def load_settings(**overrides: object) -> Settings:
    """Read settings, or exit 2 with one line naming the bad variable."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        error = exc.errors()[0]
        name = str(error["loc"][0]).upper() if error["loc"] else "configuration"
        fail(f"bad configuration: {name}: {error['msg']}")


def fail(message: str) -> NoReturn:
    print(f"magister: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_CONFIG)


def configure_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.http").setLevel(max(logging.getLevelName(level), logging.INFO))
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # voice-support warnings: Magister has no voice
