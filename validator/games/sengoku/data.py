"""sengoku's card data against its warlord list: pure functions over the loaded model.

game.json `rules` holds the families (each with its crest file) and the 40 warlords; cards.json
holds per warlord one surname card `<warlord>-sei` and two given-name kanji cards `<warlord>-mei1`,
`<warlord>-mei2`. A kanji card shows the crest of every family that has a warlord whose given name
uses that kanji, so its declared `crests` are derived here from the warlord list and checked.
`check` yields located errors for data that breaks that contract, and notes (severity "info"
and "warning") naming the kanji several warlords share and the warlords players may confuse.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...assets import resolve_asset, svg_problem
from ...issues import Issue, Location
from ...model import Card, Game

SURNAME, GIVEN = "surname", "given"
MAX_LISTED = 8  # names quoted in one note before "…"


@dataclass(frozen=True)
class Family:
    id: str
    name: str
    crest: str
    crest_file: str
    location: Location


@dataclass(frozen=True)
class Warlord:
    id: str
    family: str
    given: tuple[str, ...]
    name: str
    location: Location


@dataclass(frozen=True)
class Confusable:
    """Two warlords a player could mix up, and why."""

    a: Warlord
    b: Warlord
    shared: tuple[str, ...]
    kind: str  # "same-kanji" (both kanji, any order) or "same-family" (one kanji, same place, same family)


def crest_path(family_id: str) -> str:
    """Where a family's crest lives; sheets that only know a warlord's family id rely on it."""
    return f"assets/crests/{family_id}.svg"


def families(game: Game) -> list[Family]:
    where = game.location.child("rules").child("families")
    return [Family(str(f.get("id")), str(f.get("family", "")), str(f.get("crest", "")), str(f.get("crest_file", "")),
                   where.child(i))
            for i, f in enumerate(_list(game.rules.get("families")))]


def warlords(game: Game) -> list[Warlord]:
    where = game.location.child("rules").child("warlords")
    return [Warlord(str(w.get("id")), str(w.get("family")), tuple(str(k) for k in w.get("given") or ()),
                    str(w.get("name", "")), where.child(i))
            for i, w in enumerate(_list(game.rules.get("warlords")))]


def crest_sets(family_order: Sequence[str], lords: Sequence[Warlord]) -> dict[str, tuple[str, ...]]:
    """kanji -> the families (in `family_order`) that have a warlord whose given name uses it."""
    using: dict[str, set[str]] = {}
    for lord in lords:
        for kanji in lord.given:
            using.setdefault(kanji, set()).add(lord.family)
    rank = {family: i for i, family in enumerate(family_order)}
    return {kanji: tuple(sorted(fams, key=lambda f: rank.get(f, len(rank)))) for kanji, fams in using.items()}


def users_of(lords: Sequence[Warlord]) -> dict[str, list[Warlord]]:
    """kanji -> the warlords whose given name uses it, in list order."""
    found: dict[str, list[Warlord]] = {}
    for lord in lords:
        for kanji in dict.fromkeys(lord.given):
            found.setdefault(kanji, []).append(lord)
    return found


def confusable_pairs(lords: Sequence[Warlord]) -> list[Confusable]:
    """Pairs using the same kanji (any order), and same-family pairs sharing a kanji in the same place.

    The first kind collect the same kanji cards; in the second only the other kanji tells the two
    apart, since the crests and the surname card are the same (the seed's 武田信玄・勝頼 warning).
    """
    pairs = []
    for a, b in combinations(lords, 2):
        if sorted(a.given) == sorted(b.given):
            pairs.append(Confusable(a, b, tuple(dict.fromkeys(a.given)), "same-kanji"))
        elif a.family == b.family:
            same_place = tuple(x for x, y in zip(a.given, b.given) if x == y)
            if same_place:
                pairs.append(Confusable(a, b, same_place, "same-family"))
    return pairs


def expected_cards(lords: Sequence[Warlord]) -> dict[str, tuple[Warlord, str, str | None]]:
    """card id -> (warlord, kind, kanji or None) for every card the warlord list calls for."""
    out: dict[str, tuple[Warlord, str, str | None]] = {}
    for lord in lords:
        out[f"{lord.id}-sei"] = (lord, SURNAME, None)
        for n, kanji in enumerate(lord.given, 1):
            out[f"{lord.id}-mei{n}"] = (lord, GIVEN, kanji)
    return out


def check(game: Game) -> Iterator[Issue]:
    fams = families(game)
    lords = warlords(game)
    yield from _check_families(game, fams)
    unique = list(_unique_warlords(lords, {f.id for f in fams}, game.rules.get("name_size")))
    issues = [i for i in unique if isinstance(i, Issue)]
    yield from issues
    if issues:
        return  # card checks would repeat the same fault once per card
    cards = _name_cards(game)
    yield from _check_cards(fams, lords, cards)
    yield from _player_limits(game, sum(card.qty for card in cards.values()))
    yield from _notes(fams, lords)


def max_players(num_cards: int, hand_size: int) -> int:
    """The most players whose hands of `hand_size` still leave at least one card to draw."""
    return (num_cards - 1) // hand_size


def _player_limits(game: Game, num_cards: int) -> Iterator[Issue]:
    """Deck size against player count: every hand size must be a whole number of names and leave a
    draw pile for the box's largest table; the limit of each hand size is reported."""
    rules, where = game.rules, game.location.child("rules")
    name_size = rules.get("name_size", 3)
    sizes = [("hand_size", rules.get("hand_size"))] + [
        (f"hand_size_options/{i}", size) for i, size in enumerate(rules.get("hand_size_options", []))]
    limits = []
    for pointer, size in sizes:
        at = where
        for key in pointer.split("/"):
            at = at.child(int(key) if key.isdigit() else key)
        if not isinstance(size, int) or size < name_size or size % name_size:
            yield Issue(at, "sengoku-hand-size",
                        f"a hand of {size!r} cards is not a whole number of {name_size}-card names")
            continue
        limit = max_players(num_cards, size)
        limits.append(f"{size}-card hands: at most {limit} players")
        if pointer == "hand_size" and game.players[1] > limit:
            yield Issue(game.location.child("players").child("max"), "sengoku-players",
                        f"{game.players[1]} players with {size}-card hands need {game.players[1] * size + 1} "
                        f"cards, the deck has {num_cards}: at most {limit} players")
    if limits:
        yield Issue(where.child("hand_size"), "sengoku-players",
                    f"info: {num_cards} cards leave a draw pile for " + "; ".join(dict.fromkeys(limits)),
                    severity="info")


def _check_families(game: Game, fams: list[Family]) -> Iterator[Issue]:
    seen: dict[str, Family] = {}
    crests: dict[str, Family] = {}
    for family in fams:
        if family.id in seen:
            yield Issue(family.location.child("id"), "sengoku-duplicate-family",
                        f"family {family.id!r} is listed twice (first at {_line(seen[family.id].location)})")
        seen.setdefault(family.id, family)
        for key in (family.crest, family.crest_file):
            if key in crests and crests[key].id != family.id:
                yield Issue(family.location.child("crest"), "sengoku-same-crest",
                            f"family {family.id!r} ({family.name}) uses the crest {key!r} of {crests[key].id!r} "
                            f"({crests[key].name}); every family needs its own crest")
            crests.setdefault(key, family)
        where = family.location.child("crest_file")
        if family.crest_file != crest_path(family.id):
            yield Issue(where, "sengoku-crest-file",
                        f"crest of {family.id!r} is {family.crest_file!r}; it must be {crest_path(family.id)!r} "
                        f"(the warlord list sheet finds each crest by its family id)")
        path = resolve_asset(game.directory, family.crest_file, where)
        if isinstance(path, Issue):
            yield path
            continue
        problem = svg_problem(path)
        if problem:
            yield Issue(where, "bad-svg", f"crest of {family.id!r}: {family.crest_file!r} {problem}")


def _unique_warlords(lords: list[Warlord], family_ids: set[str], name_size: Any) -> Iterator[Issue]:
    by_id: dict[str, Warlord] = {}
    by_name: dict[tuple[str, tuple[str, ...]], Warlord] = {}
    given_size = name_size - 1 if isinstance(name_size, int) else None
    for lord in lords:
        if lord.id in by_id:
            yield Issue(lord.location.child("id"), "sengoku-duplicate-warlord",
                        f"warlord {lord.id!r} is listed twice (first at {_line(by_id[lord.id].location)})")
        elif (lord.family, lord.given) in by_name:
            first = by_name[(lord.family, lord.given)]
            yield Issue(lord.location, "sengoku-duplicate-warlord",
                        f"warlord {lord.id!r} ({lord.name}) has the same family and given name as {first.id!r} "
                        f"(at {_line(first.location)}); the cards could not tell them apart")
        by_id.setdefault(lord.id, lord)
        by_name.setdefault((lord.family, lord.given), lord)
        if lord.family not in family_ids:
            yield Issue(lord.location.child("family"), "sengoku-unknown-family",
                        f"warlord {lord.id!r}: family {lord.family!r} is not in rules.families")
        if given_size is not None and len(lord.given) != given_size:
            yield Issue(lord.location.child("given"), "sengoku-name-size",
                        f"warlord {lord.id!r}: given name {''.join(lord.given)!r} has {len(lord.given)} kanji; "
                        f"rules.name_size {name_size} means a surname card and {given_size} kanji cards")


def _name_cards(game: Game) -> dict[str, Card]:
    return {card.id: card for deck in game.decks for card in deck.cards
            if card.fields.get("kind") in (SURNAME, GIVEN)}


def _check_cards(fams: list[Family], lords: list[Warlord], cards: Mapping[str, Card]) -> Iterator[Issue]:
    by_family = {f.id: f for f in fams}
    derived = crest_sets([f.id for f in fams], lords)
    users = users_of(lords)
    expected = expected_cards(lords)
    for card_id, (lord, kind, kanji) in expected.items():
        card = cards.get(card_id)
        if card is None:
            what = "surname card" if kind == SURNAME else f"kanji card for {kanji!r}"
            yield Issue(lord.location, "sengoku-missing-card",
                        f"warlord {lord.id!r} ({lord.name}): {what} {card_id!r} is missing from the deck")
            continue
        fields = card.location.child("fields")
        if card.fields.get("kind") != kind:
            yield Issue(fields.child("kind"), "sengoku-card-kind",
                        f"card {card_id!r} should be a {kind} card, not {card.fields.get('kind')!r}")
            continue
        if card.fields.get("warlord") not in (None, lord.id):
            yield Issue(fields.child("warlord"), "sengoku-card-warlord",
                        f"card {card_id!r} names warlord {card.fields.get('warlord')!r}, its id says {lord.id!r}")
        if kind == SURNAME:
            family = by_family[lord.family]
            for key, want in (("family", family.id), ("crest", family.crest_file)):
                if key in card.fields and card.fields[key] != want:
                    yield Issue(fields.child(key), "sengoku-surname-card",
                                f"surname card {card_id!r} of {lord.name}: {key} is {card.fields[key]!r}, "
                                f"rules.families gives {want!r}")
            continue
        assert kanji is not None  # expected_cards names the kanji of every given-name card
        if card.fields.get("kanji") != kanji:
            yield Issue(fields.child("kanji"), "sengoku-kanji",
                        f"card {card_id!r}: kanji {card.fields.get('kanji')!r}, but {lord.name} needs {kanji!r}")
            continue
        yield from _check_crests(card, kanji, derived[kanji], users[kanji], by_family)
    for card_id, card in cards.items():
        if card_id not in expected:
            yield Issue(card.location.child("id"), "sengoku-stray-card",
                        f"card {card_id!r} belongs to no warlord in rules.warlords "
                        f"(ids are '<warlord>-sei', '<warlord>-mei1', '<warlord>-mei2')")


def _check_crests(card: Card, kanji: str, want: tuple[str, ...], lords: list[Warlord],
                  by_family: Mapping[str, Family]) -> Iterator[Issue]:
    fields = card.location.child("fields")
    declared = tuple(str(card.fields.get("crests", "")).split())
    if declared != want:
        names = "・".join(lord.name for lord in lords)
        yield Issue(fields.child("crests"), "sengoku-crests",
                    f"card {card.id!r} ({kanji}) declares crests {' '.join(declared)!r}, but the warlords using "
                    f"{kanji} ({names}) give {' '.join(want)!r}")
        return
    if "crest_count" in card.fields and card.fields["crest_count"] != len(want):
        yield Issue(fields.child("crest_count"), "sengoku-crests",
                    f"card {card.id!r} ({kanji}): crest_count {card.fields['crest_count']} "
                    f"but it shows {len(want)} crests")
    for n, family in enumerate(want, 1):
        key = f"crest{n}"
        if key in card.fields and card.fields[key] != by_family[family].crest_file:
            yield Issue(fields.child(key), "sengoku-crests",
                        f"card {card.id!r} ({kanji}): {key} is {card.fields[key]!r}, the crest of {family!r} is "
                        f"{by_family[family].crest_file!r}")
    extra = f"crest{len(want) + 1}"
    if extra in card.fields:
        yield Issue(fields.child(extra), "sengoku-crests",
                    f"card {card.id!r} ({kanji}) shows {len(want)} crests but also sets {extra!r}")


def _notes(fams: list[Family], lords: list[Warlord]) -> Iterator[Issue]:
    names = {f.id: f.name for f in fams}
    where = lords[0].location if lords else None
    if where is None:
        return
    derived = crest_sets([f.id for f in fams], lords)
    for kanji, users in sorted(users_of(lords).items(), key=lambda kv: (-len(kv[1]), -len(derived[kv[0]]), kv[0])):
        if len(users) < 2:
            continue
        crests = "・".join(names.get(f, f) for f in derived[kanji])
        listed = "・".join(lord.name for lord in users[:MAX_LISTED])
        yield Issue(users[1].location, "sengoku-shared-kanji",
                    f"info: {kanji} is in {len(users)} names ({listed}): {len(users)} cards, each with "
                    f"{len(derived[kanji])} crest(s) ({crests})", severity="info")
    for pair in confusable_pairs(lords):
        if pair.kind == "same-kanji":
            yield Issue(pair.b.location, "sengoku-confusable",
                        f"warning: {pair.a.name} and {pair.b.name} use the same kanji cards "
                        f"({'・'.join(pair.shared)}); only the surname card tells them apart", severity="warning")
        else:
            yield Issue(pair.b.location, "sengoku-confusable",
                        f"info: {pair.a.name} and {pair.b.name} share {'・'.join(pair.shared)} in the same place and "
                        f"the same crest; only the other kanji tells them apart", severity="info")


def _list(value: Any) -> list[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def _line(location: Location) -> str:
    return f"line {location.line}" if location.line is not None else location.pointer
