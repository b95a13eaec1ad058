"""三国殺 (sanguosha): the rules as an explicit stack of pending steps, so that a game in progress is data.

Each step of the rules that may wait for a player is a Frame: a small record of who it concerns and
what it is doing, with `pc` saying where it stands. The state keeps the frames in a list, the innermost
last (a 閃 asked inside a 決闘 inside a turn: [Main, Turn, PlayPhase, Use, Duel, AskSha …]).
`Frame.step(st, got)` runs the frame on from `pc` until it

- returns another Frame: that frame is pushed and run; what it returns comes back as `got`;
- returns ASK (after `ask` set the state's pending decision): the answer comes back as `got`;
- returns None (`return st.done(value)`): the frame is finished and `value` goes to the frame below.

A frame holds only ints, bools and tuples, so copying a state copies each frame's fields once
(`Frame.copy`), and a state pickles. `GameOver` ends the game from any depth; `TurnEnd` (the turn
player died) drops every frame above the turn loop, which then starts the next turn.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import SanguoshaState

Got = Any  # an action answered, or what a finished frame returned (a bool, a card, cards, a seat)


class GameOver(Exception):
    """Raised through the stack when a death ends the game."""


class TurnEnd(Exception):
    """Raised through the stack when the turn player dies: the turn ends at once."""


class Frame:
    """One pending step of the rules; see the module docstring for the protocol."""

    pc: int = 0
    turn_host = False  # the frame that runs turns one after another (TurnEnd unwinds to it)

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        raise NotImplementedError

    def copy(self) -> Frame:
        """An independent copy: every field is immutable, so a shallow copy of the fields is enough.
        Interpreted, the fields are copied at once; compiled by mypyc (`make fast`), a frame has no
        __dict__ and is rebuilt from its dataclass fields."""
        fields = getattr(self, "__dict__", None)
        if fields is not None:
            new = object.__new__(type(self))
            new.__dict__.update(fields)
            return new
        new = dataclasses.replace(self)  # type: ignore[type-var]
        new.pc = self.pc
        return new

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its class, its fields and pc (compiled by mypyc, a frame has no __dict__)."""
        names: list[str] = [f.name for f in dataclasses.fields(self)] if dataclasses.is_dataclass(self) else []
        values = tuple(getattr(self, name) for name in names)
        return _rebuild, (type(self), values, self.pc)

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({fields}, pc={self.pc})"


def _rebuild(cls: type[Frame], values: tuple[object, ...], pc: int) -> Frame:
    frame = cls(*values)
    frame.pc = pc
    return frame


class _Ask(Frame):
    """The marker a frame returns when it waits for the decision `ask` set up."""


ASK: Frame = _Ask()


class Halt(Frame):
    """The bottom of a stack that runs one step on its own: the state stops, with no legal action."""

    turn_host = True

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        st.seat, st.legal = -1, []
        return ASK
