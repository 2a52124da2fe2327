"""Paying Mana: the Gnosis limit on one's own Mana (M20) and free Mana (M35).

Free Mana is taken first (a Hallow, Words of Power, pattern scouring), then the
mage's own Mana, which in one payment may not exceed Gnosis (P-G7). Everything
is checked before anything changes; scoured wounds land after the spell
(l.286), as Resistant lethal wounds that don't make the mage bleed out.
"""

from pydantic import Field

from rules.awakened.book import AwakenedBook
from rules.awakened.common import add_wound, scourable
from rules.awakened.sheet import AwakenedSettings, AwakenedSheet, AwakenedState, Hallow
from rules.awakened.words import quantity
from rules.base import Model, RuleError
from rules.text import fold

MAX_SCOURING_PER_INSTANT = 5  # the Damage Cap, applied to scouring only by the house rule (P-G47)


class FreeManaOptions(Model):
    words_of_power: int = Field(default=0, ge=0, le=10, description="1 Willpower each")
    scour: int = Field(default=0, ge=0, le=30, description="Wounds scoured (1 Mana each)")
    hallow: str | None = Field(default=None, max_length=60, description="Hallow you are in (pays 1)")


class Payment(Model):
    due: int
    own: int = 0
    words_of_power: int = 0
    scour: int = 0
    hallow: str | None = None
    hallow_mana: int = 0
    mana_before: int = 0
    mana_after: int = 0

    @property
    def text(self) -> str:
        parts = [f"own Mana {self.own} ({self.mana_before} → {self.mana_after})"]
        if self.hallow_mana:
            parts.append(f"Hallow {self.hallow}: {self.hallow_mana}")
        if self.words_of_power:
            parts.append(f"Words of Power: {self.words_of_power} (Willpower −{self.words_of_power})")
        if self.scour:
            parts.append(f"pattern scouring: {self.scour} (Resistant lethal wounds, after the spell)")
        return f"Paid {self.due}: " + "; ".join(parts)


def find_hallow(state: AwakenedState, name: str) -> Hallow:
    hallow = state.hallows.get(fold(name))
    if hallow is None:
        known = (
            ", ".join(h.name for h in state.hallows.values())
            or "none yet (the GM adds them with `/awakened gm hallow`)"
        )
        raise RuleError(f"There is no Hallow named {name!r}. Hallows: {known}.")
    return hallow


def plan(
    book: AwakenedBook,
    settings: AwakenedSettings,
    state: AwakenedState,
    sheet: AwakenedSheet,
    who: str,
    due: int,
    free: FreeManaOptions,
    *,
    gnosis_limit: bool = True,
    hallow_allowed: bool = True,
    smaller: str | None = "cast it with fewer factors",
    what: str = "the spell",
) -> Payment:
    """Check a payment without changing anything; :func:`pay` then carries it out. ``smaller`` says how this
    payment could shrink, for the refusal (None: it can't, as a Shaping's cost is fixed)."""
    words, scour = free.words_of_power, free.scour
    hallow_mana, hallow_name = 0, None
    if free.hallow:
        if not hallow_allowed:
            raise RuleError(
                "A Hallow pays toward a spell's cost when it is cast or refreshed, not toward Shaping "
                # cites ruling P-G8
                "(house rule hallow_pays_shaping). Drop `hallow`."
            )
        hallow_name = find_hallow(state, free.hallow).name
        hallow_mana = 1 if due > 0 else 0
    if words:
        if not sheet.high_speech:
            raise RuleError(f"{who} has no High Speech training: Words of Power need it. Drop `words_of_power`.")
        if words > settings.words_of_power_per_payment:
            raise RuleError(
                # cites ruling P-G9
                f"At most {quantity(settings.words_of_power_per_payment, 'Word')} of Power per payment."
            )
        if words > sheet.willpower:
            raise RuleError(f"{who} has {sheet.willpower} Willpower; Words of Power cost 1 each.")
    if scour:
        room = scourable(sheet)
        if scour > room:
            raise RuleError(f"{who} has {room} empty or bashing health boxes; pattern scouring can take at most that.")
        if settings.scouring_damage_cap and scour > MAX_SCOURING_PER_INSTANT:
            raise RuleError(
                f"The Damage Cap house rule allows at most {MAX_SCOURING_PER_INSTANT} scoured wounds at once."
            )
    free_total = hallow_mana + words + scour
    if free_total > due:
        raise RuleError(
            f"{what.capitalize()} costs {due}; {free_total} free Mana is more than it needs. "
            "Use less scouring or fewer Words."
        )
    own = due - free_total
    if gnosis_limit and own > sheet.gnosis:
        short = own - sheet.gnosis
        raise RuleError(
            f"{who} can spend at most {sheet.gnosis} of their own Mana at once (Gnosis {sheet.gnosis}); {what} needs "
            f"{own} after free Mana. {_what_would_pay(settings, sheet, who, free, short, hallow_allowed, smaller)}"
        )
    if own > sheet.mana:
        raise RuleError(f"{who} has {sheet.mana} Mana; {what} needs {own} of their own after free Mana.")
    return Payment(
        due=due,
        own=own,
        words_of_power=words,
        scour=scour,
        hallow=hallow_name,
        hallow_mana=hallow_mana,
        mana_before=sheet.mana,
        mana_after=sheet.mana - own,
    )


def _what_would_pay(
    settings: AwakenedSettings,
    sheet: AwakenedSheet,
    who: str,
    free: FreeManaOptions,
    short: int,
    hallow_allowed: bool,
    smaller: str | None,
) -> str:
    """The free Mana this mage could still add to this payment, and how it could shrink: only what would really
    work (a Hallow never pays a Shaping by default, and nothing makes a Shaping cheaper)."""
    ways = []
    words_left = min(settings.words_of_power_per_payment - free.words_of_power, sheet.willpower - free.words_of_power)
    if sheet.high_speech and words_left > 0:
        ways.append(f"Words of Power (`words_of_power`, up to {words_left}, 1 Willpower each)")
    scour_left = scourable(sheet) - free.scour
    if scour_left > 0:
        ways.append(f"pattern scouring (`scour`, up to {scour_left}, a Resistant lethal wound each)")
    if hallow_allowed and not free.hallow:
        ways.append("a Hallow you are in (`hallow`, 1)")
    fixed = (
        ""
        if smaller
        else " Nothing makes it cheaper: a Shaping costs 1 for a rote or ruling Arcana only, 2 with a common "
        "Arcanum, 3 with the inferior one."
    )
    if not ways:
        return f"No free Mana is open to {who} now.{fixed}" + (f" To pay it, {smaller}." if smaller else "")
    return f"Add {short} more free Mana: {', '.join(ways)}" + (f"; or {smaller}." if smaller else f".{fixed}")


def pay(sheet: AwakenedSheet, payment: Payment) -> None:
    """Spend the Mana and Willpower now; :func:`scour_after` adds the wounds once the spell is cast."""
    sheet.mana -= payment.own
    sheet.willpower -= payment.words_of_power


def scour_after(sheet: AwakenedSheet, payment: Payment) -> str | None:
    """The scoured wounds, after the spell; a full track leaves the mage incapacitated but not bleeding out."""
    if not payment.scour:
        return None
    for _ in range(payment.scour):
        add_wound(sheet, "lethal", resistant=True)
    full = len(sheet.wounds) >= sheet.health_max and all(w.kind != "bashing" for w in sheet.wounds)
    if full and sheet.state == "conscious":
        sheet.state = "unconscious"
        sheet.scoured_out = True
        # cites l.286
        return "The scouring fills the health track: incapacitated, but not bleeding out."
    return None
