"""Cross-check sanguosha's card data against the facts extracted from open implementations.

Each sources/<name>.json holds facts one implementation states (card list with suit and rank,
which cards are EX, weapon ranges, generals with kingdom, HP, gender and skills, identity tables),
with the repository, commit and paths they were read from. This script compares the sources with
each other and with the deck's cards.json, generals.json and game.json, prints every disagreement,
and exits 1 when the deck disagrees with every source that states a fact (2 on unreadable input).

    .venv/bin/python decks/sanguosha/sources/crosscheck.py [--deck DIR] [--verbose]

Standard library only, so it runs anywhere the deck folder is.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OURS = "ours"
ROLES = ("lord", "loyalist", "rebel", "renegade")


@dataclass(frozen=True)
class Fact:
    """One checkable statement: its key (what it is about) and the value each party gives."""

    topic: str
    key: str
    values: Mapping[str, object]  # party (source name or "ours") -> value

    def parties_agreeing_with_ours(self) -> list[str]:
        ours = self.values.get(OURS)
        return [p for p, v in self.values.items() if p != OURS and v == ours]

    @property
    def sources(self) -> list[str]:
        return [p for p in self.values if p != OURS]

    @property
    def unanimous(self) -> bool:
        return len({_frozen(v) for v in self.values.values()}) <= 1

    @property
    def ours_unsupported(self) -> bool:
        """The deck states this fact and no source that states it agrees."""
        return OURS in self.values and bool(self.sources) and not self.parties_agreeing_with_ours()

    def line(self) -> str:
        groups: dict[str, list[str]] = {}
        for party, value in self.values.items():
            groups.setdefault(_show(value), []).append(party)
        shown = "; ".join(f"{value} ({', '.join(parties)})" for value, parties in groups.items())
        return f"{self.topic}: {self.key}: {shown}"


@dataclass
class Report:
    facts: list[Fact] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def failures(self) -> list[Fact]:
        return [f for f in self.facts if f.ours_unsupported]

    @property
    def disagreements(self) -> list[Fact]:
        return [f for f in self.facts if not f.unanimous]

    def render(self, *, verbose: bool = False) -> str:
        lines = []
        for name in sorted({f.topic for f in self.facts}):
            topic = [f for f in self.facts if f.topic == name]
            agreeing = sum(1 for f in topic if f.unanimous)
            lines.append(f"{name}: {agreeing} of {len(topic)} facts agree across every party")
        lines.append("")
        for fact in self.facts:
            if not fact.unanimous:
                mark = "FAIL" if fact.ours_unsupported else "differ"
                lines.append(f"{mark}  {fact.line()}")
            elif verbose:
                lines.append(f"agree  {fact.line()}")
        lines.extend(f"note  {note}" for note in self.notes)
        failed = len(self.failures)
        lines.append("")
        lines.append(f"{len(self.facts)} facts, {len(self.disagreements)} with disagreements, "
                     f"{failed} where the deck disagrees with every source")
        return "\n".join(lines)


class InputError(Exception):
    """A deck or source file is missing or not shaped as expected."""


def _frozen(value: object) -> object:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _show(value: object) -> str:
    if isinstance(value, Mapping):
        return "/".join(str(value.get(r, 0)) for r in ROLES) if set(value) <= set(ROLES) else _frozen_str(value)
    if value is None:
        return "absent"
    return str(value)


def _frozen_str(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: {exc}") from None


# ---------------------------------------------------------------- the deck's own facts

def deck_cards(deck: Path) -> tuple[Counter[tuple[str, str, int]], set[tuple[str, str, int]], dict[str, int]]:
    """(every physical card as (slug, suit, rank) with copies, the EX cards, weapon ranges) of cards.json."""
    cards: Counter[tuple[str, str, int]] = Counter()
    ex: set[tuple[str, str, int]] = set()
    ranges: dict[str, int] = {}
    for entry in _read(deck / "cards.json")["cards"]:
        f = entry["fields"]
        key = (f["card"], f["suit"], int(f["rank"]))
        cards[key] += int(entry.get("qty", 1))
        if f.get("ex"):
            ex.add(key)
        if "range" in f:
            ranges[f["card"]] = int(f["range"])
    return cards, ex, ranges


def deck_generals(deck: Path) -> dict[str, dict[str, Any]]:
    """slug -> {kingdom, hp, gender, skills: {skill slug: (locked, lord)}} from generals.json."""
    out: dict[str, dict[str, Any]] = {}
    for entry in _read(deck / "generals.json")["cards"]:
        f = entry["fields"]
        skills = {}
        for n in (1, 2, 3):
            if f"skill{n}_id" in f:
                tag = str(f.get(f"skill{n}_tag", ""))
                skills[str(f[f"skill{n}_id"])] = ("鎖定技" in tag, "主公技" in tag)
        out[entry["id"]] = {"kingdom": f["kingdom"], "hp": f["hp"], "gender": f["gender"], "skills": skills}
    return out


def deck_identity_tables(deck: Path) -> tuple[dict[str, dict[str, dict[str, int]]], Counter[str]]:
    """({table name -> player count -> roles} of game.json, identity cards in the box per role)."""
    rules = _read(deck / "game.json").get("rules", {})
    tables = {"standard": dict(rules.get("identity_table", {}))}
    for name, variant in rules.get("identity_variants", {}).items():
        tables[name] = dict(variant.get("table", {}))
    box: Counter[str] = Counter()
    for entry in _read(deck / "identities.json")["cards"]:
        box[entry["fields"]["role"]] += int(entry.get("qty", 1))
    return tables, box


# ---------------------------------------------------------------- the sources

def load_sources(folder: Path) -> list[dict[str, Any]]:
    sources = []
    for path in sorted(folder.glob("*.json")):
        data = _read(path)
        for key in ("source", "repo", "commit", "paths", "cards"):
            if key not in data:
                raise InputError(f"{path}: no {key!r}")
        sources.append(data)
    if len(sources) < 2:
        raise InputError(f"{folder}: fewer than two sources")
    return sources


def _card_counter(rows: Iterable[Mapping[str, Any]]) -> Counter[tuple[str, str, int]]:
    return Counter((str(r["card"]), str(r["suit"]), int(r["rank"])) for r in rows)


# ---------------------------------------------------------------- facts

def card_facts(sources: list[dict[str, Any]], deck: Path) -> Iterator[Fact]:
    cards, ex, ranges = deck_cards(deck)
    base = cards - Counter(ex)
    listed = {s["source"]: _card_counter(s["cards"]) for s in sources}
    ex_listed = {s["source"]: _card_counter(s["ex_cards"]) for s in sources if s.get("ex_cards") is not None}
    keys = set(cards).union(*listed.values())
    for key in sorted(keys):
        values: dict[str, object] = {OURS: cards[key]}
        values.update({name: found[key] for name, found in listed.items()})
        yield Fact("cards (all 108, with EX)", f"{key[0]} {key[1]} {key[2]}", values)
    for key in sorted(set(ex).union(*ex_listed.values())):
        values = {OURS: key in ex}
        values.update({name: found[key] > 0 for name, found in ex_listed.items()})
        yield Fact("EX cards", f"{key[0]} {key[1]} {key[2]}", values)
    base_names: Counter[str] = Counter()
    for (slug, _, _), n in base.items():
        base_names[slug] += n
    source_names = {name: _names(listed[name] - ex_listed[name]) for name in ex_listed}
    for slug in sorted(set(base_names).union(*source_names.values())):
        values = {OURS: base_names[slug]}
        values.update({name: found[slug] for name, found in source_names.items()})
        yield Fact("copies per card (104 base cards)", slug, values)
    source_ranges = {s["source"]: s.get("weapon_ranges") or {} for s in sources}
    for slug in sorted(set(ranges).union(*source_ranges.values())):
        values = {OURS: ranges.get(slug)}
        values.update({name: found.get(slug) for name, found in source_ranges.items() if found})
        yield Fact("weapon ranges", slug, values)


def _names(cards: Counter[tuple[str, str, int]]) -> Counter[str]:
    out: Counter[str] = Counter()
    for (slug, _, _), n in cards.items():
        out[slug] += n
    return out


def general_facts(sources: list[dict[str, Any]], deck: Path) -> Iterator[Fact]:
    ours = deck_generals(deck)
    theirs = {s["source"]: {g["slug"]: g for g in s["generals"]} for s in sources if s.get("generals")}
    for slug in sorted(set(ours).union(*theirs.values())):
        mine = ours.get(slug)
        for attr in ("kingdom", "hp", "gender"):
            values: dict[str, object] = {OURS: mine[attr] if mine else None}
            values.update({name: (gens[slug][attr] if slug in gens else None) for name, gens in theirs.items()})
            yield Fact("generals", f"{slug} {attr}", values)
        values = {OURS: sorted(mine["skills"]) if mine else None}
        values.update({name: (sorted(s["slug"] for s in gens[slug]["skills"]) if slug in gens else None)
                       for name, gens in theirs.items()})
        yield Fact("generals", f"{slug} skills", values)
        skill_slugs = set(mine["skills"] if mine else ())
        for gens in theirs.values():
            skill_slugs.update(s["slug"] for s in gens.get(slug, {}).get("skills", ()))
        for skill in sorted(skill_slugs):
            for index, attr in enumerate(("locked", "lord")):
                values = {OURS: mine["skills"][skill][index] if mine and skill in mine["skills"] else None}
                for name, gens in theirs.items():
                    found = [s for s in gens.get(slug, {}).get("skills", ()) if s["slug"] == skill]
                    values[name] = bool(found[0][attr]) if found else None
                yield Fact("skills", f"{skill} ({slug}) {attr}", values)


def identity_facts(sources: list[dict[str, Any]], deck: Path, report: Report) -> Iterator[Fact]:
    """Our standard table per player count against each source's tables (any of its tables counts).

    A source's table row that needs more identity cards of one kind than the box holds is reported
    as a note: it cannot be dealt from the printed set.
    """
    tables, box = deck_identity_tables(deck)
    theirs = {s["source"]: s["identity_tables"] for s in sources if s.get("identity_tables")}
    for count in (str(n) for n in range(2, 11)):
        for table_name, table in tables.items():
            if count not in table:
                continue
            mine = {r: int(table[count].get(r, 0)) for r in ROLES}
            values: dict[str, object] = {OURS: mine}
            for name, source_tables in theirs.items():
                rows = {t: {r: int(rows[count].get(r, 0)) for r in ROLES}
                        for t, rows in source_tables.items() if count in rows}
                same = [t for t, row in rows.items() if row == mine]
                values[name] = mine if same else rows.get("standard", next(iter(rows.values()), None))
            yield Fact("identity tables", f"{count} players ({table_name})", values)
    for name, source_tables in theirs.items():
        for table_name, rows in source_tables.items():
            for count, row in sorted(rows.items(), key=lambda kv: int(kv[0])):
                over = [r for r in ROLES if int(row.get(r, 0)) > box[r]]
                if over:
                    report.notes.append(f"{name} {table_name} table, {count} players: "
                                        f"{_show(row)} needs more {'/'.join(over)} cards than the box holds")


def cross_check(deck: Path) -> Report:
    sources = load_sources(deck / "sources")
    report = Report()
    report.facts.extend(card_facts(sources, deck))
    report.facts.extend(general_facts(sources, deck))
    report.facts.extend(identity_facts(sources, deck, report))
    for s in sources:
        report.notes.append(f"source {s['source']}: {s['repo']} @ {s['commit']}")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deck", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the deck folder (default: the one holding this script's sources/)")
    parser.add_argument("--verbose", action="store_true", help="also print every fact all parties agree on")
    args = parser.parse_args(argv)
    try:
        report = cross_check(args.deck)
    except (InputError, KeyError, TypeError) as exc:
        print(f"crosscheck: {exc}", file=sys.stderr)
        return 2
    print(report.render(verbose=args.verbose))
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
