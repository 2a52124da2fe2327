"""``python -m bot forget --user ID``: the operator erases a user everywhere (every campaign of every guild, their
macros, reminders and time zone), as ``/privacy forget`` does for a member who asks, and prints what changed.

Safe while Magister runs: it is one transaction, and a running process sees the campaigns it changed move on
(their version) and reloads them. What erasing does, and the rulings: :mod:`bot.table.privacy`.
"""

from __future__ import annotations

import argparse

from bot.cli import startup
from bot.cli.config import load_settings
from bot.storage import database
from bot.table import privacy


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bot forget",
        description="Erase a Discord user's data in every campaign of every server (MAGISTER_DB): their name and "
        "id leave the logs (each entry stays, told of 'a former member'), their characters stay with no owner, they "
        "stop being a GM, and their macros, reminders and time zone are deleted. It cannot be undone.",
    )
    p.add_argument("--user", type=int, required=True, metavar="ID", help="the user's Discord id (a number)")
    return p


async def forget(db: str, user_id: int) -> list[str]:
    store = await database.open_store(db, synchronous=load_settings().magister_synchronous)
    try:
        erased = await privacy.forget_everywhere(store, user_id)
    finally:
        await store.close()
    if erased.empty:
        return [f"nothing to forget: Magister keeps no data of user {user_id}"]
    count = len(erased.campaigns)
    head = f"forgot user {user_id} in {count} campaign{'' if count == 1 else 's'}:"
    return [head, *(f"  {line}" for line in privacy.report_lines(erased))]


def run(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    database = load_settings().magister_db
    for line in startup.run(forget(database, args.user), database):
        print(line)
    return 0
