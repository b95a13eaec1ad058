"""The only reader of deck files: decks/<game>/*.json -> schema checks -> the typed model."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import schema
from .assets import resolve_asset, resolve_font
from .binding import BindingError, bind_text
from .issues import DeckError, Issue, Location
from .jsonsource import SourcedJson, load_json
from .limits import MAX_GAME_JSON_BYTES, MAX_PRINTED_PIECES
from .mapfile import build_map
from .model import Card, CardSize, CompositionRule, Deck, Element, FontRef, Game, GameMap, Layout, Rulebook, Template
from .paths import GAME_FILE
from .presets import CARD_SIZES
from .rulebooks import build_rulebook
from .typeset import FontError, load_metrics

GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")  # as schema/defs.schema.json's id: a folder name, never a path


@dataclass
class _ReadBudget:
    """The JSON bytes loading one game may still parse (MAX_GAME_JSON_BYTES). Each file is bounded on its
    own; this bounds their sum, so 64 components naming one 2 MiB file are not 64 parses of it."""

    left: int


def find_games(decks_dir: Path) -> list[str]:
    """Game ids: every folder under `decks_dir` holding a game.json."""
    return sorted(p.parent.name for p in decks_dir.glob(f"*/{GAME_FILE}"))


def load_game(decks_dir: Path, game_id: str) -> Game:
    """Load and schema-check one game; raise DeckError listing every problem found."""
    directory = decks_dir / game_id
    manifest_path = directory / GAME_FILE
    if not GAME_ID.fullmatch(game_id) or not manifest_path.is_file():
        known = ", ".join(find_games(decks_dir)) or "none"
        where = directory if GAME_ID.fullmatch(game_id) and directory.exists() else decks_dir
        why = f"no {GAME_FILE} in it" if where == directory else f"no game {game_id!r} here"
        raise DeckError([Issue(Location(where), "unknown-game", f"{why} (games in {decks_dir}: {known})")])
    manifest = load_json(manifest_path, root=directory)
    _raise_if(schema.validate(manifest, "game.schema.json"))
    data = manifest.data
    issues: list[Issue] = []
    budget = _ReadBudget(MAX_GAME_JSON_BYTES - _size(manifest_path))
    if data["id"] != game_id:
        issues.append(Issue(manifest.location("/id"), "id-mismatch",
                            f"id {data['id']!r} must equal the folder name {game_id!r}"))
    issues.extend(_rules_issues(manifest, game_id))
    fonts = _load_fonts(directory, manifest, issues)
    decks = []
    rulebooks = []
    maps = []
    printed = 0
    for index, component in enumerate(data["components"]):
        pointer = f"/components/{index}"
        if component["kind"] in ("deck", "sheet"):
            deck = _load_deck(directory, manifest, pointer, component, issues, budget)
            if deck is None:
                continue
            printed += sum(card.qty for card in deck.cards)
            if printed > MAX_PRINTED_PIECES:  # checks and drawing walk every copy: refuse before either
                issues.append(Issue(manifest.location(f"{pointer}/cards"), "too-many-pieces",
                                    f"with {component['cards']!r} the game prints {printed:,} cards and sheets "
                                    f"(each qty counted), over the limit of {MAX_PRINTED_PIECES:,}"))
                break
            decks.append(deck)
        elif component["kind"] == "rulebook":
            book = _load_rulebook(directory, manifest, pointer, component, issues, budget)
            if book is not None:
                rulebooks.append(book)
        elif component["kind"] == "map":
            game_map = _load_map(directory, manifest, pointer, component, issues, budget)
            if game_map is not None:
                maps.append(game_map)
    _raise_if(issues)
    players = data["players"]
    minutes = data["play_minutes"]
    return Game(
        id=game_id,
        title=data["title"],
        players=(players["min"], players["max"]),
        play_minutes=(minutes["min"], minutes["max"]),
        directory=directory,
        fonts=fonts,
        decks=tuple(decks),
        location=manifest.location(),
        rules=data.get("rules", {}),
        simulation=data.get("simulation", {}),
        rulebooks=tuple(rulebooks),
        title_en=data.get("title_en"),
        min_age=data.get("min_age"),
        recommended=tuple(data.get("recommended", ())),
        credits=data.get("credits", {}),
        palette=data.get("palette", {}),
        maps=tuple(maps),
    )


def _rules_issues(manifest: SourcedJson, game_id: str) -> list[Issue]:
    """game.json "rules" against the rules schema of the engine it names (rules.engine, default: the game id).

    Checked here, before any engine is built, so a missing or mistyped rule is one located line in
    game.json rather than whatever the engine's own guard raises later. The registry is imported
    in the call, not with this module: game packages import the model this module builds.
    """
    from .engine.registry import find_spec

    rules: dict[str, Any] = manifest.data.get("rules", {})
    try:
        spec = find_spec(str(rules.get("engine", game_id)))
    except ValueError as exc:
        if "engine" not in rules:
            return []  # a game without a rules engine: nothing reads its rules
        return [Issue(manifest.location("/rules/engine"), "unknown-engine", str(exc))]
    if spec.rules_schema is None:
        return []
    note = f"; see schema/{spec.rules_schema}, the rules the {spec.name} engine reads"
    if "rules" not in manifest.data:
        return [Issue(manifest.location(""), "schema", f"'rules' is required{note}")]
    found = schema.validate_part(manifest, "/rules", spec.rules_schema, note)
    return found or _variant_rules_issues(manifest, rules, spec.rules_schema, note)


def _variant_rules_issues(manifest: SourcedJson, rules: dict[str, Any], schema_name: str, note: str) -> list[Issue]:
    """Each simulation.variants option's rules, merged over the deck's, against the same rules schema.

    An option only replaces keys, so a violation lies in a key it sets: the error is located there
    (or at the option's "rules" when it adds a key the engine does not read).
    """
    variants = manifest.data.get("simulation", {}).get("variants", {})
    issues = []
    for index, option in enumerate(variants.get("options", [])):
        changes = option.get("rules", {})
        at = f"/simulation/variants/options/{index}/rules"
        for path, message in schema.value_errors({**rules, **changes}, schema_name):
            inside = path if path and path[0] in changes else ()
            issues.append(Issue(manifest.location(at + "".join(f"/{p}" for p in inside)), "schema", message + note))
    return issues


def _raise_if(issues: list[Issue]) -> None:
    if issues:
        raise DeckError(issues)


def _load_fonts(directory: Path, manifest: SourcedJson, issues: list[Issue]) -> dict[str, FontRef]:
    fonts = {}
    for key, spec in manifest.data["fonts"].items():
        where = manifest.location(f"/fonts/{key}")
        path = resolve_font(directory, spec, where)
        if isinstance(path, Issue):
            issues.append(path)
            continue
        try:
            load_metrics(path)
        except FontError as exc:
            issues.append(Issue(where, "font-invalid", f"font {spec!r}: {exc.message}"))
            continue
        fonts[key] = FontRef(key, path, where)
    return fonts


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # the reader says what is wrong with it


def _load_part(directory: Path, manifest: SourcedJson, pointer: str, relative: str,
               schema_name: str, issues: list[Issue], budget: _ReadBudget) -> SourcedJson | None:
    path = resolve_asset(directory, relative, manifest.location(pointer))
    if isinstance(path, Issue):
        issues.append(path)
        return None
    size = _size(path)
    if budget.left < 0:
        return None  # the game is already over its budget, and said so once
    if size > budget.left:
        issues.append(Issue(manifest.location(pointer), "game-too-large",
                            f"reading {relative[:80]!r} ({size:,} bytes) would take the JSON this game loads over "
                            f"{MAX_GAME_JSON_BYTES:,} bytes (a file named by several components counts each time)"))
        budget.left = -1  # one line: the components after this one are not read either
        return None
    budget.left -= size
    try:
        doc = load_json(path, root=directory)
    except DeckError as exc:
        issues.extend(exc.issues)
        return None
    found = schema.validate(doc, schema_name)
    issues.extend(found)
    return None if found else doc


def _load_deck(directory: Path, manifest: SourcedJson, pointer: str,
               component: dict[str, Any], issues: list[Issue], budget: _ReadBudget) -> Deck | None:
    cards_doc = _load_part(directory, manifest, f"{pointer}/cards", component["cards"], "cards.schema.json", issues,
                           budget)
    layout_doc = _load_part(directory, manifest, f"{pointer}/layout", component["layout"], "layout.schema.json",
                            issues, budget)
    if cards_doc is None or layout_doc is None:
        return None
    layout = _build_layout(layout_doc, issues, needs_back=component["kind"] == "deck",
                           shared=manifest.data, shared_location=manifest.location())
    if layout is None:
        return None
    context = {"rules": manifest.data.get("rules", {})}  # templates may bind {rules[...]} from game.json
    derived = cards_doc.data.get("derived", {})
    cards = tuple(_build_card(cards_doc, n, raw, layout.default_back, context, derived, issues)
                  for n, raw in enumerate(cards_doc.data["cards"]))
    rules = tuple(
        CompositionRule(
            name=raw["name"],
            where=raw["where"],
            count=raw.get("count"),
            grid={k: tuple(v) for k, v in raw["grid"].items()} if "grid" in raw else None,
            copies=raw.get("copies", 1),
            location=cards_doc.location(f"/composition/{n}"),
        )
        for n, raw in enumerate(cards_doc.data.get("composition", []))
    )
    return Deck(
        id=component["id"],
        title=component.get("title", component["id"]),
        cards=cards,
        layout=layout,
        composition=rules,
        total=cards_doc.data.get("total"),
        total_location=cards_doc.location("/total"),
        kind=component["kind"],
        fillable=component.get("fillable", False),
        gang=component.get("gang"),
        location=manifest.location(pointer),
    )


def _load_rulebook(directory: Path, manifest: SourcedJson, pointer: str,
                   component: dict[str, Any], issues: list[Issue], budget: _ReadBudget) -> Rulebook | None:
    doc = _load_part(directory, manifest, f"{pointer}/source", component["source"], "rulebook.schema.json", issues,
                     budget)
    return None if doc is None else build_rulebook(doc, component, manifest.location(pointer))


def _load_map(directory: Path, manifest: SourcedJson, pointer: str,
              component: dict[str, Any], issues: list[Issue], budget: _ReadBudget) -> GameMap | None:
    doc = _load_part(directory, manifest, f"{pointer}/source", component["source"], "map.schema.json", issues, budget)
    if doc is None:
        return None
    game_map, found = build_map(doc, component, manifest.location(pointer), manifest.data.get("palette", {}))
    issues.extend(found)
    return game_map


def _build_card(doc: SourcedJson, index: int, raw: dict[str, Any], default_back: str,
                context: dict[str, Any], derived: dict[str, str], issues: list[Issue]) -> Card:
    fields = raw["fields"]
    if derived:
        fields = dict(fields)
        for name, template in derived.items():
            if name in raw["fields"]:
                continue  # the card's own value wins
            try:
                fields[name] = bind_text(template, {**context, **raw["fields"]})
            except BindingError as exc:
                issues.append(Issue(doc.location(f"/derived/{name}"), "derived-field",
                                    f"card {raw['id']!r} (/cards/{index}): {exc}"))
    return Card(
        id=raw["id"],
        face=raw["face"],
        back=raw.get("back", default_back),
        qty=raw.get("qty", 1),
        fields=fields,
        location=doc.location(f"/cards/{index}"),
        context=context,
    )


def _build_layout(doc: SourcedJson, issues: list[Issue], *, needs_back: bool,
                  shared: dict[str, Any], shared_location: Location) -> Layout | None:
    """`shared` is game.json, whose palette and colour maps every layout inherits."""
    data = doc.data
    card = data["card"]
    size = card["size"]
    width, height = CARD_SIZES[size] if isinstance(size, str) else (size["width"], size["height"])
    card_size = CardSize(width, height, card.get("bleed", 3.0), card.get("safe", 3.0), card.get("corner_radius", 3.0))
    raw_templates = data["templates"]
    templates = {}
    for name in raw_templates:
        chain = _extends_chain(doc, raw_templates, name, issues)
        if chain is None:
            continue
        elements = tuple(
            Element(raw["type"], raw, doc.location(f"/templates/{owner}/elements/{n}"))
            for owner in chain
            for n, raw in enumerate(raw_templates[owner]["elements"])
        )
        templates[name] = Template(name, elements, doc.location(f"/templates/{name}"))
    back = data.get("back", "")
    if needs_back and "back" not in data:
        issues.append(Issue(doc.location(""), "schema", "'back' is required: a deck's cards need a back template"))
    elif needs_back and back not in raw_templates:
        issues.append(Issue(doc.location("/back"), "unknown-template",
                            f"back template {back!r} is not defined in templates"))
    return Layout(
        size=card_size,
        palette={**shared.get("palette", {}), **data.get("palette", {})},
        color_maps={**shared.get("color_maps", {}), **data.get("color_maps", {})},
        color_map_locations={
            **{name: shared_location.child("color_maps").child(name) for name in shared.get("color_maps", {})},
            **{name: doc.location("/color_maps").child(name) for name in data.get("color_maps", {})},
        },
        templates=templates,
        default_back=back,
        gutter=card.get("gutter"),
        small_text_black=card.get("small_text_black", True),
        location=doc.location(),
    )


def _extends_chain(doc: SourcedJson, templates: dict[str, Any], name: str, issues: list[Issue]) -> list[str] | None:
    """Template names from the root ancestor down to `name`; None (with an issue) if broken."""
    chain = [name]
    while "extends" in templates[chain[-1]]:
        parent = templates[chain[-1]]["extends"]
        where = doc.location(f"/templates/{chain[-1]}/extends")
        if parent not in templates:
            issues.append(Issue(where, "unknown-template", f"extends unknown template {parent!r}"))
            return None
        if parent in chain:
            if parent == name and name == min(chain):
                cycle = " -> ".join(chain + [parent])
                issues.append(Issue(where, "template-cycle", f"templates extend each other in a cycle: {cycle}"))
            return None
        chain.append(parent)
    return list(reversed(chain))
