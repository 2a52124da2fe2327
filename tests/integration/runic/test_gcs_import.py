"""`/runic mage import file:` through the console and real Discord interactions: real GCS files
(tests/data/gcs), a question first, nothing saved before Confirm, then the normal new-mage path, logged and
undoable."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.adapter import views
from bot.cli.virtual import VirtualUser
from rules.runic.gcs import MAX_GCS_BYTES
from tests.conftest import Console
from tests.support.discord_harness import Reply, slash

DATA = Path(__file__).resolve().parents[2] / "data" / "gcs"
RUNIC = DATA / "runic_mage_v5.gcs"
GM, PAT, OZ = "Gwen", "Pat", "Oz"


@pytest.fixture
async def camelot(console: Console) -> Console:
    await console.ok(f"@as {GM}")
    await console.ok("/campaign start ruleset:runic name:Camelot")
    await console.ok(f"@as {PAT}")
    return console


async def _commands(console: Console) -> list[str]:
    return [event["command"] for event in (await console.ok("/campaign log"))["data"]["events"]]


async def test_it_asks_first_saves_on_confirm_and_undoes(camelot: Console) -> None:
    asked = await camelot.ok(f"/runic mage import file:{RUNIC}")
    assert asked["ephemeral"] and asked["data"]["confirm"]
    question = asked["data"]["question"]
    assert "Import **Morgana Headley** from GCS (format 5)" in question
    assert "Words: Flam 14, In 14, Lux 15" in question  # Lux 17 placed at the cap
    assert "Lux 17 is above the cap of 15" in question
    assert "not as the Word Aq" in question
    assert "ST 9 and DX 10" in question
    assert "runic mage import" not in await _commands(camelot)  # nothing saved, nothing logged
    await camelot.fails("/runic mage show")  # Pat has no mage yet

    done = await camelot.ok("@press Confirm")
    assert "Imported from GCS: Morgana Headley" in done["text"]
    sheet = (await camelot.ok("/runic mage show"))["data"]["sheet"]
    assert (sheet["magery"], sheet["iq"], sheet["ht"], sheet["will"]) == (3, 16, 11, 17)
    assert (sheet["hp_max"], sheet["hp"], sheet["fp_max"], sheet["fp"]) == (9, 9, 14, 14)
    assert (sheet["mp_max"], sheet["mp"], sheet["age"]) == (60, 60, 38)
    assert (sheet["thaumatology"], sheet["symbol_drawing"]) == (14, 15)
    assert sheet["words"] == {"Flam": 14, "In": 14, "Lux": 15}
    assert sheet["items"]["energy reserve"] == {"name": "Energy Reserve", "mp": 5, "max_mp": 5, "recovery": 5}
    assert (await _commands(camelot))[0] == "runic mage import"

    # the imported mage casts like any other: In-Flam from the Words read
    await camelot.ok("/runic spell define name:Fireball words:In-Flam type:missile")
    await camelot.ok("/runic preview spell:Fireball")

    await camelot.ok(f"@as {GM}")
    await camelot.undo()
    await camelot.undo()
    await camelot.ok(f"@as {PAT}")
    await camelot.fails("/runic mage show")  # the undo took the mage away again


async def test_cancel_changes_nothing(camelot: Console) -> None:
    await camelot.ok(f"/runic mage import file:{RUNIC}")
    cancelled = await camelot.ok("@press Cancel")
    assert "Nothing was changed" in cancelled["text"]
    assert "runic mage import" not in await _commands(camelot)
    await camelot.fails("/runic mage show")


async def test_confirm_true_in_advance_imports_at_once(camelot: Console) -> None:
    done = await camelot.ok(f"/runic mage import file:{DATA / 'lich_v2.gcs'} confirm:true")
    assert done["data"]["mage"] == "Lich" and done["data"]["format"] == 2
    sheet = (await camelot.ok("/runic mage show"))["data"]["sheet"]
    assert (sheet["magery"], sheet["thaumatology"], sheet["mp_max"]) == (6, 19, 120)
    assert sheet["items"]["energy reserve"]["max_mp"] == 30


@pytest.mark.parametrize(
    ("name", "magery", "iq", "thaumatology"),
    [("william_headley_v5.gcs", 1, 16, 14), ("william_headley_v4.gcs", 1, 16, 14), ("demon_v1.gcs", 0, 10, None)],
)
async def test_every_format_imports(camelot: Console, name: str, magery: int, iq: int, thaumatology: int) -> None:
    await camelot.ok(f"/runic mage import file:{DATA / name}")
    await camelot.ok("@press Confirm")
    sheet = (await camelot.ok("/runic mage show"))["data"]["sheet"]
    assert (sheet["magery"], sheet["iq"], sheet["thaumatology"]) == (magery, iq, thaumatology)


async def test_importing_again_replaces_your_own_mage_after_confirm(camelot: Console, tmp_path: Path) -> None:
    await camelot.ok(f"/runic mage import file:{RUNIC} confirm:true")
    await camelot.ok("/runic mage set field:iq value:12")
    asked = await camelot.ok(f"/runic mage import file:{RUNIC}")
    assert "replacing your mage Morgana Headley" in asked["data"]["question"]
    await camelot.ok("@press Confirm")
    shown = await camelot.ok("/runic mage show")  # still one mage: no name needed
    assert shown["data"]["sheet"]["iq"] == 16
    await camelot.ok(f"@as {GM}")
    await camelot.undo()
    await camelot.ok(f"@as {PAT}")
    assert (await camelot.ok("/runic mage show"))["data"]["sheet"]["iq"] == 12  # the replaced sheet is back


async def test_another_players_mage_is_never_replaced(camelot: Console) -> None:
    await camelot.ok(f"@as {OZ}")
    await camelot.ok('/runic mage create name:"Morgana Headley" magery:1 iq:12 thaumatology:12')
    await camelot.ok(f"@as {PAT}")
    refused = await camelot.fails(f"/runic mage import file:{RUNIC}")
    assert "another player's character" in refused["text"] and "name:" in refused["text"]
    await camelot.ok(f"/runic mage import file:{RUNIC} name:Morgana")
    await camelot.ok("@press Confirm")
    assert (await camelot.ok("/runic mage show mage:Morgana"))["data"]["sheet"]["magery"] == 3
    await camelot.ok(f"@as {OZ}")
    assert (await camelot.ok('/runic mage show mage:"Morgana Headley"'))["data"]["sheet"]["magery"] == 1


async def test_refusals_come_before_confirm_and_change_nothing(camelot: Console, tmp_path: Path) -> None:
    cases = {
        "support_mage_v5.gcs": "neither Thaumatology nor Symbol Drawing",  # a real DF mage: GURPS spells, no Thaum.
        "pyramid_115_skills_v5.skl": "a GCS list",
    }
    for name, says in cases.items():
        refused = await camelot.fails(f"/runic mage import file:{DATA / name}")
        assert says in refused["text"]
    pdf = tmp_path / "sheet.gcs"
    pdf.write_bytes(b"%PDF-1.7 not a character")
    assert "not JSON" in (await camelot.fails(f"/runic mage import file:{pdf}"))["text"]
    newer = tmp_path / "newer.gcs"
    newer.write_text(json.dumps({"version": 9, "profile": {"name": "X"}}))
    assert "GCS format 9, newer than" in (await camelot.fails(f"/runic mage import file:{newer}"))["text"]
    binary = tmp_path / "binary.gcs"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    assert "not UTF-8 text" in (await camelot.fails(f"/runic mage import file:{binary}"))["text"]
    huge = tmp_path / "huge.gcs"
    huge.write_text(" " * (MAX_GCS_BYTES + 1))
    too_large = (await camelot.fails(f"/runic mage import file:{huge}"))["text"]
    assert "the limit is 4,000,000" in too_large and "attach the `.gcs` file GCS saves" in too_large
    assert "runic mage import" not in await _commands(camelot)
    await camelot.fails("/runic mage show")


async def test_a_forgotten_question_says_to_run_it_again(camelot: Console) -> None:
    """The file's text waits in memory behind the button; gone (a restart), Confirm says so and saves nothing."""
    await camelot.ok(f"/runic mage import file:{RUNIC}")
    views._STASHED.clear()
    refused = await camelot.fails("@press Confirm")
    assert "no longer waiting" in refused["text"] and "/runic mage import" in refused["text"]
    await camelot.fails("/runic mage show")


async def test_through_discord_the_question_is_the_importers_alone(camelot: Console) -> None:
    """A real interaction with a real attachment: the question is ephemeral with Confirm and Cancel; another
    member cannot press Confirm; the importer's press posts the new mage publicly."""
    table = camelot.table
    asked: Reply = await slash(table, PAT, "runic mage import", file=(RUNIC.name, RUNIC.read_bytes()))
    assert asked.error is None and asked.ephemeral
    assert asked.title == "Confirm first"
    assert "Morgana Headley" in asked.description and "Not placed" in asked.description
    message = asked.message
    confirm = next(b for b in message.buttons() if b["label"] == "Confirm")
    assert len(confirm["custom_id"]) <= 100

    interaction, sent = await table.virtual.press(VirtualUser(OZ), message, confirm)
    assert "belong to whoever ran the command" in " ".join(s.content or "" for s in sent)
    await camelot.fails("/runic mage show")

    interaction, sent = await table.virtual.press(VirtualUser(PAT), message, confirm)
    posted = [s for s in sent if s.embeds and not s.ephemeral]
    assert posted and posted[-1].embeds[0]["title"] == "Imported from GCS: Morgana Headley: Magery 3"
    fields = {f["name"]: f["value"] for f in posted[-1].embeds[0]["fields"]}
    assert "Magery 3" in fields["Read from the file"]
    assert "ST 9 and DX 10" in fields["Not placed"]


async def test_a_sheet_with_hundreds_of_unplaced_things_still_asks_within_discords_limits(
    camelot: Console, tmp_path: Path
) -> None:
    data = json.loads(RUNIC.read_text())
    data["skills"] += [
        {"id": f"s{n}", "name": f"Obscure Lore {n} " + "x" * 80, "calc": {"level": 12}} for n in range(300)
    ]
    data["traits"] += [{"id": f"t{n}", "name": f"Quirk {n} " + "y" * 80} for n in range(300)]
    big = tmp_path / "big.gcs"
    big.write_text(json.dumps(data))
    asked = await slash(camelot.table, PAT, "runic mage import", file=(big.name, big.read_bytes()))
    assert asked.error is None  # the harness checked the embed against Discord's limits
    assert "Words: Flam 14, In 14, Lux 15" in asked.description
    assert asked.description.endswith("Press **Confirm** to go ahead, or **Cancel**.")
    assert "more" in asked.description  # the long lists are cut with a count, never silently


def _mutate(node: Any, rng: random.Random) -> Any:
    """The real file with parts deleted or swapped for values of other types, as a damaged file might be."""
    junk = [None, True, -3, 10**9, 2.5, "", "x" * 30, [], {}, [1, "a"], {"calc": "no"}]
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            roll = rng.random()
            if roll < 0.03:
                continue
            out[key] = rng.choice(junk) if roll < 0.06 else _mutate(value, rng)
        return out
    if isinstance(node, list):
        return [_mutate(value, rng) for value in node if rng.random() > 0.03]
    return node


async def test_damaged_real_files_ask_or_are_refused_plainly_and_never_save(camelot: Console, tmp_path: Path) -> None:
    """Thirty damaged copies of a real sheet through the console: each is a question or a plain refusal (no
    incident), and without Confirm nothing is saved or logged."""
    rng = random.Random(26)
    original = json.loads((DATA / "william_headley_v5.gcs").read_text())
    damaged = tmp_path / "damaged.gcs"
    for _ in range(30):
        damaged.write_text(json.dumps(_mutate(original, rng)))
        result = await camelot(f"/runic mage import file:{damaged}")
        assert "incident" not in result, result
        assert result["ephemeral"], result
        assert result["ok"] == bool(result["data"].get("confirm")), result
    assert "runic mage import" not in await _commands(camelot)
    await camelot.fails("/runic mage show")
