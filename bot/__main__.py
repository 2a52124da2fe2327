"""``python -m bot``: connect to Discord, or open the console table, or sync commands."""

from __future__ import annotations

import argparse
import asyncio
import sys

import discord

from bot.config import Settings, configure_logging, fail, load_settings

BANNER = (
    "Magister console table. No DISCORD_TOKEN is set, so this is a local table: type /roll expression:3d6, "
    "or put DISCORD_TOKEN in .env and run `python -m bot` to connect to Discord."
)


def main(argv: list[str] | None = None) -> int:
    from bot.books import BookError
    from bot.store import StoreOpenError

    try:
        return _main(argv)
    except (BookError, StoreOpenError) as exc:
        fail(str(exc))


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["console"]:
        from bot import console

        return asyncio.run(console.run(argv[1:]))
    if argv[:1] == ["sync"]:
        sync_args = argparse.ArgumentParser(prog="python -m bot sync", description="Register slash commands.")
        sync_args.add_argument("--guild", type=int, help="sync to this guild only (instant); default: global")
        args = sync_args.parse_args(argv[1:])
        settings = load_settings()
        return asyncio.run(sync(settings, args.guild))
    if argv:
        fail(f"unknown command {argv[0]!r}; use `python -m bot`, `python -m bot console` or `python -m bot sync`")

    settings = load_settings()
    if settings.token is None:
        if sys.stdin.isatty():
            print(BANNER)
            from bot import console

            return asyncio.run(console.run([]))
        fail("DISCORD_TOKEN is not set: put it in .env to connect to Discord, or run `python -m bot console`")
    return asyncio.run(serve(settings))


async def build_bot(settings: Settings):
    from bot.client import MagisterBot
    from bot.registry import Registry
    from bot.service import TableService
    from bot.store import Store

    store = await Store.open(settings.magister_db, synchronous=settings.magister_synchronous)
    try:
        return MagisterBot(TableService(store, Registry.discover()), dev_guild=settings.magister_dev_guild)
    except BaseException:
        await store.close()  # its connection threads would keep the process from exiting
        raise


async def serve(settings: Settings) -> int:
    configure_logging(settings.magister_log_level)
    bot = await build_bot(settings)
    try:
        async with bot:
            await bot.start(settings.token or "")
    except discord.LoginFailure:
        fail("DISCORD_TOKEN was refused by Discord: copy a fresh token from the developer portal into .env")
    finally:
        await bot.service.store.close()
    return 0


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
