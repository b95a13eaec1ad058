"""漢字と家紋の戦国武将 (sengoku): the name table — card types, names, packing, riichi and the tie-break.

Cards are ints 0..119 (physical copies), read from cards.json. Cards that are identical in play share
a *type*: one per family (surname cards) and one per kanji (given-name cards). A *name* is a warlord:
the multiset of its three types. Hands are handled as sorted tuples of types.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine.frozen import reduce_frozen
from ...model import CardCopy


@dataclass(frozen=True)
class NameTable:
    """Card types, crests and names of one deck, with memoised packing."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_frozen(self)  # spawned workers get it pickled, also when compiled

    type_of: tuple[int, ...]                   # physical card -> type
    type_label: tuple[str, ...]                # type -> 武田 / 信
    is_given: tuple[bool, ...]                 # type -> a given-name (kanji) card
    crests: tuple[int, ...]                    # type -> crests printed (0 for surname cards)
    names: tuple[tuple[int, ...], ...]         # warlord index -> its three types, sorted
    name_label: tuple[str, ...]                # warlord index -> 武田信玄
    names_with: tuple[tuple[int, ...], ...]    # type -> warlord indices using it
    copies: tuple[int, ...]                    # type -> cards of that type in the deck
    completers: tuple[tuple[tuple[int, int, int], ...], ...]  # type -> (warlord, other two types), one per card set
    partners: tuple[tuple[int, ...], ...] = ()  # given type -> the given types that share a name with it
    surname_types: frozenset[int] = frozenset()
    _packing: dict[tuple[int, ...], int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def num_types(self) -> int:
        return len(self.type_label)

    # -- names in a hand --------------------------------------------------------------------
    def packing(self, hand: tuple[int, ...]) -> int:
        """The most disjoint names a hand (sorted types) can make at once."""
        known = self._packing.get(hand)
        if known is None:
            if len(self._packing) > 400_000:
                self._packing.clear()
            known = self._packing[hand] = self._pack(hand)
        return known

    def _pack(self, hand: tuple[int, ...], wild: bool = False) -> int:
        """Every name has one surname card: choose, surname card by surname card, the name it is in (or none)."""
        held = [0] * len(self.type_label)
        surnames = []
        is_given = self.is_given
        for t in hand:
            if is_given[t]:
                held[t] += 1
            else:
                surnames.append(t)
        return self._pack_from(surnames, 0, held, wild)

    def _pack_from(self, surnames: list[int], i: int, held: list[int], wild: bool) -> int:
        """The most names from surnames[i:] and the given cards `held`, plus one wildcard card if `wild`."""
        if i == len(surnames):
            return 1 if wild and self._pair_held(held) else 0  # the wildcard as a surname card
        most = len(surnames) - i + wild  # no more names than surname cards, the wildcard one of them
        best = self._pack_from(surnames, i + 1, held, wild)  # this surname card is left over
        for _, a, b in self.completers[surnames[i]]:
            if best == most:
                break
            has_a = held[a] > 0
            has_b = held[b] > (1 if a == b and has_a else 0)
            if has_a and has_b:
                held[a] -= 1
                held[b] -= 1
                best = max(best, 1 + self._pack_from(surnames, i + 1, held, wild))
                held[a] += 1
                held[b] += 1
            elif wild and (has_a or has_b):
                kept = a if has_a else b
                held[kept] -= 1
                best = max(best, 1 + self._pack_from(surnames, i + 1, held, False))
                held[kept] += 1
        return best

    def _pair_held(self, held: list[int]) -> bool:
        """Some name's two given cards are among `held`."""
        partners = self.partners
        for t, n in enumerate(held):
            if n:
                for u in partners[t]:
                    if held[u] > (t == u):
                        return True
        return False

    def is_complete_but_one(self, hand: tuple[int, ...]) -> bool:
        """Every card of the hand (3k + 1 sorted types) but one is in a name."""
        return self.packing(hand) * 3 == len(hand) - 1

    def is_ready(self, hand: tuple[int, ...]) -> bool:
        """Riichi: the hand (3k sorted types) is one card from complete — some card in, one out."""
        return self.packing_wild(hand) == len(hand) // 3

    def packing_wild(self, hand: tuple[int, ...]) -> int:
        """The most disjoint names a hand (sorted types) can make with one wildcard card added."""
        key = hand + (-1,)
        known = self._packing.get(key)
        if known is None:
            known = self._packing[key] = self._pack(hand, wild=True)
        return known

    def best_split(self, hand: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(names, leftover): the hand less as many names as it can make; of several ways, the leftover
        with the fewest given cards, then the fewest crests (the best one for its holder)."""
        best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        for split in self._splits(hand, self.packing(hand)):
            if best is None or self._left_key(split[1]) < self._left_key(best[1]):
                best = split
        assert best is not None
        return best

    def _left_key(self, left: tuple[int, ...]) -> tuple[int, int]:
        return sum(self.is_given[t] for t in left), sum(self.crests[t] for t in left)

    def _splits(self, hand: tuple[int, ...], names: int) -> Iterable[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every (warlords, leftover) of `hand` after removing `names` disjoint names (with repeats)."""
        if names == 0:
            yield (), hand
            return
        if self.packing(hand) < names:
            return
        first, rest = hand[0], hand[1:]
        for used, left in self._splits(rest, names):
            yield used, tuple(sorted(left + (first,)))
        for w in self.names_with[first]:
            remaining = list(rest)
            name = list(self.names[w])
            name.remove(first)
            try:
                for t in name:
                    remaining.remove(t)
            except ValueError:
                continue
            for used, left in self._splits(tuple(remaining), names - 1):
                yield (w,) + used, left

    # -- ranking ----------------------------------------------------------------------------
    def compare_tied(self, a: Sequence[int], b: Sequence[int]) -> tuple[int, int]:
        """Tie-break of two hands with the same card count: (-1 a ranks higher | 1 b | 0 shared, rule 1 or 2)."""
        return self.compare_crests(self.tie_crests(a), self.tie_crests(b))

    def tie_crests(self, hand: Sequence[int]) -> list[int]:
        """What the tie-break reads of a hand: the crests of its given-name cards, fewest first."""
        crests, is_given = self.crests, self.is_given
        return sorted([crests[t] for t in hand if is_given[t]])

    @staticmethod
    def compare_crests(crests_a: Sequence[int], crests_b: Sequence[int]) -> tuple[int, int]:
        """compare_tied of two hands given as their tie_crests."""
        used = 1 if len(crests_a) == len(crests_b) else 2
        keep = min(len(crests_a), len(crests_b))   # the one with more keeps its fewest-crest cards
        total_a, total_b = sum(crests_a[:keep]), sum(crests_b[:keep])
        return (total_a > total_b) - (total_a < total_b), used


def build_name_table(cards: Sequence[CardCopy], rules: Mapping[str, Any]) -> NameTable:
    """Types, crests and names from cards.json's physical cards and game.json rules (families and warlords)."""
    families = {f["id"]: f["family"] for f in rules["families"]}
    labels: list[str] = []
    given: list[bool] = []
    crest_count: list[int] = []
    index: dict[tuple[str, str], int] = {}

    def type_for(kind: str, key: str, label: str, crests: int) -> int:
        found = index.get((kind, key))
        if found is None:
            found = index[(kind, key)] = len(labels)
            labels.append(label)
            given.append(kind == "given")
            crest_count.append(crests)
        elif crest_count[found] != crests:
            raise ValueError(f"sengoku: cards of {label} show different numbers of crests")
        return found

    type_of: list[int] = []
    for copy in cards:
        f = copy.card.fields
        if f["kind"] == "surname":
            t = type_for("surname", f["family"], families[f["family"]], 0)
        else:
            t = type_for("given", f["kanji"], f["kanji"], len(str(f["crests"]).split()))
        type_of.append(t)
    names: list[tuple[int, ...]] = []
    name_labels: list[str] = []
    for warlord in rules["warlords"]:
        parts = [index[("surname", warlord["family"])]] + [index[("given", k)] for k in warlord["given"]]
        if len(parts) != 3:
            raise ValueError(f"sengoku: {warlord['name']} is not a surname card and two kanji cards")
        names.append(tuple(sorted(parts)))
        name_labels.append(warlord["name"])
    names_with = [[] for _ in labels]  # type: list[list[int]]
    for w, name in enumerate(names):
        for t in set(name):
            names_with[t].append(w)
    copies = Counter(type_of)
    completers: list[list[tuple[int, int, int]]] = [[] for _ in labels]
    first_of: dict[tuple[int, ...], int] = {}
    for w, name in enumerate(names):
        if first_of.setdefault(name, w) != w:
            continue  # the same three cards as an earlier warlord: one way to lay them out
        for t in set(name):
            a, b = _without_one(name, t)
            completers[t].append((w, a, b))
    partners: list[set[int]] = [set() for _ in labels]
    for family in range(len(labels)):
        if not given[family]:
            for _, a, b in completers[family]:
                partners[a].add(b)
                partners[b].add(a)
    return NameTable(tuple(type_of), tuple(labels), tuple(given), tuple(crest_count), tuple(names),
                     tuple(name_labels), tuple(tuple(ws) for ws in names_with),
                     tuple(copies[t] for t in range(len(labels))), tuple(tuple(c) for c in completers),
                     tuple(tuple(sorted(p)) for p in partners),
                     frozenset(t for t in range(len(labels)) if not given[t]))


def _without_one(name: tuple[int, ...], t: int) -> tuple[int, int]:
    rest = list(name)
    rest.remove(t)
    return rest[0], rest[1]
