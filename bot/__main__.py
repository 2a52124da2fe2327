"""``python -m bot``: connect to Discord, or open the console table, or sync commands."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sqlite3
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import aiohttp
import discord

from bot.cli import startup
from bot.cli.config import Settings, configure_logging, fail, load_settings

if TYPE_CHECKING:
    from aiohttp import web

    from bot.adapter.client import MagisterBot
    from bot.table.service import TableService

BANNER = (
    "Magister console table. No DISCORD_TOKEN is set, so this is a local table: type /roll expression:3d6, "
    "or put DISCORD_TOKEN in .env and run `python -m bot` to connect to Discord."
)
PIPED_BANNER = (
    "magister: no DISCORD_TOKEN is set, so this is the console table, reading commands from standard input "
    "(put DISCORD_TOKEN in .env to connect to Discord)"
)


def main(argv: list[str] | None = None) -> int:
    from bot.storage.rows import StoreOpenError
    from bot.table.books import BookError

    try:
        return _main(argv)
    except (BookError, StoreOpenError) as exc:
        fail(str(exc))
    except BrokenPipeError:  # `python -m bot console | head -1`: the reader left; so do we, quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second complaint at exit's flush
        return 0


USAGE = """commands:
  (none)              connect to Discord with DISCORD_TOKEN; with none set, the console table (typed, or piped in)
      --shards 0-3 --shard-count 8
                      run only these shards (ranges and numbers, comma-separated) of the whole bot's 8,
                      so several processes split a large bot; --shard-count alone runs all its shards here
  console [--help]    play at the console table, no token needed
  sync [--guild ID]   register the slash commands with Discord (global, or one guild at once)
  backup PATH         copy the database to PATH, safely, even while Magister runs
  port --from A --to B  copy every campaign between databases (SQLite file or postgresql://), verified
  forget --user ID    erase a user's data in every campaign of every server, and print what changed
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, naming what would work
        fail(
            f"{message}; use `python -m bot`, `python -m bot console`, `python -m bot sync` or "
            "`python -m bot backup PATH`, `python -m bot port --from A --to B` or `python -m bot forget --user ID` "
            "(`python -m bot --help` says more)"
        )


def parser() -> argparse.ArgumentParser:
    top = _Parser(
        prog="python -m bot",
        usage="python -m bot [-h] [console | sync | backup PATH | port --from A --to B | forget --user ID] ...",
        description="Magister, a Discord game master for spellcasting games.",
        epilog=USAGE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument(
        "command", nargs="?", choices=["console", "sync", "backup", "port", "forget"], help=argparse.SUPPRESS
    )
    top.add_argument("--shards", help=argparse.SUPPRESS)
    top.add_argument("--shard-count", help=argparse.SUPPRESS)
    top.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return top


@dataclass(frozen=True)
class ShardPlan:
    """Which gateway shards this process runs: ``ids`` of ``count`` (None: Discord's recommended count, all here)."""

    ids: tuple[int, ...] | None = None
    count: int | None = None


def shard_plan(shards: str | None, count: str | None) -> ShardPlan:
    """``--shards`` and ``--shard-count`` as a plan, or ValueError saying what would work."""
    total: int | None = None
    if count is not None:
        if not _whole(count) or int(count) < 1:
            raise ValueError(f"--shard-count {count!r} is not a whole number of shards (1 or more), e.g. 8")
        total = int(count)
    if shards is None:
        return ShardPlan(None, total)
    if total is None:
        raise ValueError(
            f"--shards {shards} needs --shard-count, the number of shards across every process, e.g. "
            f"`--shards {shards} --shard-count 8`"
        )
    ids: list[int] = []
    for part in shards.split(","):
        first, dash, last = part.strip().partition("-")
        if not _whole(first) or (dash and not _whole(last)):
            raise ValueError(f"--shards {shards!r}: {part.strip()!r} is not a shard number or a range like 0-3")
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ValueError(f"--shards {shards!r}: the range {part.strip()} runs backwards; write {high}-{low}")
        if high >= total:
            raise ValueError(
                f"--shards {shards!r}: shard {high} does not exist with --shard-count {total} "
                f"(shards are numbered 0 to {total - 1})"
            )
        ids.extend(range(low, high + 1))
    if len(set(ids)) != len(ids):
        raise ValueError(f"--shards {shards!r} names a shard twice; give each shard once, e.g. 0-1,4")
    return ShardPlan(tuple(sorted(ids)), total)


def _whole(text: str) -> bool:
    """Plain digits 0-9 (``isdigit`` alone lets "²" through)."""
    text = text.strip()
    return text.isascii() and text.isdigit()


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)  # --help prints the commands and exits 0; an unknown one exits 2
    if args.command is not None and (args.shards is not None or args.shard_count is not None):
        fail(
            f"--shards and --shard-count are for running the bot (`python -m bot --shards 0-3 --shard-count 8`), "
            f"not for `{args.command}`"
        )
    try:
        plan = shard_plan(args.shards, args.shard_count)
    except ValueError as error:
        fail(str(error))
    if args.command == "console":
        from bot.cli import console

        startup.pause_collector()  # until the console is ready (bot/cli/startup.py)
        database = console.database_of(args.rest)
        return startup.run(console.run(args.rest), database)
    if args.command == "sync":
        sync_args = argparse.ArgumentParser(prog="python -m bot sync", description="Register slash commands.")
        sync_args.add_argument("--guild", type=int, help="sync to this guild only (instant); default: global")
        parsed = sync_args.parse_args(args.rest)
        settings = load_settings()
        return startup.run(sync(settings, parsed.guild), settings.magister_db)
    if args.command == "backup":
        backup_args = argparse.ArgumentParser(
            prog="python -m bot backup",
            description="Copy the database (MAGISTER_DB) with SQLite's online backup: consistent even while the "
            "bot writes. Restore by stopping Magister and copying the backup over the database file.",
        )
        backup_args.add_argument("path", help="where to write the copy (refused if it exists)")
        parsed = backup_args.parse_args(args.rest)
        return backup(load_settings().magister_db, parsed.path)
    if args.command == "port":
        return run_port(args.rest)
    if args.command == "forget":
        from bot.cli import forget

        return forget.run(args.rest)

    settings = load_settings()
    if settings.token is None and _nothing_to_read():
        # a detached container or a service with no token: a console nobody can type at would end at once with
        # status 0, and a deployment would never learn why it is not in Discord
        fail("no DISCORD_TOKEN is set (put it in .env or the environment), and nothing can be typed here")
    startup.pause_collector()  # until the bot or the console is ready (bot/cli/startup.py)
    if settings.token is None:  # the console table, typed at or piped into (`printf '/roll expression:3d6\n' | ...`)
        from bot.cli import console

        # piped, the banner goes to stderr: stdout carries only the replies, and a deployment's log still says why
        print(BANNER if sys.stdin.isatty() else PIPED_BANNER, file=sys.stdout if sys.stdin.isatty() else sys.stderr)
        return startup.run(console.run([]), settings.magister_db)
    return startup.run(serve(settings, plan), settings.magister_db)


def _nothing_to_read() -> bool:
    """Standard input is /dev/null (``docker run -d``, a service manager) or an empty file: no one will ever type."""
    try:
        status = os.fstat(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):  # closed, or replaced by something with no descriptor
        return True
    if stat.S_ISCHR(status.st_mode):
        return not sys.stdin.isatty()
    return stat.S_ISREG(status.st_mode) and status.st_size == 0


def backup(source: str | Path, target: str | Path) -> int:
    """SQLite's online backup: pages copied under a read transaction, so writers never see a half-copied file."""
    from bot.storage.database import sqlite_path

    if str(source).startswith(("postgresql://", "postgres://")):
        fail("backup copies a SQLite file; MAGISTER_DB is a PostgreSQL database: use pg_dump (docs/deploy.md)")
    source, target = sqlite_path(source), Path(target)  # another URL (mysql://) is refused, its password unsaid
    if not source.exists():
        fail(f"there is no database at {source}: set MAGISTER_DB to the file to back up")
    if target.exists():
        fail(f"{target} exists already: give a new file name, so no backup is overwritten by accident")
    with (
        contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db,
        contextlib.closing(sqlite3.connect(target)) as copy,
    ):
        db.backup(copy)
        (check,) = copy.execute("PRAGMA integrity_check").fetchone()
    if check != "ok":
        fail(f"the backup at {target} failed its integrity check ({check}); keep the original and try again")
    print(f"backed up {source} to {target} ({target.stat().st_size:,} bytes, integrity ok)")
    return 0


def run_port(argv: list[str]) -> int:
    """Copy a whole database to another backend, in one transaction on the target, verified per table."""
    from bot.storage.database import is_url
    from bot.storage.port import PortError, describe, port

    port_args = argparse.ArgumentParser(
        prog="python -m bot port",
        description="Copy every campaign, character, event and timer from one database to another: a SQLite "
        "file (a path or sqlite:///path) or PostgreSQL (postgresql://user:password@host/name), either way. "
        "The target is written in one transaction and each table's row count and checksum are verified before "
        "it commits. Stop Magister first: what it writes during the copy would not be copied.",
    )
    port_args.add_argument("--from", dest="source", required=True, metavar="URL", help="the database to copy")
    port_args.add_argument("--to", dest="target", required=True, metavar="URL", help="the database to fill")
    port_args.add_argument("--replace", action="store_true", help="delete what the target holds first")
    parsed = port_args.parse_args(argv)
    try:
        # on PostgreSQL's event loop if either end is PostgreSQL (bot/cli/startup.py)
        postgres = parsed.source if is_url(parsed.source) else parsed.target
        reports = startup.run(port(parsed.source, parsed.target, replace=parsed.replace), postgres)
    except PortError as exc:
        fail(str(exc))
    print(f"ported {describe(parsed.source)} to {describe(parsed.target)}; every table verified:")
    for report in reports:
        print(f"  {report.table:<13} {report.rows:>9,} rows  sha256 {report.checksum[:16]}")
    return 0


async def build_bot(settings: Settings, plan: ShardPlan = ShardPlan()) -> MagisterBot:
    from bot.storage.database import open_store
    from bot.table.registry import Registry
    from bot.table.service import TableService

    store = await open_store(settings.magister_db, synchronous=settings.magister_synchronous)
    try:
        return _client(TableService(store, Registry.discover()), settings, plan)
    except BaseException:
        await store.close()  # its connection threads would keep the process from exiting
        raise


RETRY_FIRST, RETRY_MOST = 2.0, 300.0  # seconds between attempts to reach Discord: doubling, at most five minutes


async def serve(settings: Settings, plan: ShardPlan = ShardPlan()) -> int:
    """Connect and stay connected. Unreachable Discord is retried with backoff, one line each time;
    a refused token ends the process (exit 2), since retrying cannot fix it. SIGTERM (``docker stop``,
    systemd, Kubernetes) leaves Discord and closes the database, then exits 0, as Ctrl-C does."""
    configure_logging(settings.magister_log_level)
    bot = await build_bot(settings, plan)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    closing: list[asyncio.Task[None]] = []  # held, so the task is not collected while it runs

    def stop() -> None:
        stopping.set()
        closing.append(loop.create_task(bot.close()))  # start() returns once the client is closed

    health = None
    pages = None
    wait = RETRY_FIRST
    try:
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows: Ctrl-C still works
            loop.add_signal_handler(signal.SIGTERM, stop)
        health, pages = await _servers(settings, bot, lambda: bot)  # `bot` read when asked: a retry's is seen
        startup.started()  # its commands load at login (setup_hook), with the collector on
        while not stopping.is_set():
            try:
                async with bot:
                    await bot.start(settings.token or "")
                return 0
            except discord.LoginFailure:
                fail("DISCORD_TOKEN was refused by Discord: copy a fresh token from the developer portal into .env")
            except (OSError, aiohttp.ClientError, discord.GatewayNotFound, discord.DiscordServerError) as exc:
                print(f"magister: cannot reach Discord ({_reason(exc)}); retrying in {wait:.0f} s", file=sys.stderr)
                with contextlib.suppress(TimeoutError):  # the backoff, cut short by SIGTERM
                    await asyncio.wait_for(stopping.wait(), wait)
                wait = min(wait * 2, RETRY_MOST)
                links = bot.web_links
                bot = _client(bot.service, settings, plan)  # a closed client cannot log in again
                bot.web_links = links
        return 0
    finally:
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(signal.SIGTERM)
        for runner in (health, pages):
            if runner is not None:
                await runner.cleanup()
        await bot.service.store.close()


async def _servers(
    settings: Settings, bot: MagisterBot, current: Callable[[], MagisterBot]
) -> tuple[web.AppRunner | None, web.AppRunner | None]:
    """The health checks' server and the campaigns' web pages (docs/web.md), each when its port is set: one
    server when both name the same port. Exit 2 with one line if an address cannot be used."""
    from bot.cli.health import Health
    from bot.table.weblinks import web_links
    from bot.web.app import add_pages, start_web, web_app

    health_app = None
    if settings.magister_health_port is not None:
        health_app = Health(current, max_lag=settings.magister_health_max_lag).app()
    pages_app = None
    if settings.magister_web_port is not None and settings.web_url is not None:
        secret = settings.magister_web_secret.get_secret_value() if settings.magister_web_secret else None
        bot.web_links = await web_links(bot.service, settings.web_url, secret, settings.magister_web_link_days)
        if health_app is not None and settings.magister_web_port == settings.magister_health_port:
            add_pages(health_app, bot.service, bot.web_links)
        else:
            pages_app = web_app(bot.service, bot.web_links)
    runners: list[web.AppRunner | None] = []
    for app, host, port, what, variables in (
        (health_app, settings.magister_health_host, settings.magister_health_port, "health checks", "HEALTH"),
        (pages_app, settings.magister_web_host, settings.magister_web_port, "web pages", "WEB"),
    ):
        if app is None:
            runners.append(None)
            continue
        try:
            runners.append(await start_web(app, host, port or 0))
        except OSError as exc:
            for runner in runners:
                if runner is not None:
                    await runner.cleanup()
            fail(
                f"cannot serve {what} on {host}:{port} ({_reason(exc)}): set MAGISTER_{variables}_PORT to a free "
                f"port, MAGISTER_{variables}_HOST to an address of this machine, or leave the port empty to turn "
                "it off"
            )
    return runners[0], runners[1]


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:160]


def _client(service: TableService, settings: Settings, plan: ShardPlan) -> MagisterBot:
    """The Discord client for this process's shards, on ``service``."""
    from bot.adapter.client import MagisterBot

    return MagisterBot(
        service,
        dev_guild=settings.magister_dev_guild,
        shard_ids=list(plan.ids) if plan.ids is not None else None,
        shard_count=plan.count,
    )


async def sync(settings: Settings, guild_id: int | None) -> int:
    """Push the command tree to Discord: to one guild (instant) or globally (can take up to an hour)."""
    configure_logging(settings.magister_log_level)
    if settings.token is None:
        fail("DISCORD_TOKEN is not set: syncing commands needs the bot's token in .env")
    bot = await build_bot(settings)
    guild_id = guild_id or None
    try:
        async with bot:
            await bot.login(settings.token)
            if guild_id:
                guild = discord.Object(id=guild_id)
                bot.tree.copy_global_to(guild=guild)
                synced = await bot.tree.sync(guild=guild)
            else:
                synced = await bot.tree.sync()
    except discord.LoginFailure:
        fail("DISCORD_TOKEN was refused by Discord: copy a fresh token from the developer portal into .env")
    finally:
        await bot.service.store.close()
    where = f"guild {guild_id}" if guild_id else "all guilds (global; may take up to an hour to appear)"
    print(f"synced {len(synced)} commands to {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
