"""A spell list imported from an attached file (issue 10): the console uploads a real file, as Discord would."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Console


@pytest.fixture
async def valley(console: Console) -> Console:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:realm name:Valley")
    return console


async def test_a_csv_file_imports_every_spell(valley: Console, tmp_path: Path) -> None:
    spells = tmp_path / "spells.csv"
    spells.write_text(
        "name,type,color,target_type,duration,text\n"
        "Curse,V,black,individual,permanent,A lasting curse\n"
        '"Haste, Greater",II,grey,self,day,Moves faster\n',
        encoding="utf-8",
    )
    imported = await valley.ok(f"/realm spell import format:csv file:{spells}")
    assert "Curse" in imported["text"] and "Haste, Greater" in imported["text"]
    shown = await valley.ok('/realm spell show spell:"Haste, Greater"')
    assert "II" in shown["text"] and "grey" in shown["text"]


async def test_a_toml_file_with_errors_reports_each_line_and_imports_nothing(valley: Console, tmp_path: Path) -> None:
    spells = tmp_path / "spells.toml"
    spells.write_text(
        '[[spell]]\nname = "Curse"\ntype = "V"\ncolor = "black"\ntarget_type = "individual"\nduration = "permanent"\n'
        '\n[[spell]]\nname = "Broken"\ntype = "IX"\ncolor = "pink"\nduration = "day"\n',
        encoding="utf-8",
    )
    before = await valley.ok("/realm spell list")
    refused = await valley.fails(f"/realm spell import format:toml file:{spells}")
    assert "IX" in refused["text"] and "pink" in refused["text"]
    assert (await valley.ok("/realm spell list"))["data"] == before["data"]


async def test_text_or_file_but_not_both_or_neither(valley: Console, tmp_path: Path) -> None:
    spells = tmp_path / "spells.csv"
    spells.write_text("name,type,color,target_type,duration,text\nCurse,V,black,individual,permanent,x\n")
    both = await valley.fails(f'/realm spell import format:csv file:{spells} text:"name,type"')
    assert "not both" in both["text"]
    neither = await valley.fails("/realm spell import format:csv")
    assert "either pasted" in neither["text"]


async def test_a_file_that_is_not_text_is_refused_plainly(valley: Console, tmp_path: Path) -> None:
    binary = tmp_path / "spells.csv"
    binary.write_bytes(b"\xff\xfe\x00\x01 not text")
    refused = await valley.fails(f"/realm spell import format:csv file:{binary}")
    assert "not UTF-8 text" in refused["text"]
    missing = await valley.fails(f"/realm spell import format:csv file:{tmp_path / 'nope.csv'}")
    assert "cannot read" in missing["text"]
