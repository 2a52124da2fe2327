"""`/saga card …`: the catalog of the player's own deck (the book never lists one), and its import."""

from typing import Annotated, Literal

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table, Upload, pasted_or_file, plain_error
from rules.saga import catalog
from rules.saga.area import location
from rules.saga.book import CardDef
from rules.saga.cards import catalog_card
from rules.saga.state import SagaState
from rules.text import DESCRIPTION, clip, fold

TypeName = Literal["hero", "enemy", "folk", "item", "place", "spell-song", "story"]
GlyphName = Literal["end-winter", "spring", "summer", "autumn", "new-winter", "none"]

# ---------------------------------------------------------------- the catalog


class CardDefineOptions(Model):
    name: str = Field(min_length=1, max_length=80, description="Card name, as printed")
    type: TypeName = Field(description="Card type")
    cost: str = Field(max_length=10, description="Source cost: a number, blank, or start (source icon)")
    glyph: GlyphName = Field(default="none", description="Luck glyph")
    harmonics: str = Field(default="", max_length=60, description="Harmonic colors, e.g. 'B V' or 'blue, violet'")
    subtypes: str = Field(
        default="", max_length=60, description="room, wanted, folk-hero, folk-enemy (comma-separated)"
    )
    source_bonus: int | None = Field(default=None, ge=0, le=50, description="Hero: source limit = story pile + this")
    hero_limit: int | None = Field(default=None, ge=1, le=10, description="Hero: the hero limit")
    item_limit: int | None = Field(default=None, ge=0, le=20, description="Hero: the item limit")
    armor: int | None = Field(default=None, ge=0, le=99, description="Enemy: armor number")
    attack: int | None = Field(default=None, ge=0, le=99, description="Enemy or item: attack number")
    rounds: int | None = Field(default=None, ge=1, le=20, description="Enemy: battle round number")
    mandatory: str = Field(default="", max_length=1500, description="~ rules (separate several with |)")
    optional: str = Field(default="", max_length=1500, description="(&) rules (separate several with |)")
    good_luck_bonus: str = Field(default="", max_length=1000, description="Good luck bonus text")
    harmonic_bonus: str = Field(default="", max_length=1000, description="'B, V, R: text' or 'hand: text'")
    discordant_bonus: str = Field(default="", max_length=1000, description="'G, R: text'")
    prize: str = Field(default="", max_length=500, description="Enemy prize text")
    penalty: str = Field(default="", max_length=500, description="Enemy penalty text")
    end_of_demo: bool = Field(default=False, description="The card says End of Demo")


def card_define(table: Table, options: CardDefineOptions) -> Outcome:
    """One card into the catalog (replacing a card of the same name)."""
    state: SagaState = table.state
    _catalog_keeper(table)
    try:
        card = CardDef(
            name=options.name,
            type=options.type,
            cost=catalog.read_cost(options.cost),  # type: ignore[arg-type]
            glyph=None if options.glyph == "none" else options.glyph,
            harmonics=options.harmonics,  # type: ignore[arg-type]
            subtypes=[s.strip() for s in options.subtypes.replace(";", ",").split(",") if s.strip()],  # type: ignore[arg-type]
            source_bonus=options.source_bonus,
            hero_limit=options.hero_limit,
            item_limit=options.item_limit,
            armor=options.armor,
            attack=options.attack,
            rounds=options.rounds,
            mandatory=[r.strip() for r in options.mandatory.split("|") if r.strip()],
            optional=[r.strip() for r in options.optional.split("|") if r.strip()],
            good_luck_bonus=options.good_luck_bonus,
            harmonic_bonus=catalog.parse_bonus(options.harmonic_bonus),
            discordant_bonus=catalog.parse_bonus(options.discordant_bonus),
            prize=options.prize,
            penalty=options.penalty,
            end_of_demo=options.end_of_demo,
        )
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        problems = _problems(getattr(exc, "errors", list)()) or str(exc)
        raise RuleError(f"Card {options.name!r}: {problems}.") from exc
    replaced = fold(card.name) in state.catalog
    state.catalog[fold(card.name)] = card
    shown = catalog_card(card)
    shown.footer = "Replaced the card of that name." if replaced else f"Catalog: {len(state.catalog)} card(s)."
    return Outcome(
        card=shown,
        summary=f"defined card {card.name}",
        data={"card": card.model_dump(mode="json"), "replaced": replaced},
    )


def _catalog_keeper(table: Table) -> None:
    """The GM keeps the catalog; while a game runs, its player may add their own cards too."""
    state: SagaState = table.state
    if table.actor.is_gm:
        return
    if state.game is not None and state.game.player_id == table.actor.user_id:
        return
    if state.game is None:
        return  # a player preparing their deck before the first game
    raise RuleError("The catalog is kept by the GM and this game's player.")


class CardImportOptions(Model):
    text: str | None = Field(
        default=None, min_length=1, max_length=6000, description="TOML ([[card]] or card = [{...}]) or JSON, pasted"
    )
    file: Annotated[str | None, Upload()] = Field(default=None, description="A .toml or .json deck file")
    format: Literal["auto", "toml", "json"] = Field(default="auto", description="The text's format")
    replace: bool = Field(default=False, description="Replace the whole catalog instead of adding to it")


def card_import(table: Table, options: CardImportOptions) -> Outcome:
    """A whole deck from a file's text: validated, every error by line and card name, all or nothing."""
    _catalog_keeper(table)
    state: SagaState = table.state
    cards = catalog.parse_deck(pasted_or_file(options.text, options.file, "the deck"), options.format)
    if options.replace:
        state.catalog = {}
    added = [c.name for c in cards if fold(c.name) not in state.catalog]
    for card in cards:
        state.catalog[fold(card.name)] = card
    out = Card(title=f"Imported {len(cards)} card(s)", description=clip(", ".join(c.name for c in cards), DESCRIPTION))
    out.add("Catalog", f"{len(state.catalog)} card(s); {len(added)} new, {len(cards) - len(added)} replaced")
    return Outcome(
        card=out,
        summary=f"imported {len(cards)} cards",
        data={"imported": [c.name for c in cards], "new": added, "catalog": len(state.catalog)},
    )


class CardShowOptions(Model):
    card: str = Field(min_length=1, max_length=80, description="The card")


def card_show(table: Table, options: CardShowOptions) -> Outcome:
    state: SagaState = table.state
    card = state.card(options.card)
    if card is None:
        raise RuleError(f"{options.card!r} is not in the catalog. `/saga card list` shows it.")
    return Outcome(
        card=catalog_card(card),
        summary=f"showed card {card.name}",
        data={"card": card.model_dump(mode="json")},
        ephemeral=True,
    )


class CardListOptions(Model):
    type: TypeName | None = Field(default=None, description="Only this type")


def card_list(table: Table, options: CardListOptions) -> Outcome:
    state: SagaState = table.state
    cards = sorted(
        (c for c in state.catalog.values() if options.type in (None, c.type)), key=lambda c: (c.type, c.name)
    )
    lines = [c.line() for c in cards]
    text = (
        "\n".join(lines)
        or "The catalog is empty: `/saga card define`, `/saga card import`, or `/saga start deck:sample`."
    )
    out = Card(title=f"Card catalog ({len(cards)})", description=clip(text, DESCRIPTION))
    return Outcome(card=out, summary="listed the catalog", data={"cards": [c.name for c in cards]}, ephemeral=True)


class CardRemoveOptions(Model):
    card: str = Field(min_length=1, max_length=80, description="The card to remove from the catalog")


def card_remove(table: Table, options: CardRemoveOptions) -> Outcome:
    _catalog_keeper(table)
    state: SagaState = table.state
    card = state.card(options.card)
    if card is None:
        raise RuleError(f"{options.card!r} is not in the catalog.")
    game = state.game
    if game is not None and game.outcome == "playing" and location(game, card.name) is not None:
        raise RuleError(f"{card.name} is in the running game; it stays in the catalog until the game ends.")
    del state.catalog[fold(card.name)]
    return Outcome(
        card=Card(title=f"Removed {card.name}"), summary=f"removed card {card.name}", data={"removed": card.name}
    )


def _problems(errors: list[dict]) -> str:
    """Each field's problems in plain words, a union's alternatives joined ("must be at most 99, or one of: ...")."""
    by_field: dict[str, list[str]] = {}
    for error in errors:
        field = str(error["loc"][0]) if error.get("loc") else "card"
        by_field.setdefault(field, []).append(plain_error(error))
    return "; ".join(f"`{field}` {', or '.join(dict.fromkeys(said))}" for field, said in by_field.items())
