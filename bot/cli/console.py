"""The console table: play Magister from a terminal or a script, no token needed.

Each line is a slash command in the syntax Discord shows
(``/runic cast spell:Fireball skill:2``) and runs through the very same
CommandTree and cogs as Discord, by way of :mod:`bot.cli.virtual`. ``@as NAME``
switches the acting user, ``@gm`` acts as the campaign's GM, ``@press LABEL``
clicks a button on the last message that has one, ``@menu NAME`` uses an app
menu on the last message (``@menu NAME: USER`` on a user). See docs/console.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import discord
from discord import app_commands

from bot.adapter.client import MagisterBot
from bot.adapter.errors import UNREACHABLE
from bot.adapter.posting import RecordingCourier, RecordingPoster, post_fired
from bot.adapter.render import to_text
from bot.adapter.speaking import RecordingSpeaker
from bot.cli import shell, startup
from bot.cli.config import configure_logging, fail, load_settings
from bot.cli.virtual import (
    Sent,
    VirtualDiscord,
    VirtualUser,
    channel_payload,
    command_data,
    find_command,
    member_payload,
    next_snowflake,
    snowflake_for,
)
from bot.storage import database
from bot.storage.rows import DatabaseUnavailableError, utcnow
from bot.table.pbp import epoch, iso_at, parse_duration, ping_content, pinged_users
from bot.table.registry import Registry
from bot.table.schedule import Fired, fire_due
from bot.table.service import Place, TableService
from bot.table.weblinks import web_links
from rules.base import RuleError

DEFAULT_GUILD = 1001
DEFAULT_CHANNEL = 2002
DEFAULT_USER = "Alice"

BOOLEANS = {"true": True, "yes": True, "1": True, "on": True, "false": False, "no": False, "0": False, "off": False}


class ConsoleError(Exception):
    """A line the console cannot turn into a command; shown like any user error."""


@dataclass
class Result:
    ok: bool
    command: str
    ephemeral: bool
    text: str
    data: dict[str, Any]
    extra: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "command": self.command,
            "ephemeral": self.ephemeral,
            "text": self.text,
            "data": self.data,
            **self.extra,
        }


class ConsoleTable:
    """One seat at the table: a virtual Discord, the current user and channel."""

    def __init__(
        self,
        bot: MagisterBot,
        virtual: VirtualDiscord,
        courier: RecordingCourier,
        files_dir: Path,
        poster: RecordingPoster | None = None,
        clock: str | None = None,
    ) -> None:
        self.bot = bot
        self.poster = poster or RecordingPoster()
        self.speaker: RecordingSpeaker = bot.speaker  # type: ignore[assignment]  # /say posts, printed after a line
        self._fired: list[tuple[Fired, Sent]] = []  # what timers posted, as the message Discord would show
        bot.boards.delay = 0  # the console refreshes boards itself, after each line
        self.names: dict[int, str] = {}
        self._names_read_to = 0  # the newest event whose actor's name is in ``names``
        self.now = epoch(clock or utcnow())  # the virtual clock: it moves only with @wait
        bot.service.clock = lambda: iso_at(self.now)
        self.virtual = virtual
        self.courier = courier
        self.files_dir = files_dir
        self.user = VirtualUser(DEFAULT_USER)
        self.known_users: dict[int, VirtualUser] = {}
        self.last_with_buttons: Sent | None = None
        self.last_message: Sent | None = None  # what ``@menu NAME`` right-clicks
        self.last_form: Sent | None = None  # the modal ``@form`` submits
        self.last_with_select: Sent | None = None  # what ``@pick`` picks from
        self.form_origin: Sent | None = None  # the message whose component opened it

    @classmethod
    async def open(
        cls,
        db: Path | str,
        *,
        guild: int = DEFAULT_GUILD,
        channel: int = DEFAULT_CHANNEL,
        user: str = DEFAULT_USER,
        seed: int | None = None,
        files_dir: Path = Path("exports"),
        registry: Registry | None = None,
        synchronous: str = "FULL",
        clock: str | None = None,
        web_url: str | None = None,
        web_secret: str | None = None,
    ) -> ConsoleTable:
        """``web_url``: `/campaign web link` makes links to the pages there (docs/web.md); None: the pages are off."""
        store = await database.open_store(db, synchronous=synchronous)
        try:
            service = TableService(store, registry or Registry.discover(), random.Random(seed))
            courier = RecordingCourier()
            poster = RecordingPoster()
            bot = MagisterBot(service, courier=courier, poster=poster, speaker=RecordingSpeaker())
            if web_url is not None:
                bot.web_links = await web_links(service, web_url, web_secret)
            await bot.load_cogs()
            virtual = VirtualDiscord(bot, guild_id=guild, channel_id=channel)
            await virtual.start()
        except BaseException:
            await store.close()  # its connection threads would keep the process from exiting
            raise
        table = cls(bot, virtual, courier, files_dir, poster, clock)
        table.switch_user(user)
        try:
            await table.learn_names()  # a restarted console names whoever acted before
        except BaseException:
            await table.close()
            raise
        return table

    async def close(self) -> None:
        """Unload the cogs first, so background tasks they started (timers) stop cleanly; then open views."""
        self.virtual.stop_views()
        for extension in list(self.bot.extensions):
            await self.bot.unload_extension(extension)
        await self.bot.service.store.close()

    def user_id(self, name: str) -> int:
        """The id a console name stands for (the same in every run)."""
        return VirtualUser(name).id

    def ping_names(self, allowed: list[dict | None]) -> list[str]:
        """The names of the users these messages ping, in order, each once."""
        ids = dict.fromkeys(user for entry in allowed for user in _mentioned(entry))
        return [shell.with_names(f"<@{user}>", self.known_names())[1:] for user in ids]

    def known_names(self) -> dict[int, str]:
        """Whom the console can name: who acted in this run, then who acted in the log."""
        return self.names | {user_id: user.name for user_id, user in self.known_users.items()}

    async def learn_names(self) -> None:
        """Names of everyone who ever acted here, from the log: a fresh console (a restart) names whom it pings."""
        rows, self._names_read_to = await self.bot.service.store.actor_names(self._names_read_to)
        self.names.update(rows)

    def switch_user(self, name: str, *, manages_guild: bool = False, user_id: int | None = None) -> None:
        user = VirtualUser(name, manages_guild=manages_guild, fixed_id=user_id)
        self.user = user
        self.known_users[user.id] = user

    # ------------------------------------------------------------------ lines

    async def execute(self, line: str) -> Result | None:
        """Run one line; ``None`` for blank lines and comments. Then any board it changed is edited, and a board
        it posted (``/campaign board``) comes with its result, as the channel would show it."""
        seen = len(self.poster.board_log)
        said = len(self.speaker.log)
        try:
            result = await self._execute(line)
        finally:
            await self.bot.boards.flush()
        posted = [at for kind, at in self.poster.board_log[seen:] if kind == "post" and at in self.poster.boards]
        if result is not None and posted:
            result.extra["board"] = {"message_id": posted[-1], "text": self.board_text(posted[-1])}
        spoken = [(kind, at) for kind, at in self.speaker.log[said:] if at in self.speaker.posts]
        if result is not None and spoken:  # a /say post as the channel shows it, under the reply only its author saw
            kind, at = spoken[-1]
            shown = self.speaker.text(at)
            self.last_message = Sent("message", at, content=shown)  # `@menu Edit post` right-clicks it
            result.extra["post"] = {"message_id": at, "text": shown, "edited": kind == "edit"}
            where = "Edited in this channel" if kind == "edit" else "Posted in this channel, for everyone"
            result.text = f"{result.text}\n\n{where}:\n{shown}"
        return result

    def board_text(self, message_id: int) -> str:
        """A live board message as the channel shows it now, with its buttons."""
        buttons = [label for label in self.poster.board_buttons.get(message_id, []) if label.strip()]
        shown = "\n[buttons: " + " | ".join(buttons) + "]" if buttons else ""
        return to_text(self.poster.boards[message_id]) + shown

    async def _execute(self, line: str) -> Result | None:
        line = line.strip()
        if not line or line.startswith("#"):
            return None
        try:
            if line.startswith("@"):
                return await self._directive(line)
            if line.startswith("/"):
                return await self._command(line)
            raise ConsoleError("Start a command with `/` (e.g. `/roll expression:3d6`), or a directive with `@`.")
        except ConsoleError as error:
            return Result(False, line, True, str(error), {}, {})

    async def _directive(self, line: str) -> Result:
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "@as":
            if not rest:
                raise ConsoleError("Say who: `@as NAME`.")
            self.switch_user(rest)
            return Result(True, line, True, f"Now acting as {rest}.", {"user": rest, "user_id": self.user.id}, {})
        if word == "@gm":
            campaign = await self.bot.service.campaign(self._place())
            if campaign is None or not campaign.row.gm_ids:  # no campaign, or none left: one who manages the server
                self.switch_user("GM", manages_guild=True)
            else:
                gm_id = campaign.row.gm_ids[0]
                known = self.known_users.get(gm_id)
                self.switch_user(known.name if known else "GM", user_id=gm_id)
            return Result(True, line, True, f"Now acting as the GM ({self.user.name}).", {"user": self.user.name}, {})
        if word == "@channel":
            self.virtual.channel_id = _int(rest, "@channel takes a channel id, e.g. `@channel 2003`.")
            self.virtual.thread_id = None
            return Result(True, line, True, f"Now in channel {self.virtual.channel_id}.", {}, {})
        if word == "@thread":
            if rest.casefold() in ("off", "none", ""):
                self.virtual.thread_id = None
                return Result(True, line, True, f"Back in channel {self.virtual.channel_id}.", {}, {})
            self.virtual.thread_id = _int(rest, "@thread takes a thread id, e.g. `@thread 3001`, or `off`.")
            text = f"Now in thread {self.virtual.thread_id} of channel {self.virtual.channel_id}."
            return Result(True, line, True, text, {}, {})
        if word == "@guild":
            self.virtual.guild_id = _int(rest, "@guild takes a guild id, e.g. `@guild 1002`.")
            return Result(True, line, True, f"Now in guild {self.virtual.guild_id}.", {}, {})
        if word == "@press":
            return await self._press(line, rest)
        if word == "@pick":
            return await self._pick(line, rest)
        if word == "@form":
            return await self._form(line, rest)
        if word == "@menu":
            return await self._menu(line, rest)
        if word == "@wait":
            try:
                seconds = parse_duration(rest) if rest else None
            except RuleError as error:
                raise ConsoleError(str(error)) from None
            if seconds is None:
                raise ConsoleError("Say how long: `@wait 30m`, `@wait 2h`, `@wait 1d`.")
            self.now += seconds
            try:
                fired = await self.tick()
            except DatabaseUnavailableError:  # the clock moved on; the due timers fire at the next @wait
                raise ConsoleError(UNREACHABLE) from None
            data = {"now": iso_at(self.now), "fired": fired}
            return Result(True, line, True, f"It is now {iso_at(self.now)}; {fired} timers fired.", data, {})
        raise ConsoleError(
            "Directives: `@as NAME`, `@gm`, `@press LABEL`, `@pick CHOICE[, CHOICE]`, `@form FIELD:VALUE...`, "
            "`@menu NAME[: USER]`, `@channel ID`, `@thread ID`, `@guild ID`, `@wait 2h`."
        )

    async def tick(self) -> int:
        """Fire the timers due by the virtual clock, as the bot's background task would; how many fired."""
        fired = await fire_due(self.bot.service)
        if fired:
            await self.learn_names()
        for item in fired:
            view = await post_fired(self.bot, item)
            message = Sent("message", next_snowflake(), components=view.to_components() if view is not None else [])
            if message.buttons():  # `@press` answers a timer's message as it answers a command's reply
                self.last_with_buttons = message
            if message.selects():
                self.last_with_select = message
            self._fired.append((item, message))
        await self.bot.boards.flush()
        return len(fired)

    def timer_results(self) -> list[Result]:
        """What timers posted since the last call, one result each (``"trigger": "timer"``)."""
        posted, self._fired, self.poster.posted = self._fired, [], []
        results = []
        for item, message in posted:
            content = ping_content(item.pings)
            buttons = [b.get("label") for b in message.buttons() if not b.get("disabled")]
            shown = "[buttons: " + " | ".join(buttons) + "]" if buttons else ""
            text = "\n".join(part for part in (content, to_text(item.card) if item.card else "", shown) if part)
            extra: dict[str, Any] = {"trigger": "timer", "channel_id": item.place.channel_id}
            if buttons:
                extra["buttons"] = buttons
            names = self.ping_names([{"users": [str(u) for u in pinged_users(item.pings)]}])
            if names:
                extra["pings"] = names
            data = {"timer": item.kind, **item.data}
            results.append(Result(True, f"@timer {item.kind}", False, text, data, extra))
        return results

    def _place(self) -> Place:
        return Place(self.virtual.guild_id, self.virtual.channel_id, self.virtual.thread_id)

    async def _command(self, line: str) -> Result:
        try:
            tokens = shlex.split(line[1:])
        except ValueError as exc:
            raise ConsoleError(f"Could not read that line ({exc}). Put values with spaces in double quotes.") from None
        if not tokens:
            raise ConsoleError("Name a command after `/`.")
        path = list(_takewhile_path(tokens))
        if not path:
            raise ConsoleError("Name a command after `/`, e.g. `/roll expression:3d6`.")
        raw_options = tokens[len(path) :]
        command = self._find(path)
        return await self.run_command(path, self._convert(command, raw_options), line=line)

    async def run_command(self, path: list[str], options: dict[str, Any], *, line: str = "") -> Result:
        """Send ``/path`` with options already typed, as Discord's client would (fuzzers use this)."""
        top = self.virtual.tree.get_command(path[0])
        contexts = getattr(top, "allowed_contexts", None)
        if not self.virtual.guild_id and contexts is not None and not contexts.dm_channel:
            raise ConsoleError(f"/{path[0]} works in a server's channel, not in a DM (Discord does not offer it here).")
        data = command_data(self.virtual.tree, path, options, guild_id=self.virtual.guild_id)
        interaction, sent = await self.virtual.command(self.user, data)
        return self._result(line or "/" + " ".join(path), interaction, sent)

    async def autocomplete(self, path: list[str], options: dict[str, Any], focused: str) -> list[dict]:
        """The choices Discord would show while ``focused`` is being typed."""
        data = command_data(self.virtual.tree, path, options, focused=focused, guild_id=self.virtual.guild_id)
        return await self.virtual.autocomplete(self.user, data)

    async def _press(self, line: str, label: str) -> Result:
        message = self.last_with_buttons
        if message is None:
            raise ConsoleError("There is no message with buttons to press.")
        buttons = message.buttons()
        button = next((b for b in buttons if b.get("label", "").casefold() == label.casefold()), None)
        if button is None or button.get("disabled"):
            labels = ", ".join(b.get("label", "?") for b in buttons if not b.get("disabled")) or "none"
            raise ConsoleError(f"No button {label!r} to press. Buttons: {labels}.")
        interaction, sent = await self.virtual.press(self.user, message, button)
        return self._result(line, interaction, sent, origin=message)

    async def _pick(self, line: str, rest: str) -> Result:
        """``@pick Fireball`` in a list, ``@pick Pat, Quinn`` in a user picker, ``@pick #gm-only`` in a channel one."""
        message = self.last_with_select
        if message is None:
            raise ConsoleError("There is no message with a select menu to pick from.")
        wanted = [part.strip() for part in rest.split(",") if part.strip()]
        if not wanted:
            raise ConsoleError("Say what to pick: `@pick CHOICE`, or several separated by commas.")
        channels = all(want.startswith("#") for want in wanted)  # `#name` picks in the channel picker
        menus = [m for m in message.selects() if (m["type"] == 8) == channels] or message.selects()
        menu = menus[0]
        values, resolved = picked(menu, wanted, self.virtual.guild_id, self.known_users)
        try:
            interaction, sent = await self.virtual.select(self.user, message, menu, values, resolved)
        except ValueError as error:
            raise ConsoleError(f"Discord would not send that pick: {error}.") from None
        return self._result(line, interaction, sent, origin=message)

    async def _form(self, line: str, rest: str) -> Result:
        """``@form field:value ...`` submits the open form; fields not named keep what was prefilled."""
        form = self.last_form
        if form is None:
            raise ConsoleError("There is no open form. A command or a button opens one (`/character create`).")
        try:
            tokens = shlex.split(rest)
        except ValueError as exc:
            raise ConsoleError(f"Could not read that line ({exc}). Put values with spaces in double quotes.") from None
        values = {}
        for token in tokens:
            name, sep, value = token.partition(":")
            if not sep:
                fields = ", ".join(item["custom_id"] for item in form.inputs())
                raise ConsoleError(f"`{token}` is not a field. Write fields as name:value. Fields: {fields}.")
            values[name] = value.replace("\\n", "\n")
        try:
            interaction, sent = await self.virtual.submit(self.user, form, values, message=self.form_origin)
        except ValueError as error:
            raise ConsoleError(f"Discord would not send that form: {error}.") from None
        self.last_form = None
        return self._result(line, interaction, sent)

    async def _menu(self, line: str, rest: str) -> Result:
        """``@menu Roll again`` right-clicks the last message; ``@menu Show sheet: Pat`` right-clicks Pat."""
        name, colon, target = (part.strip() for part in rest.partition(":"))
        kind = discord.AppCommandType.user if colon else discord.AppCommandType.message
        if self.virtual.tree.get_command(name, type=kind) is None:
            menus = [c.name for c in self.virtual.tree.get_commands(type=kind)]
            on = "a user (`@menu NAME: USER`)" if colon else "a message"
            raise ConsoleError(f"No menu {name!r} on {on}. Menus: {', '.join(menus) or 'none'}.")
        if colon:
            if not target:
                raise ConsoleError("Say whom: `@menu Show sheet: NAME`.")
            user = next((u for u in self.known_users.values() if u.name.casefold() == target.casefold()), None)
            interaction, sent = await self.virtual.context_menu(self.user, name, target=user or VirtualUser(target))
        else:
            if self.last_message is None:
                raise ConsoleError("There is no message to use a menu on yet.")
            interaction, sent = await self.virtual.context_menu(self.user, name, message=self.last_message)
        return self._result(line, interaction, sent)

    def _find(self, path: list[str]) -> app_commands.Command:
        try:
            return find_command(self.virtual.tree, path)
        except KeyError:
            pass
        for end in range(len(path) - 1, 0, -1):  # `/roll 3d6`: a command, then a value without its option's name
            try:
                command = find_command(self.virtual.tree, path[:end])
            except KeyError:
                continue
            first = command.parameters[0].name if command.parameters else "option"
            example = f"/{command.qualified_name} {first}:{' '.join(path[end:])}"
            raise ConsoleError(
                f"`/{command.qualified_name}` takes options written name:value, e.g. `{example}`."
                f" Options: {', '.join(p.name for p in command.parameters) or 'none'}."
            )
        raise ConsoleError(f"Unknown command `/{' '.join(path)}`. {self._command_list(path)}") from None

    def _command_list(self, path: list[str]) -> str:
        node: Any = self.virtual.tree.get_command(path[0]) if path else None
        if isinstance(node, app_commands.Group):
            names = sorted(c.qualified_name for c in node.walk_commands() if isinstance(c, app_commands.Command))
        else:
            names = sorted(c.name for c in self.virtual.tree.get_commands(type=discord.AppCommandType.chat_input))
        return "Commands: " + ", ".join(f"/{n}" for n in names) + "."

    def _convert(self, command: app_commands.Command, raw: list[str]) -> dict[str, Any]:
        """Read ``name:value`` options the way Discord's client would: typed, in range, required."""
        options: dict[str, Any] = {}
        names = ", ".join(p.name for p in command.parameters) or "none"
        for at, token in enumerate(raw):
            name, sep, value = token.partition(":")
            if not sep:
                if options:  # `term:calamity 17`: a value with a space, unquoted
                    last = list(options)[-1]
                    raise ConsoleError(
                        f"`{token}` is not an option. A value with spaces goes in double quotes:"
                        f' `{last}:"{raw[at - 1].partition(":")[2]} {token}"`. Options: {names}.'
                    )
                raise ConsoleError(f"`{token}` is not an option. Write options as name:value. Options: {names}.")
            parameter = command.get_parameter(name)
            if parameter is None:
                raise ConsoleError(f"/{command.qualified_name} has no option `{name}`. Options: {names}.")
            options[name] = _typed(parameter, value)
        missing = [p.name for p in command.parameters if p.required and p.name not in options]
        if missing:
            raise ConsoleError(f"/{command.qualified_name} needs {', '.join(f'`{m}:`' for m in missing)}.")
        return options

    def _result(
        self, line: str, interaction: discord.Interaction | None, sent: list[Sent], *, origin: Sent | None = None
    ) -> Result:
        forms = [s for s in sent if s.kind == "modal"]
        if forms:
            self.last_form, self.form_origin = forms[-1], origin
            return Result(True, line, True, form_text(forms[-1]), {}, {"form": form_json(forms[-1])})
        messages = [s for s in sent if s.kind != "autocomplete"]
        for message in messages:
            if message.buttons():
                self.last_with_buttons = message
            if message.selects():
                self.last_with_select = message
            if message.embeds and not message.ephemeral and message.kind in ("message", "followup"):
                self.last_message = message
        extras = interaction.extras if interaction is not None else {}
        error = extras.get("error")
        outcome = extras.get("outcome")
        text = "\n\n".join(message_text(m) for m in messages if m.kind != "defer") or (error or "")
        extra: dict[str, Any] = {}
        secret = extras.get("secret")
        if secret:
            extra["secret"] = {"to": secret["to"], "text": card_text(secret["card"]), "data": secret.get("data", {})}
        private = extras.get("private")
        if private and error is None:  # the owner's and GMs' side, shown to the caller alone
            card = private.get("card")
            extra["private"] = {"text": card_text(card) if card is not None else "", "data": private.get("data", {})}
        files = [name for m in messages for name, _ in m.files]
        if files:
            self.files_dir.mkdir(parents=True, exist_ok=True)
            for message in messages:
                for name, body in message.files:
                    (self.files_dir / name).write_bytes(body)
            extra["files"] = [str(self.files_dir / name) for name in files]
        buttons = [b.get("label") for m in messages for b in m.buttons() if not b.get("disabled")]
        if buttons:
            extra["buttons"] = buttons
        pings = self.ping_names([m.allowed_mentions for m in messages])
        if pings:
            extra["pings"] = pings
        if "incident" in extras:
            extra["incident"] = extras["incident"]
        ephemeral = messages[0].ephemeral if messages else True
        data = outcome.data if outcome is not None and error is None else {}
        return Result(error is None, line, ephemeral, text, data, extra)


def picked(
    menu: dict, wanted: list[str], guild_id: int, known: dict[int, VirtualUser]
) -> tuple[list[str], dict[str, dict]]:
    """The values (and ``resolved`` entries) Discord sends for what a user picked in ``menu``."""
    kind = menu["type"]
    if kind == 3:
        options = menu.get("options", [])
        values = []
        for want in wanted:
            match = next(
                (o for o in options if want.casefold() in (o["label"].casefold(), o["value"].casefold())), None
            )
            if match is None:
                listed = ", ".join(o["label"] for o in options)
                raise ConsoleError(f"No choice {want!r} in this menu. Choices: {listed}.")
            values.append(match["value"])
        return values, {}
    if kind == 5:
        users = [
            next((u for u in known.values() if u.name.casefold() == w.casefold()), None) or VirtualUser(w)
            for w in wanted
        ]
        resolved: dict[str, dict] = {"users": {str(u.id): u.payload() for u in users}}
        if guild_id:
            resolved["members"] = {str(u.id): member_payload() for u in users}
        return [str(u.id) for u in users], resolved
    if kind == 8:
        channels = {}
        for want in wanted:
            channel_id = int(want) if want.isdigit() else snowflake_for(f"#{want.lstrip('#')}")
            channel = channel_payload(channel_id, guild_id)
            channel["name"] = want.lstrip("#")
            channels[str(channel_id)] = channel
        return list(channels), {"channels": channels}
    raise ConsoleError("The console picks from lists, user pickers and channel pickers only.")


def _mentioned(allowed: dict | None) -> list[int]:
    """The users Discord would let a message ping: only those its allowed_mentions list by id."""
    if not allowed:
        return []
    return [int(user) for user in allowed.get("users", []) if str(user).isdigit()]


def _takewhile_path(tokens: list[str]):
    for token in tokens:
        if ":" in token:
            return
        yield token


def _int(text: str, message: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ConsoleError(message) from None


def _upload(name: str, value: str) -> tuple[str, bytes]:
    """An attachment option names a file to upload, as a Discord user would pick one."""
    path = Path(value).expanduser()
    try:
        return path.name, path.read_bytes()
    except OSError as exc:
        raise ConsoleError(f"`{name}` takes a file to upload; cannot read {value!r}: {exc.strerror}.") from None


def _typed(parameter: app_commands.Parameter, value: str) -> Any:
    """One option value, checked as Discord's client checks it before sending."""
    kind = parameter.type
    option_type = discord.AppCommandOptionType
    name = parameter.name
    if kind is option_type.attachment:
        return _upload(name, value)
    if parameter.choices:
        for choice in parameter.choices:
            if value.casefold() in (choice.name.casefold(), str(choice.value).casefold()):
                return choice.value
        listed = ", ".join(c.name for c in parameter.choices)
        raise ConsoleError(f"`{name}` must be one of: {listed}.")
    if kind is option_type.integer:
        try:
            number: Any = int(value)
        except ValueError:
            raise ConsoleError(f"`{name}` takes a whole number, not {value!r}.") from None
    elif kind is option_type.number:
        try:
            number = float(value)
        except ValueError:
            raise ConsoleError(f"`{name}` takes a number, not {value!r}.") from None
    elif kind is option_type.boolean:
        if value.casefold() not in BOOLEANS:
            raise ConsoleError(f"`{name}` takes true or false, not {value!r}.")
        return BOOLEANS[value.casefold()]
    elif kind is option_type.string:
        low, high = parameter.min_value, parameter.max_value  # a string's Range is its length
        if low is not None and len(value) < low:
            raise ConsoleError(f"`{name}` needs at least {low} character{'s' if low != 1 else ''}.")
        if high is not None and len(value) > high:
            raise ConsoleError(f"`{name}` takes at most {high} characters.")
        return value
    else:
        return value
    low, high = parameter.min_value, parameter.max_value
    if (low is not None and number < low) or (high is not None and number > high):
        raise ConsoleError(f"`{name}` {range_words(low, high)}, not {value}.")
    return number


def range_words(low: Any, high: Any) -> str:
    """An option's range in plain words; Discord's own bounds (2**53) are no one's limit, so not named."""
    limit = 2**53
    low = None if low is None or abs(low) >= limit else low
    high = None if high is None or abs(high) >= limit else high
    if low is not None and high is not None:
        return f"must be between {low} and {high}"
    if low is not None:
        return f"must be at least {low}"
    if high is not None:
        return f"must be at most {high}"
    return "is out of range"


# ---------------------------------------------------------------------- text


def embed_text(embed: dict) -> str:
    lines = []
    if embed.get("title"):
        lines.append(f"== {embed['title']} ==")
    if embed.get("description"):
        lines.append(embed["description"])
    for item in embed.get("fields", []):
        value = item.get("value", "")
        lines.append(f"-- {item.get('name')}: {value}" if "\n" not in value else f"-- {item.get('name')}:\n{value}")
    if embed.get("footer", {}).get("text"):
        lines.append(f"({embed['footer']['text']})")
    return "\n".join(lines)


def form_json(form: Sent) -> dict[str, Any]:
    """A modal as a script reads it: its title and each field's prefilled value."""
    assert form.form is not None
    fields = {item["custom_id"]: item.get("value") or "" for item in form.inputs()}
    return {"title": form.form.get("title", ""), "fields": fields}


def form_text(form: Sent) -> str:
    assert form.form is not None
    lines = [f"[form: {form.form.get('title', '')}]"]
    for item in form.inputs():
        required = "" if item.get("required", True) is False else " (required)"
        value = (item.get("value") or "").replace("\n", " | ")
        lines.append(f"- {item['custom_id']}: {item.get('label', '')}{required} = {value}")
    lines.append("Fill it with `@form field:value ...`; fields you leave out keep what is shown.")
    return "\n".join(lines)


def message_text(message: Sent) -> str:
    parts = []
    if message.content:
        parts.append(message.content)
    parts.extend(embed_text(embed) for embed in message.embeds)
    buttons = [b.get("label") for b in message.buttons() if not b.get("disabled")]
    if buttons:
        parts.append("[buttons: " + " | ".join(buttons) + "]")
    for menu in message.selects():
        offered = [option["label"] for option in menu.get("options", [])]
        parts.append(f"[select: {menu.get('placeholder', '')}" + (f" {' | '.join(offered)}]" if offered else "]"))
    if message.ephemeral:
        parts.append("(only you can see this)")
    return "\n".join(parts)


def card_text(card: Any) -> str:
    return to_text(card)


# ---------------------------------------------------------------------- entry point


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot console", description="Play Magister from the terminal.")
    p.add_argument("--db", help="SQLite file or postgresql:// URL (default: MAGISTER_DB or magister.sqlite3)")
    p.add_argument("--guild", type=int, default=DEFAULT_GUILD, help="guild id (0 for a DM)")
    p.add_argument("--channel", type=int, default=DEFAULT_CHANNEL, help="channel id")
    p.add_argument("--user", default=DEFAULT_USER, help="who is acting at first")
    p.add_argument("--seed", type=int, help="seed the dice, for reproducible sessions")
    p.add_argument("--json", action="store_true", help="print one JSON object per command")
    p.add_argument("--files", type=Path, default=Path("exports"), help="where attachments are saved")
    p.add_argument("--clock", help="start the virtual clock at this UTC time (ISO 8601); default: now")
    return p


def database_of(argv: list[str]) -> str:
    """The database a console with these arguments opens (``--db``, else ``MAGISTER_DB``): it picks the event loop
    (``bot/cli/startup.py``) before the console starts."""
    return parser().parse_args(argv).db or load_settings().magister_db


async def run(argv: list[str], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    args = parser().parse_args(argv)
    settings = load_settings()
    configure_logging("WARNING" if settings.magister_log_level == "INFO" else settings.magister_log_level)
    table = await ConsoleTable.open(
        args.db or settings.magister_db,
        guild=args.guild,
        channel=args.channel,
        user=args.user,
        seed=args.seed,
        files_dir=args.files,
        synchronous=settings.magister_synchronous,
        clock=args.clock,
        web_url=settings.web_url,
        web_secret=settings.magister_web_secret.get_secret_value() if settings.magister_web_secret else None,
    )
    pages = None
    if table.bot.web_links is not None and settings.magister_web_port is not None:  # the pages, served from here
        from bot.web.app import start_web, web_app

        app = web_app(table.bot.service, table.bot.web_links)
        try:
            pages = await start_web(app, settings.magister_web_host, settings.magister_web_port)
        except OSError as error:
            await table.close()
            fail(
                f"cannot serve the web pages on {settings.magister_web_host}:{settings.magister_web_port} "
                f"({str(error).splitlines()[0][:120]}): set MAGISTER_WEB_PORT to a free port, or leave it empty"
            )
    interactive = stdin.isatty() and not args.json
    reader = shell.LineReader(lambda: shell.completions(table.virtual.tree)) if interactive else None
    if interactive:
        stdout.write("Type /help for every command, @help for the console's own lines, @quit to leave.\n")

    def show(result: Result) -> None:
        if args.json:
            stdout.write(json.dumps(result.as_json(), ensure_ascii=False) + "\n")
        else:
            stdout.write(shell.with_names(result.text, table.known_names()) + "\n")
            if "board" in result.extra:
                board = shell.with_names(result.extra["board"]["text"], table.known_names())
                stdout.write(f"\nPosted in this channel, for everyone:\n{board}\n")
            if "secret" in result.extra:
                stdout.write(f"[to {result.extra['secret']['to']}]\n{result.extra['secret']['text']}\n")
            stdout.write("\n")
        stdout.flush()

    try:
        await table.tick()  # what came due while nobody was here fires at start, as the bot does
        startup.started()  # the collector, paused by `python -m bot` while it started, runs again
        for fired in table.timer_results():
            show(fired)
        while True:
            if reader is not None:  # a person at a terminal: line editing, history, Tab, Ctrl-C
                typed = reader.read(f"{table.user.name}> ")
                if typed is None:
                    break
                line = typed + "\n"
            else:
                line = await asyncio.to_thread(stdin.readline)
                if not line:
                    break
            word = line.strip()
            if word == "@quit":
                break
            if word == "@help":
                stdout.write(shell.HELP + "\n\n")
                stdout.flush()
                continue
            result = await table.execute(line)
            if result is None:
                continue
            show(result)
            for fired in table.timer_results():
                show(fired)
    finally:
        if reader is not None:
            reader.close()
        if pages is not None:
            await pages.cleanup()
        await table.close()
    return 0
