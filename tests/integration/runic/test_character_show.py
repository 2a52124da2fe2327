"""/character show hides what only the GM may know, as /runic mage show does."""

from __future__ import annotations

from tests.conftest import Console


async def test_hidden_mp_loss_stays_hidden_from_players(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Camelot")
    await console.ok("@as Pat")
    await console.ok("/runic mage create name:Merlin magery:3 iq:14 thaumatology:14")
    await console.ok("@gm")
    await console.ok('/runic adjust character:Merlin field:mp_lost_temporary value:7 reason:"Calamity 16"')
    gm_view = await console.ok("/character show name:Merlin")
    assert gm_view["data"]["sheet"]["mp_lost_temporary"] == 7
    assert gm_view["data"]["name"] == "Merlin"
    for player in ("Pat", "Oz"):
        await console.ok(f"@as {player}")
        shown = await console.ok('/character show name:" merlin "')  # stray spaces and case are forgiven
        assert shown["data"]["sheet"]["mp_lost_temporary"] is None
        assert shown["data"]["sheet"]["mp_max"] is None
        assert "/60" not in shown["text"]
        assert "/53" not in shown["text"]


async def test_word_times_house_rule_names_real_words(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Camelot")
    await console.ok("""/campaign settings key:word_times value:'{"Flam": 2}'""")
    unknown = await console.fails("""/campaign settings key:word_times value:'{"Blorp": 2}'""")
    assert "not a Word of Power" in unknown["text"]
    assert "Flam (Fire)" in unknown["text"]
    spelled = await console.fails("""/campaign settings key:word_times value:'{"flam": 3}'""")
    assert "Write the Word as 'Flam'" in spelled["text"]
    assert (await console.ok("/campaign settings"))["data"]["settings"]["word_times"] == {"Flam": 2}
