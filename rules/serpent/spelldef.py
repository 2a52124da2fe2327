"""``/serpent spell define``: a GM creates a spell, or overrides the book's, from the same aspects (RULING 12).

Slash commands allow 25 options, so the aspects come as a few short text
options: ``dmg:"Harmony 5"``, ``duration:"3"`` / ``"P"`` / ``"F"``,
``aspects:"Subtle, Pierce 2, Area, Free Action"``,
``requirements:"Discard Matter Component; Pay 1 Essence"``,
``upgrades:"Refined = 3 Resonance or 1 Will"``, ``ritual_path:"N/A; N/A; +1 Duration; Subtle"``. Anything a GM
supplies removes that aspect from the spell's ``missing`` list.
"""

from __future__ import annotations

import re
from typing import Any, get_args

from pydantic import ValidationError

from rules.base import RuleError
from rules.serpent.book import ENERGIES, SPHERES, Requirement, Role, Spell
from rules.text import fold


def _sphere(text: str) -> str:
    for sphere in SPHERES:
        if fold(sphere) == fold(text):
            return sphere
    raise RuleError(f"{text!r} is not a sphere. Spheres: {', '.join(SPHERES)}.")


def _spheres(text: str) -> list[str]:
    return [_sphere(part) for part in re.split(r"[,/;]| and ", text) if part.strip()]


def parse_amount(text: str, what: str) -> dict[str, Any]:
    """``"2"``, ``"Harmony 5"``, ``"5 Harmony"``, ``"Physical 1"`` → an Amount."""
    words = text.replace(",", " ").split()
    out: dict[str, Any] = {"energy": "Essence"}
    for word in words:
        if re.fullmatch(r"-?\d+", word):
            out["amount"] = int(word)
        elif fold(word) == "physical":
            out["physical"] = True
        elif any(fold(word) == fold(e) for e in ENERGIES):
            out["energy"] = next(e for e in ENERGIES if fold(e) == fold(word))
        elif fold(word) in ("dmg", "damage", "infusion", "siphon"):
            continue
        else:
            raise RuleError(f'{what}: cannot read {word!r}; write e.g. "2", "Harmony 5" or "Physical 1".')
    if "amount" not in out:
        raise RuleError(f'{what}: give a number, e.g. "2" or "Harmony 5".')
    return out


def parse_duration(text: str, what: str) -> dict[str, Any]:
    t = text.strip().upper()
    if t in ("P", "F"):
        return {"kind": t}
    if t.isdigit() and int(t) >= 1:
        return {"kind": "rounds", "count": int(t)}
    raise RuleError(f"{what}: write a number of rounds, P (Persistent) or F (Focus); got {text!r}.")


FLAGS = {
    "subtle": "subtle",
    "refined": "refined",
    "impenetrable": "impenetrable",
    "resilient": "resilient",
    "invulnerable": "invulnerable",
    "unblockable": "unblockable",
    "free action": "free_action",
    "absolute free action": "absolute_free_action",
    "response": "response",
    "bonded": "bonded",
    "shape-shift": "shape_shift",
    "shape shift": "shape_shift",
    "unique to codex": "unique_to_codex",
    "disrupt": "disrupt",
    "curse": "curse",
    "target manifesting": "target_manifesting",
    "veiled": "veiled",
    "vowed": "vowed",
    "legendary": "legendary",
    "unique to bearer": "unique_to_bearer",
    "unique to caster": "unique_to_caster",
    "adamant": "adamant",
    "inexorable": "inexorable",
    "haste": "haste",
    "slow": "slow",
    "cloaked": "cloaks",
    "phased": "phases",
    "obliteration": "obliterate",
    "exclusive": "exclusive",
    "dormant": "makes_dormant",
}

# "Aspect N" and "Aspect word" forms (glossary names), read by ``apply_valued``
VALUED = (
    "backlash N, shed discord N, will break N, actions N, ally essence N, charges N (an Artifact), "
    "steps N (a Nam-Shub), dampen N [energy], "
    "spell loss N sacrifice|banish|codex, injunction ENERGY, prevents all|ROLE, unique to descriptor X, "
    "combines +1 Dmg (a Transmute's gift), dormant (a Transmute), immune X"
)


def apply_valued(data: dict[str, Any], item: str, raw: str, negate: bool) -> bool:
    """The aspects that carry a number or a word; False when ``item`` is none of them."""
    number = re.fullmatch(r"(backlash|shed discord|will break|actions|ally essence|charges|steps)\s+(\d+)", item)
    if number:
        field = {
            "backlash": "backlash",
            "shed discord": "shed_discord",
            "will break": "will_break",
            "ally essence": "ally_essence",
            "charges": "charges",
            "steps": "steps",
        }.get(number.group(1), "actions")
        optional = ("will_break", "ally_essence", "charges", "steps")
        default = None if field in optional else 1 if field == "actions" else 0
        data[field] = default if negate else int(number.group(2))
        return True
    words = item.split()
    if item.startswith(("dampen", "spell loss")):
        field = "dampen" if item.startswith("dampen") else "spell_loss"
        if negate:
            data[field] = None
            return True
        rest = item.removeprefix("dampen").removeprefix("spell loss").strip()
        if field == "dampen":
            data[field] = parse_amount(rest, "dampen")
            if data[field]["energy"] == "Essence" and "essence" not in rest:
                data[field]["energy"] = "Resonance"
        else:
            match = re.fullmatch(r"(\d+)\s*(sacrifice|sacrificed|banish|banished|codex|returned to the codex)", rest)
            if not match:
                raise RuleError('spell loss: write e.g. "Spell Loss 2 banish" (sacrifice, banish or codex).')
            word = match.group(2)
            how = "banish" if "banish" in word else "codex" if "codex" in word else "sacrifice"
            data[field] = {"amount": int(match.group(1)), "how": how}
        return True
    if item.startswith("injunction"):
        energy = next((e for e in ENERGIES if fold(e) == (words[-1] if len(words) > 1 else "")), None)
        if energy is None and not negate:
            raise RuleError(f"injunction: name the energy it stops the bearer gaining ({', '.join(ENERGIES)}).")
        data["injunction"] = None if negate else energy
        return True
    if item.startswith("prevents"):
        roles = get_args(Role)
        what = item.removeprefix("prevents").strip()
        role = (
            "all"
            if what in ("all", "all spells", "casting")
            else next((r for r in roles if fold(r) == what.removesuffix(" spells").removesuffix("s")), None)
        )
        if role is None and not negate:
            raise RuleError(f"prevents: write 'all' or a spell role ({', '.join(roles)}).")
        data["prevents"] = None if negate else role
        return True
    if item.startswith("unique to descriptor"):
        what = raw.strip().split(None, 3 + int(negate))[-1] if len(words) > 3 else ""
        if not what and not negate:
            raise RuleError("unique to descriptor: name the descriptor, e.g. 'Unique to Descriptor Heat'.")
        data["unique_to_descriptor"] = None if negate else what.strip()
        return True
    if item.startswith("combines"):
        data["combine"] = None if negate else parse_boost(item.removeprefix("combines").strip(), "combines")
        return True
    return False


def apply_aspects(data: dict[str, Any], text: str) -> None:
    for raw in re.split(r"[,;]", text):
        item = fold(raw)
        if not item:
            continue
        negate = item.startswith("no ")
        item = item[3:] if negate else item
        number = re.fullmatch(r"(pierce|shatter|eloquent)\s+(\d+)", item)
        if number:
            data[number.group(1)] = 0 if negate else int(number.group(2))
        elif item in ("area", "area:team"):
            data["area"] = None if negate else "team"
        elif item in ("area:g", "area:global", "global area"):
            data["area"] = None if negate else "global"
        elif item in ("evade", "shield"):
            data["defense"] = None if negate else item.title()
        elif re.fullmatch(r"ward\s+(\d+)\s+spell loss", item):
            # glossary "Ward": "Some Wards will specify that they mitigate ... Spell Loss"
            data["defense"] = None if negate else "Ward"
            data["ward_spell_loss"] = 0 if negate else int(item.split()[1])
        elif re.fullmatch(r"ward(\s+\d+)?(\s+\w+)?", item):
            # "Ward" alone reduces Essence Dmg by 1 (glossary "Ward"); "Ward 2 Harmony" says more
            parts = item.split()[1:]
            amount = int(parts[0]) if parts and parts[0].isdigit() else 1
            energy = next((e for e in ENERGIES if parts and fold(e) == parts[-1]), "Essence")
            data["defense"] = None if negate else "Ward"
            data["ward"] = None if negate else {"amount": amount, "energy": energy}
        elif item.startswith("immune "):
            # glossary "Immune": the spell itself cannot be affected by effects with this descriptor or sphere
            what = raw.strip().split(None, 1)[1] if not negate else raw.strip().split(None, 2)[2]
            current = [x for x in data.get("immune", []) if fold(x) != fold(what)]
            data["immune"] = current if negate else [*current, what.strip()]
        elif item in FLAGS:
            data[FLAGS[item]] = not negate
        elif apply_valued(data, item, raw, negate):
            continue
        else:
            known = (
                ", ".join(sorted(FLAGS))
                + ", pierce N, shatter N, eloquent N, area, area:g, evade, shield, ward [N energy], "
                + VALUED
            )
            raise RuleError(f"Unknown aspect {raw.strip()!r}. Known: {known}. Prefix 'no ' to remove one.")


def parse_boost(text: str, what: str) -> dict[str, Any]:
    """``"+1 Duration, Subtle"`` → a Boost; "N/A" (an empty ritual tier) → {}."""
    boost: dict[str, Any] = {}
    for raw in re.split(r"[,&]| and ", text):
        item = fold(raw)
        if not item or item in ("n/a", "na", "none", "-"):
            continue
        number = re.fullmatch(r"\+?(\d+)\s+(dmg|duration|resonance)", item) or re.fullmatch(
            r"generates \+?(\d+) (resonance)", item
        )
        flag = re.fullmatch(r"(pierce|shatter)\s+(\d+)", item)
        if number:
            field = {"dmg": "add_dmg", "duration": "add_duration", "resonance": "add_resonance"}[number.group(2)]
            boost[field] = int(number.group(1))
        elif flag:
            boost[flag.group(1)] = int(flag.group(2))
        elif item in ("refined", "subtle", "free action", "sealed"):
            boost[item.replace(" ", "_")] = True
        else:
            raise RuleError(
                f"{what}: cannot read {raw.strip()!r}. Known: +N Dmg, +N Duration, +N Resonance, Refined, Subtle, "
                "Free Action, Sealed, Pierce N, Shatter N, N/A."
            )
    return boost


def parse_upgrades(text: str) -> list[dict[str, Any]]:
    """``"Refined = 3 Resonance or 1 Will; +1 Dmg = 2 Harmony"``: what it adds, then its prices."""
    upgrades = []
    for clause in (c.strip() for c in text.split(";")):
        if not clause:
            continue
        gives, _, costs = clause.partition("=")
        if not costs.strip():
            raise RuleError(f"Upgrade {clause!r}: write what it adds, '=', then its price, e.g. 'Refined = 1 Will'.")
        prices = []
        for option in re.split(r"\bor\b", costs):
            amount = parse_amount(option, "upgrade price")
            if amount["energy"] == "Essence" and "essence" not in fold(option):
                amount["energy"] = "Resonance"
            prices.append({amount["energy"]: amount["amount"]})
        key = fold(gives).replace(" ", "-").replace("+", "")
        upgrades.append({"key": key, "text": clause, "prices": prices, "boost": parse_boost(gives, "upgrade")})
    return upgrades


def parse_requirements(text: str) -> list[dict[str, Any]]:
    """A small phrasebook for the requirement kinds the engine checks; each clause is kept as its text."""
    out: list[dict[str, Any]] = []
    for clause in (c.strip() for c in text.split(";")):
        if not clause:
            continue
        low = fold(clause)
        when = "both" if "cast and sustain" in low else "sustain" if "to sustain" in low else "cast"
        req: dict[str, Any] = {"text": clause, "when": when}
        amount = re.search(r"(\d+)", low)
        if amount:
            req["amount"] = int(amount.group(1))
        if low.startswith("discard") and "component" in low:
            req["kind"] = "discard_component"
            for sphere in SPHERES:
                if fold(sphere) in low:
                    req["sphere"] = sphere
            if "sphere" not in req:
                match = re.search(r"discard (?:an? )?(\w+) component", low)
                if match and match.group(1) not in ("a", "an", "the"):
                    req["descriptor"] = match.group(1).title()
        elif low.startswith("discard") and "charge" in low:
            req["kind"] = "discard_charge"
            match = re.search(r"(?:\d+\s+)?(?:an?\s+)?(\w+) charge", low)
            req["charge"] = match.group(1).title() if match else "Charge"
        elif low.startswith("pay") and "essence" in low:
            req["kind"] = "pay_essence"
        elif low.startswith("pay") and "will" in low:
            req["kind"] = "pay_will"
        elif low.startswith("pay") and "resonance" in low:
            req["kind"] = "pay_resonance"
        elif low.startswith(("attunement", "dominance")):
            req["kind"] = "attunement" if low.startswith("attunement") else "dominance"
            sphere = next((x for x in SPHERES if fold(x) in low), None)
            if sphere is None:
                raise RuleError(f"{clause!r}: name the sphere, e.g. 'Attunement Soul' or 'Dominance Matter'.")
            req["sphere"] = sphere
        elif low.startswith("burn") and "focus" in low:
            req["kind"] = "burn_focus"
        elif low.startswith("active") and "bearer" in low:
            req["kind"] = "active_on_bearer"
            words = low.replace("active", "").split(" on bearer")[0].split()
            roles = {
                "enhancement": "Enhance",
                "enhance": "Enhance",
                "component": "Component",
                "shield": "Defense",
                "defense": "Defense",
            }
            for word in words:
                if word in roles:
                    req["role"] = roles[word]
                elif word.title() in SPHERES:
                    req["sphere"] = word.title()
                else:
                    req["descriptor"] = word.title()
        elif low.startswith("active"):
            req["kind"] = "active"
            words = low.replace("active", "").replace("to cast and sustain", "").replace("to sustain", "").split()
            if words:
                req["descriptor"] = words[0].title()
        else:
            raise RuleError(
                f"Cannot read the requirement {clause!r}. Known forms: 'Discard Matter Component', "
                "'Discard a Gas component', 'Discard 1 Karma charge', 'Pay 1 Essence', 'Pay 1 Will', "
                "'Active Cellular Enhancement on bearer to cast and sustain', 'Attunement Soul', 'Dominance Matter', "
                "'Burn Focus'."
            )
        out.append(req)
    return out


def define(base: Spell | None, name: str, fields: dict[str, Any]) -> Spell:
    """Merge the GM's fields over the book's (or a blank) spell and validate the result."""
    data: dict[str, Any] = base.model_dump() if base else {"title": name.strip()}
    supplied: set[str] = set()
    for key, value in fields.items():
        if value is None:
            continue
        supplied.add(key)
        if key == "sphere":
            data["sphere"] = _sphere(value)
        elif key == "role":
            roles = get_args(Role)
            match = next((r for r in roles if fold(r) == fold(value) or fold(r).startswith(fold(value))), None)
            if match is None:
                raise RuleError(f"{value!r} is not a spell role. Roles: {', '.join(roles)}.")
            data["role"] = match
        elif key in ("dmg", "infusion", "siphon"):
            data[key] = None if fold(value) in ("none", "0", "") else parse_amount(value, key)
        elif key in ("duration", "curse_duration"):
            data[key] = None if fold(value) == "none" else parse_duration(value, key)
            if key == "curse_duration" and data[key]:
                data["curse"] = True
        elif key == "shields":
            data["shield_spheres"] = _spheres(value)
            data["defense"] = "Shield"
            supplied.add("shield_spheres")
        elif key == "descriptors":
            data["descriptors"] = [d.strip() for d in value.split(",") if d.strip()]
        elif key == "aspects":
            apply_aspects(data, value)
        elif key == "requirements":
            data["requirements"] = [Requirement.model_validate(r).model_dump() for r in parse_requirements(value)]
        elif key == "sustain":
            parsed = parse_amount(value, "sustain")
            data["sustain"] = {
                parsed["energy"] if parsed["energy"] != "Essence" or "essence" in fold(value) else "Resonance": parsed[
                    "amount"
                ]
            }
        elif key == "dispel":
            parts = fold(value).replace(" to ", " ").split()
            targets = next((p for p in parts if p in ("active", "manifesting", "both")), None)
            to = next((p for p in parts if p in ("discard", "banish", "codex")), None)
            if targets is None and base and base.dispel:
                targets = base.dispel.targets
            if targets is None:
                raise RuleError(
                    "dispel: say which spells it removes: active, manifesting or both (and optionally 'to discard')."
                )
            data["dispel"] = {"targets": targets, "to": to}
            if to:
                supplied.add("dispel_to")
        elif key == "upgrades":
            data["upgrades"] = parse_upgrades(value)
        elif key == "ritual_path":
            tiers = [t.strip() for t in value.split(";")]
            if len(tiers) > 4:
                raise RuleError("A ritual path has four tiers; separate them with ';'.")
            data["ritual_path"] = [parse_boost(t, "ritual path") or None for t in tiers]
        elif key == "dispel_to":
            if not data.get("dispel"):
                raise RuleError("dispel_to needs a spell with a Dispel (give dispel: too).")
            data["dispel"] = {**data["dispel"], "to": fold(value)}
        else:
            data[key] = value
    if "role" not in data:
        raise RuleError(f"{name} is a new spell: give its role (Attack, Defense, Enhance, Component, Abjuration...).")
    data["missing"] = [m for m in data.get("missing", []) if m not in supplied]
    data["source"] = (data.get("source") or "") + (" · GM-defined: " + ", ".join(sorted(supplied)) if supplied else "")
    try:
        return Spell.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5])
        raise RuleError(f"That spell definition does not hold together: {problems}.") from exc
