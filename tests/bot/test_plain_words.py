"""Issue 22, plain words everywhere: settings and options answer in the bot's words, never a library's, naming the
option the user typed and saying what would work; blank input is refused plainly."""

from __future__ import annotations

LIBRARY = ("Input should", "unable to parse", "9007199254740992", "character(s)")


def _plain(text: str) -> None:
    assert not any(words in text for words in LIBRARY), text


async def test_a_setting_refused_in_plain_words(console) -> None:
    await console.ok("/campaign start ruleset:awakened name:Boston")
    refused = await console.fails("/campaign settings key:nudge value:banana")
    _plain(refused["text"])
    assert "`nudge` takes a number" in refused["text"] and "banana" in refused["text"]


async def test_a_setting_with_choices_lists_them_plainly(console) -> None:
    await console.ok("/campaign start ruleset:saga name:Solo")
    refused = await console.fails("/campaign settings key:kismet_order value:sideways")
    _plain(refused["text"])
    assert "`kismet_order` must be one of: place-action-luck or place-luck-action" in refused["text"]


async def test_an_option_below_its_range_says_the_least_it_takes(console) -> None:
    await console.ok("/campaign start ruleset:awakened name:Boston")
    refused = await console.fails("/campaign undo event:-1")
    _plain(refused["text"])
    assert "`event` must be at least 1" in refused["text"]


async def _mage(console) -> None:
    await console.ok("/campaign start ruleset:awakened name:Boston")
    await console.ok("@as Pat")
    await console.ok(
        '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter resistance:composure '
        'gnosis:3 arcana:"Forces 3, Life 3, Spirit 3" mana_max:15 willpower:5 health:7'
    )


async def test_a_blank_spell_names_the_option_typed(console) -> None:
    await _mage(console)
    refused = await console.fails('/awakened spell cast spell:"   " arcana:Life aspect:covert')
    _plain(refused["text"])
    assert "`spell` is blank" in refused["text"] and "`name`" not in refused["text"]


async def test_a_blank_subject_is_refused(console) -> None:
    await _mage(console)
    refused = await console.fails('/awakened scrutinize subject:" "')
    assert "`subject` is blank" in refused["text"]


async def test_blank_cards_are_refused(console) -> None:
    await console.ok("/campaign start ruleset:saga name:Solo")
    refused = await console.fails('/saga harmonic cards:","')
    assert "`cards` is blank" in refused["text"]


async def test_runic_mp_raised_past_its_maximum_says_it_was_capped(console) -> None:
    await console.ok("/campaign start ruleset:runic name:Camelot")
    await console.ok("@as Pat")
    await console.ok("/runic mage create name:Merlin magery:3 iq:15 thaumatology:15")
    await console.ok("@gm")
    await console.ok("/runic adjust character:Merlin field:mp value:42 reason:drained")
    raised = await console.ok("/runic adjust character:Merlin field:mp value:99 reason:gift")
    assert "42 → 60 (capped at the maximum, 60: 99 asked)" in raised["text"]
    assert raised["data"]["after"] == 60


async def test_a_value_without_its_option_name_hints_name_value(console) -> None:
    refused = await console.fails("/roll 3d6")
    assert "Unknown command" not in refused["text"] and "`/roll expression:3d6`" in refused["text"]


async def test_an_unquoted_value_with_a_space_hints_the_quotes(console) -> None:
    refused = await console.fails("/lookup term:calamity 17")
    assert 'term:"calamity 17"' in refused["text"]


def test_help_and_tab_completion_name_every_directive() -> None:
    from bot.cli.shell import HELP, complete

    for directive in ("@pick", "@form", "@menu", "@thread"):
        assert directive in HELP
        assert complete(directive[:3], []), directive
        assert any(found.startswith(directive) for found in complete(directive[:3], []))
