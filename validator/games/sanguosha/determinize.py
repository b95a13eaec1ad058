"""三国殺 (sanguosha): a whole game dealt from one seat's view, for a search that may not peek.

The state is plain data (stack.py), so a deal is a copy of the state the view was taken from with every
thing the seat has not seen dealt anew, uniformly among what the public record allows:

- the cards it cannot place: the other hands' cards it did not see go in (the state's `known` bits say
  who saw a card go into a hand: a 仁徳 card given, a card taken from it, a card taken by it) and the
  draw pile, but for the cards whose place in it the seat knows (観星), all dealt anew at random, each
  hand keeping its size;
- the identities still hidden (the roles the table size leaves once the lord's, the dead's and its own
  are known), dealt among the seats whose role it does not know;
- during the set-up, the generals offered to or chosen face down by other seats;
- the chance generator: a new one drawn from the policy's `rng`.

What stays as it is: its own hand and identity, every public zone (equipment, judge areas, the discard
pile, the cards being resolved), HP, the dead, the lord, the generals, the turn and the stack of
pending steps — a 閃 asked inside a 決闘 inside a turn resumes exactly there. A pending step holds
nothing its seat has not seen, except what the deciding seat itself looks at (観星's cards, 遺計's),
so only the deciding seat's view can be dealt (as in the mcts search); its decision, built from its own
hand and the public table, is the same in every deal.

Not the seat's exact belief: hidden cards and roles are uniform given what the seat saw happen; the
others' choices are not read into them (issue 27's weighted deals will). The unseen parts are taken in
a fixed order before shuffling, so two states the seat cannot tell apart deal alike (tests check it).
"""
from __future__ import annotations

import random

from ...engine.chance import shuffle
from .flow import pick
from .rules import SanguoshaObservation
from .setup import Main
from .state import SanguoshaState


def determinize(observation: SanguoshaObservation, rng: random.Random) -> SanguoshaState:
    """A state the observing seat cannot tell from the real one, its unseen parts dealt at random."""
    obs = observation
    real = obs.source
    if real.steps != obs.step or real.over:
        raise ValueError("sanguosha: the view is not of the state as it stands (deal right after observing)")
    if not obs.deciding:
        raise ValueError("sanguosha: only the deciding seat's view can be dealt")
    me = obs.seat
    st = real.clone()
    st.chance, st.chance_shared = random.Random(rng.getrandbits(64)), False
    _deal_cards(st, me, rng)
    _deal_roles(st, obs, rng)
    if st.turns == 0:
        _deal_generals(st, me, rng)
    return st


def _deal_cards(st: SanguoshaState, me: int, rng: random.Random) -> None:
    bit, known = 1 << me, st.known
    unseen: list[int] = []
    wanted: list[int] = [0] * st.n
    for seat in range(st.n):
        if seat == me:
            continue
        hand = st.hands[seat]
        kept = [c for c in hand if known[c] & bit]
        unseen += [c for c in hand if not known[c] & bit]
        wanted[seat] = len(hand) - len(kept)
        st.hands[seat] = kept
    open_places = [i for i, c in enumerate(st.deck) if not known[c] & bit]
    unseen += [st.deck[i] for i in open_places]
    unseen.sort()
    shuffle(rng, unseen)
    at = 0
    for seat in range(st.n):
        for card in unseen[at:at + wanted[seat]]:
            st.hands[seat].append(card)
            known[card] = 1 << seat
        at += wanted[seat]
    for i, card in zip(open_places, unseen[at:]):
        st.deck[i] = card
        known[card] = 0


def _deal_roles(st: SanguoshaState, obs: SanguoshaObservation, rng: random.Random) -> None:
    hidden = [seat for seat, role in enumerate(obs.roles) if role < 0]
    roles = sorted(st.role[seat] for seat in hidden)
    shuffle(rng, roles)
    for seat, role in zip(hidden, roles):
        st.role[seat] = role


def _deal_generals(st: SanguoshaState, me: int, rng: random.Random) -> None:
    """During the set-up: the generals the seat has not seen — the choices of the seats before it and the
    offers of the seats after it (while the lord chooses, nothing is dealt yet)."""
    main = st.stack[0]
    if not isinstance(main, Main) or main.pc != 3:
        return
    seen = {st.general[st.lord], *st.options[me]}
    pool = sorted(g for g in range(len(st.gens)) if g not in seen)
    shuffle(rng, pool)
    before, after = main.order[:main.at], main.order[main.at + 1:]
    for seat in before:
        pick(st, seat, pool.pop())
    size = len(st.options[me])
    for seat in after:
        st.options[seat] = tuple(pool.pop() for _ in range(min(size, len(pool))))
