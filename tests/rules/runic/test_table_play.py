"""What playing at a real table needed: the GM's own dice, secrets kept, cards that keep their totals, and
autocomplete (`RunicRuleset.suggest`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import NeedsGMError, Outcome, RuleError, Table
from rules.runic import RULESET
from rules.runic.book import RunicBook
from rules.runic.rolls import parse_faces
from rules.runic.sheet import Grimoire, MagicItem, RunicState, SpellDef, SpellOn
from rules.text import listing

from .conftest import GM, OTHER, PLAYER, TableMaker, assert_fits, mage_sheet

ACTIONS = RULESET.actions


def run(table: Table, action_name: str, /, **options: object) -> Outcome:
    action = ACTIONS[action_name]
    outcome = action.run(table, action.options(**options))
    assert_fits(outcome)
    return outcome


def fireball(book: RunicBook, **fields: object):
    sheet = mage_sheet(book, magery=3, words={"In": 13, "Flam": 13}, **fields)
    sheet.spells["fireball"] = SpellDef(name="Fireball", words=["In", "Flam"], type="regular",
                                        parameters=["damage: 10d burning"])  # fmt: skip
    sheet.known.append("fireball")
    return sheet


# ---------------------------------------------------------------- dice the GM rolled by hand


@pytest.mark.parametrize("text", ["3 4 5", "3,4,5", "[3, 4, 5]", " 3+4+5 ", "3;4;5"])
def test_faces_as_a_gm_writes_them(text: str) -> None:
    assert parse_faces(text, "dice") == [3, 4, 5]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "write the dice as numbers from 1 to 6"),
        ("three", "write the dice as numbers"),
        ("3 4 x", "write the dice as numbers"),
        ("3 4 7", "a d6 shows 1 to 6; got 7"),
        ("0 4 5", "a d6 shows 1 to 6; got 0"),
        ("-1 4 5", "write the dice as numbers"),
        ("³ 4 5", "write the dice as numbers"),
        ("3 4", "give exactly 3 dice (3d6)"),
        ("3 4 5 6", "give exactly 3 dice (3d6)"),
    ],
)
def test_faces_refused_with_what_would_work(text: str, says: str) -> None:
    with pytest.raises(RuleError, match=r"^dice: ") as error:
        parse_faces(text, "dice")
    assert says in str(error.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_reads_as_faces_or_says_why(text: str) -> None:
    try:
        faces = parse_faces(text, "dice")
    except RuleError as error:
        assert str(error).startswith("dice: ")
    else:
        assert len(faces) == 3 and all(1 <= f <= 6 for f in faces)


def test_several_rolls_of_faces() -> None:
    assert parse_faces("1 2 3 4 5 6", "calamity_dice", most=6) == [1, 2, 3, 4, 5, 6]
    with pytest.raises(RuleError, match="3 per roll, up to 6"):
        parse_faces("1 2 3 4", "calamity_dice", most=6)


def test_the_gm_rolls_the_casting_and_the_calamity(make_table: TableMaker, book: RunicBook) -> None:
    # MP -10: 12 more makes -22, bonus +4; the GM's 6+5+4 = 15 makes 19. Sub-rolls come from the RNG:
    # strange energies 3d minutes, injury 1d, then the disadvantage's one 3d against HT and Will.
    # Then the worked spell's damage, 10d (issue 14: a cast with damage rolls it).
    table = make_table(gm=True, actor=GM, dice=[2, 2, 2, 1, 1, 1, 3, *[6] * 10],
                       mages={"Nim": (PLAYER, fireball(book, mp=-10))})  # fmt: skip
    outcome = run(table, "cast", spell="Fireball", mage="Nim", dice="2 3 4", calamity_dice="6 5 4")
    assert outcome.data["roll"]["dice"] == [2, 3, 4] and outcome.data["outcome"] == "success"
    calamity = outcome.data["calamity"]
    assert (calamity["dice"], calamity["bonus"], calamity["total"], calamity["row"]) == ([6, 5, 4], 4, 19, "19")
    assert [r["dice"] for r in calamity["rolls"]] == [[2, 2, 2], [1]]
    assert [c["dice"] for c in calamity["checks"]] == [[1, 1, 3], [1, 1, 3]]
    assert outcome.data["damage"]["total"] == 60 and outcome.data["damage"]["type"] == "burning"
    assert table.rng.dice == []
    assert "The GM rolled these dice at the table." in outcome.card.description


def test_calamity_dice_unused_when_no_check_is_owed(make_table: TableMaker, book: RunicBook) -> None:
    table = make_table(gm=True, actor=GM, dice=[1] * 10, mages={"Nim": (PLAYER, fireball(book))})
    outcome = run(table, "cast", spell="Fireball", mage="Nim", dice="3 3 3", calamity_dice="6 6 6")
    assert outcome.data["damage"]["total"] == 10
    assert outcome.data["calamity"] is None and outcome.data["mp"] == {"before": 60, "after": 48}
    assert "No Calamity check was owed: the Calamity dice were not used." in outcome.card.description


def test_only_a_gm_supplies_dice(make_table: TableMaker, book: RunicBook) -> None:
    table = make_table(mages={"Nim": (PLAYER, fireball(book))})
    for options in ({"dice": "3 3 3"}, {"calamity_dice": "3 3 3"}):
        with pytest.raises(NeedsGMError, match="Supplying the dice needs the GM"):
            run(table, "cast", spell="Fireball", **options)
    sheet = table.characters["nim"].sheet
    sheet.mp = -5
    sheet.spells_on.append(SpellOn(name="Ward", words=["Sanct"], cost=4, maintenance=1, interval="1 minute"))
    with pytest.raises(NeedsGMError):
        run(table, "maintain", calamity_dice="1 1 1")
    assert sheet.mp == -5


def test_maintain_with_the_gms_calamity_dice(make_table: TableMaker, book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-5)
    sheet.spells_on.append(SpellOn(name="Ward", words=["Sanct"], cost=4, maintenance=1, interval="1 minute"))
    table = make_table(gm=True, actor=GM, mages={"Nim": (PLAYER, sheet)})
    # two intervals, two checks at +1: 1+1+2 = 4 + 1 = 5 and 2+2+2 = 6 + 1 = 7 (nothing happens)
    outcome = run(table, "maintain", mage="Nim", times=2, calamity_dice="1 1 2 2 2 2")
    calamities = [p["calamity"] for p in outcome.data["payments"]]
    assert [(c["dice"], c["total"]) for c in calamities] == [([1, 1, 2], 5), ([2, 2, 2], 7)]
    assert outcome.data["mp_after"] == -7 and outcome.data["spells_on"] == ["Ward"]
    with pytest.raises(RuleError, match="3 per roll, up to 6"):
        run(table, "maintain", mage="Nim", times=2, calamity_dice="1 1 1 1 1 1 1 1 1")
    assert sheet.mp == -7

    # MP 1 → 0 owes nothing; 0 → -1 takes the first three dice; the other three go unused
    sheet.mp = 1
    outcome = run(table, "maintain", mage="Nim", times=2, calamity_dice="2 2 2 3 3 3")
    assert [p["calamity"] and p["calamity"]["dice"] for p in outcome.data["payments"]] == [None, [2, 2, 2]]
    assert "1 set(s) of Calamity dice were not needed and went unused." in outcome.card.description


# ---------------------------------------------------------------- secrets: Information spells and lost MP


def test_a_secret_information_spell_goes_on_whatever_the_roll(make_table: TableMaker, book: RunicBook) -> None:
    """The mage cannot tell whether it worked, so his sheet cannot either (docs/runic.md, "Rulings")."""
    for dice, worked in (([3, 3, 3], True), ([6, 6, 4], False)):
        sheet = mage_sheet(book, magery=3)
        sheet.spells["seek"] = SpellDef(name="Seek", words=["Gal", "Ort", "Xen"], type="information",
                                        parameters=["duration: 10 minutes"])  # fmt: skip
        sheet.known.append("seek")
        table = make_table(dice=dice, mages={"Nim": (PLAYER, sheet)})
        outcome = run(table, "cast", spell="Seek")
        assert outcome.secret_data["gm"]["worked"] is worked
        assert [on.name for on in sheet.spells_on] == ["Seek"]
        assert outcome.card.fields[-1].name == "Spell on"
        assert ("as if it worked" in outcome.secret.description) is not worked


def test_an_open_information_spell_goes_on_only_when_it_works(make_table: TableMaker, book: RunicBook) -> None:
    from rules.runic.sheet import RunicSettings

    sheet = mage_sheet(book, magery=3, known=["seek"])
    sheet.spells["seek"] = SpellDef(name="Seek", words=["Gal", "Ort", "Xen"], type="information",
                                    parameters=["duration: 10 minutes"])  # fmt: skip
    table = make_table(dice=[6, 6, 4], settings=RunicSettings(secret_information=False),
                       mages={"Nim": (PLAYER, sheet)})  # fmt: skip
    run(table, "cast", spell="Seek")
    assert sheet.spells_on == []


def hidden_loss_table(make_table: TableMaker, book: RunicBook, *, gm: bool) -> Table:
    sheet = mage_sheet(book, magery=3, mp=-20)
    sheet.mp_lost_temporary = 13
    sheet.mp_max = 47
    sheet.spells_on.append(SpellOn(name="Ward", words=["Sanct"], cost=4, maintenance=1, interval="1 minute"))
    return make_table(gm=gm, actor=GM if gm else PLAYER, dice=[1, 1, 1],  # a maintenance check: 3 + 4, nothing
                      mages={"Nim": (PLAYER, sheet)})  # fmt: skip


def _public(outcome: Outcome) -> str:
    card = outcome.card
    return " ".join([card.title, card.description, card.footer, *(f"{f.name} {f.value}" for f in card.fields)])


def test_public_cards_never_show_a_hidden_maximum(make_table: TableMaker, book: RunicBook) -> None:
    """Calamities 16 and 18: "aware that there's been a drop, but not of how much"."""
    maintained = run(hidden_loss_table(make_table, book, gm=False), "maintain")
    assert "47" not in _public(maintained) and "MP -20 → -21 ·" in maintained.card.footer
    sunrise = run(hidden_loss_table(make_table, book, gm=True), "sunrise")
    assert "47" not in _public(sunrise) and "48" not in _public(sunrise)
    table = hidden_loss_table(make_table, book, gm=True)
    adjusted = run(table, "adjust", character="Nim", field="hp", value=5, reason="rest")
    assert "47" not in _public(adjusted) and "the GM knows how far" in _public(adjusted)
    set_by_gm = run(table, "mage set", mage="Nim", field="iq", value=14)
    assert "47" not in _public(set_by_gm)  # a GM's change is still posted to the channel


def test_adjusting_a_hidden_loss_tells_only_the_gm(make_table: TableMaker, book: RunicBook) -> None:
    table = hidden_loss_table(make_table, book, gm=True)
    outcome = run(table, "adjust", character="Nim", field="mp_lost_temporary", value=10, reason="the Grail")
    assert "13 →" not in _public(outcome) and "→ 10" not in _public(outcome)
    assert "changed (the GM knows by how much)" in outcome.card.description
    assert "13 → 10" in outcome.secret.description and "MP -20/50" in outcome.secret.description
    assert "13" not in outcome.summary and outcome.data["before"] == 13 and outcome.data["after"] == 10


def test_a_gm_adjusting_mp_below_zero_keeps_the_loss_secret(make_table: TableMaker, book: RunicBook) -> None:
    # MP 0 → -1 crosses zero: a check at +0, 5+5+6 = 16: strange energies 3d, injury 1d, MP loss 3d+5 = 8
    table = make_table(gm=True, actor=GM, dice=[5, 5, 6, 1, 1, 1, 1, 1, 1, 1],
                       mages={"Nim": (PLAYER, mage_sheet(book, mp=0))})  # fmt: skip
    outcome = run(table, "adjust", character="Nim", field="mp", value=-1, reason="drained")
    assert outcome.data["calamity"]["row"] == "16"
    assert "max MP now" not in _public(outcome) and "(GM)" not in _public(outcome)
    assert "max MP now 32" in " ".join(f.value for f in outcome.secret.fields)


def test_mage_show_data_hides_the_loss_from_players(make_table: TableMaker, book: RunicBook) -> None:
    player = run(hidden_loss_table(make_table, book, gm=False), "mage show")
    assert player.data["sheet"]["mp"] == -20
    assert (player.data["sheet"]["mp_max"], player.data["sheet"]["mp_lost_temporary"]) == (None, None)
    gm = run(hidden_loss_table(make_table, book, gm=True), "mage show", mage="Nim")
    assert (gm.data["sheet"]["mp_max"], gm.data["sheet"]["mp_lost_temporary"]) == (47, 13)


def test_losing_magery_keeps_a_hidden_maximum_hidden(make_table: TableMaker, book: RunicBook) -> None:
    from rules.runic.calamity import apply_effects

    table = hidden_loss_table(make_table, book, gm=False)
    table.rng.extend(1)  # "As 12": strange energies 3d minutes and 1d injury
    sheet = table.characters["nim"].sheet
    row = book.calamity.row_for(24)
    applied, _ = apply_effects(table.rng, book, book.calamity, row, sheet, source="Calamity 24")
    assert not any("max MP" in line for line in applied.lines)
    assert any("max MP 27" in line for line in applied.secret_lines)


# ---------------------------------------------------------------- cards keep their totals


def test_listing_keeps_the_last_lines() -> None:
    lines = [f"line {n}: " + "x" * 40 for n in range(60)] + ["**Cost 82**", "Paid **82** from MP 12"]
    text = listing(lines, keep_last=2)
    assert len(text) <= 1024
    assert text.endswith("\n**Cost 82**\nPaid **82** from MP 12")
    assert "… and " in text and text.startswith("line 0: ")
    assert listing(["a", "b"], keep_last=2) == "a\nb"
    assert listing(["a", "b", "c"], keep_last=1) == "a\nb\nc"


def test_word_as_autocomplete_offers_it(book: RunicBook) -> None:
    assert book.word("Flam (Fire)").name == "Flam"
    assert book.word("  flam   (FIRE) ").name == "Flam"
    with pytest.raises(RuleError, match="not a Word of Power"):
        book.word("Flam (Water)")


def test_negative_whole_numbers_say_so(book: RunicBook) -> None:
    from rules.runic.parameters import parse_parameters

    with pytest.raises(RuleError, match=r"targets: -2 cannot be negative; use 1 to"):
        parse_parameters("targets: -2", book)


# ---------------------------------------------------------------- autocomplete


@pytest.fixture
def campaign(make_table: TableMaker, book: RunicBook):
    def make(actor: int = PLAYER, gm: bool = False) -> Table:
        nim = mage_sheet(book)
        nim.spells["fireball"] = SpellDef(name="Fireball", words=["In", "Flam"], type="missile")
        nim.grimoires["black book"] = Grimoire(name="Black Book", pages=60)
        nim.items["ring"] = MagicItem(name="Ring", mp=10, max_mp=10, recovery=5)
        nim.spells_on.append(SpellOn(name="Ward", words=["Sanct"], cost=4, maintenance=1, interval="1 minute"))
        ash = mage_sheet(book)
        ash.spells["mist"] = SpellDef(name="Mist", words=["Aq", "Quas"])
        state = RunicState(spells={"light": SpellDef(name="Light", words=["In", "Lux"])})
        return make_table(actor=actor, gm=gm, state=state,
                          mages={"Nim": (PLAYER, nim), "Ash": (OTHER, ash)})  # fmt: skip

    return make


def test_suggest(campaign) -> None:
    player, gm = campaign(), campaign(actor=GM, gm=True)
    assert RULESET.suggest(player, "cast", "spell", "") == ["Fireball", "Light"]
    assert RULESET.suggest(gm, "cast", "spell", "") == ["Fireball", "Mist", "Light"]
    assert RULESET.suggest(player, "maintain", "spell", "") == ["Ward"]
    assert RULESET.suggest(player, "drop", "spell", "") == ["Ward", "all"]
    assert RULESET.suggest(player, "sunrise", "spell", "") == []
    assert RULESET.suggest(player, "mage word", "word", "lux") == ["Lux (Energy)"]
    assert RULESET.suggest(player, "cast", "mage", "") == ["Nim"]
    assert RULESET.suggest(player, "mage show", "mage", "") == ["Ash", "Nim"]
    assert RULESET.suggest(player, "cast", "target", "a") == ["Ash", "Nim"][:1]
    assert RULESET.suggest(player, "mage grimoire", "grimoire", "") == ["Black Book"]
    assert RULESET.suggest(player, "mage item", "item", "r") == ["Ring"]
    assert RULESET.suggest(player, "spell define", "words", "Gal-O") == ["Gal-Ort"]
    assert RULESET.suggest(player, "spell define", "parameters", "dur") == ["duration: 10 minutes"]
    assert RULESET.suggest(player, "mage create", "name", "") == []
    assert all(len(RULESET.suggest(gm, "mage word", "word", typed)) <= 25 for typed in ("", "a", "e"))


def test_a_calamity_that_hides_a_loss_puts_it_on_the_gms_side_of_the_log(
    make_table: TableMaker, book: RunicBook
) -> None:
    """Calamity 16 after a cast: the mage learns of a drop, not how much; the GM's card and the log's GM-side
    summary say it (so `/campaign log secrets:true` finds the cast again), the public summary does not."""
    # MP -10: 12 more makes -22, bonus +4; the GM's 4+4+4 = 12 makes 16: strange energies 3d, injury 1d, MP loss
    # 3d+5 (hidden), then the worked Fireball's 10d
    table = make_table(gm=True, actor=GM, dice=[1, 1, 1, 1, 1, 1, 1, *[6] * 10],
                       mages={"Nim": (PLAYER, fireball(book, mp=-10))})  # fmt: skip
    outcome = run(table, "cast", spell="Fireball", mage="Nim", dice="2 3 4", calamity_dice="4 4 4")
    assert outcome.data["calamity"]["row"] == "16"
    assert outcome.secret is not None and outcome.secret.title.startswith("For the GM: Calamity 16")
    assert outcome.secret_summary is not None and "hidden from the mage:" in outcome.secret_summary
    assert "max MP now" in outcome.secret_summary and outcome.secret_summary.startswith(outcome.summary)
    assert "max MP" not in outcome.summary and "max MP" not in _public(outcome)
    assert outcome.logged_result()["secret"]["summary"] == outcome.secret_summary


def test_a_calamity_that_hides_nothing_leaves_the_gms_side_empty(make_table: TableMaker, book: RunicBook) -> None:
    table = make_table(gm=True, actor=GM, dice=[2, 2, 2, 1, 1, 1, 3, *[6] * 10],
                       mages={"Nim": (PLAYER, fireball(book, mp=-10))})  # fmt: skip
    outcome = run(table, "cast", spell="Fireball", mage="Nim", dice="2 3 4", calamity_dice="6 5 4")
    assert outcome.data["calamity"]["row"] == "19"
    assert (outcome.secret, outcome.secret_summary) == (None, None)
