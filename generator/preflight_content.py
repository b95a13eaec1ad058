"""Content streams as preflight's walker reads them: decoded under the budget, tokenised by qpdf, checked.

Only the operators the walker acts on are handed over, each with its operands (numbers as float),
or with None when they are not what the operator takes: the walker reports those, it does not
guess. Short content is grouped by qpdf in C++ (fast, but every operand of a walked operator
becomes an object at once, about 100 bytes for each byte of content); content longer than
`GROUPED_BYTES` is taken object by object, so memory stays bounded however it is made.
"""
from __future__ import annotations

import re
import warnings
from decimal import Decimal
from typing import Any

import pikepdf
from pikepdf import Array, Name, Operator, Stream

from validator.limits import MAX_ARRAY_ITEMS, MAX_STREAM_OPERATORS

from .preflight_budget import Budget, Refused, decode, qpdf_limit_hits

SHOWS = {b"Tj", b"TJ", b"'", b'"'}
# The operands the walker reads: so many numbers, or one name. Anything else is reported, not guessed at.
NUMBERS = {b"cm": 6, b"Tm": 6, b"w": 1, b"m": 2, b"re": 4, b"rg": 3, b"RG": 3, b"k": 4, b"K": 4, b"Tr": 1,
           b"Td": 2, b"TD": 2}
NAMED = {b"cs", b"CS", b"gs", b"Do", b"sh"}
MAX_OPERANDS = 33  # the most any walked operator takes (scn: 32 components and a pattern)
# The operators the walker acts on; the rest (path segments, clipping, marked content) are left out by
# the parser itself. Text shows are kept without their strings.
WALKED = (b"q Q cm w m re rg RG k K cs CS sc scn SC SCN S s B B* b b* f F f* BT Tf Tr Tm Td TD Tj TJ ' \" "
          b"gs Do sh BI ID EI")
_NAMES = {name: name for name in WALKED.split()}  # one bytes object per operator name, however many operations
GROUPED_BYTES = 1024 * 1024  # content up to this is grouped by qpdf: at most about 100 MB of operands at once

Operation = tuple[list[Any] | None, bytes]  # operands None: not what the operator takes (see is_well_formed)
DAMAGED = b"damaged content"  # an operation of ours, first when qpdf had to skip or guess: its operand says what


def _is_number(value: Any) -> bool:
    return type(value) is float or type(value) is int


def _all_numbers(values: list[Any]) -> bool:
    for value in values:
        if type(value) is not float and type(value) is not int:  # (not bool: true is no coordinate)
            return False
    return True


def is_well_formed(operator: bytes, operands: list[Any]) -> bool:
    """Whether a walked operator has the operands the walker reads (the others are not looked at)."""
    count = NUMBERS.get(operator)
    if count is not None:
        return len(operands) == count and _all_numbers(operands)
    if operator in NAMED:
        return len(operands) == 1 and isinstance(operands[0], Name)
    if operator == b"Tf":
        return len(operands) == 2 and isinstance(operands[0], Name) and _is_number(operands[1])
    if operator in (b"sc", b"SC"):
        return 1 <= len(operands) <= 4 and _all_numbers(operands)
    if operator in (b"scn", b"SCN"):  # components, then a pattern's name
        values = operands[:-1] if operands and isinstance(operands[-1], Name) else operands
        return 1 <= len(operands) <= MAX_OPERANDS and _all_numbers(values)
    return True


def _operand(value: Any) -> Any:
    """A parsed operand as the walker reads it: numbers as float (qpdf gives reals as Decimal), the rest as is."""
    return float(value) if isinstance(value, Decimal) else value


def _image(space: Any) -> Operation:
    """An inline image as its colour space, the one thing the walker asks of it."""
    return [{"settings": {} if space is None else {"/CS": space}}], b"INLINE IMAGE"


def _operation(operator: bytes, operands: list[Any]) -> Operation:
    operator = _NAMES.get(operator, operator)
    if operator in SHOWS:
        return [], operator
    return (operands if is_well_formed(operator, operands) else None), operator


def _grouped(data: bytes, budget: Budget) -> list[Operation]:
    """qpdf's own grouping of operands with their operators (only the walked ones are handed over)."""
    operations: list[Operation] = []
    for instruction in pikepdf.parse_content_stream(Stream(budget.scratch, data), WALKED.decode()):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            settings = instruction.iimage.obj
            operations.append(_image(settings.get("/CS", settings.get("/ColorSpace"))))
        else:
            operations.append(_operation(instruction.operator.unparse(),
                                         [_operand(v) for v in instruction.operands]))
    return operations


class _OneByOne(pikepdf.StreamParser):
    """The same operations from qpdf's tokens one at a time: operands are kept only up to what any walked
    operator takes (more are counted, and make the operation malformed) and only until their operator."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where
        self.operations: list[Operation] = []
        self.operands: list[Any] = []
        self.extra = 0              # operands past MAX_OPERANDS, counted only
        self.image: Any = None      # the colour space of the inline image being read (BI ... ID)

    def handle_object(self, obj: Any, offset: int, length: int, /) -> None:
        kind = type(obj)  # (called for every token: numbers, most of them, take the shortest way)
        if kind is int or kind is Decimal or kind is bool or not isinstance(obj, Operator):
            operands = self.operands
            if len(operands) < MAX_OPERANDS:
                operands.append(float(obj) if kind is Decimal else obj)
            else:
                self.extra += 1
            return
        operator = obj.unparse()
        if operator not in _NAMES or operator == b"BI":  # a path segment, clipping, marked content...
            self.operands.clear()
        elif operator == b"ID":  # the inline image's dictionary: key, value, key, value...
            settings = {str(key): value for key, value in zip(self.operands[::2], self.operands[1::2])}
            self.image = settings.get("/CS", settings.get("/ColorSpace"))
            self.operands.clear()
        elif operator == b"EI":
            self.operations.append(_image(self.image))
            self.operands.clear()
        else:
            self.operations.append((None, _NAMES[operator]) if self.extra else _operation(operator, self.operands))
            self.operands = []  # handed over with the operation
            if len(self.operations) > MAX_STREAM_OPERATORS:
                raise Refused(f"{self.where} holds over {MAX_STREAM_OPERATORS:,} operators")
        self.extra = 0

    def handle_eof(self) -> None:
        pass


def parse_content(data: bytes, budget: Budget, where: str) -> list[Operation]:
    """The operations the walker acts on in decoded content: grouped by qpdf when short, else one by one."""
    hits = qpdf_limit_hits()
    with warnings.catch_warnings():  # pikepdf repeats qpdf's complaints as Python warnings; the Pdf keeps them
        warnings.simplefilter("ignore")
        if len(data) <= GROUPED_BYTES:
            operations = _grouped(data, budget)
        else:
            collector = _OneByOne(where)
            if not len(budget.scratch.pages):
                budget.scratch.add_blank_page()
            page = budget.scratch.pages[0]
            page.obj.Contents = Stream(budget.scratch, data)
            page.parse_contents(collector)
            operations = collector.operations
    if len(operations) > MAX_STREAM_OPERATORS:
        raise Refused(f"{where} holds over {MAX_STREAM_OPERATORS:,} operators")
    if qpdf_limit_hits() > hits:
        raise Refused(f"{where} holds an array or dictionary of over {MAX_ARRAY_ITEMS:,} items")
    problems = [re.sub(r"^.*?\(content, offset \d+\): ", "", str(w)) for w in budget.scratch.get_warnings()]
    if problems:
        more = f"; {len(problems) - 1} more" if len(problems) > 1 else ""
        operations.insert(0, ([f"{problems[0]}{more}"], DAMAGED))
    return operations


def page_content(page: Any, budget: Budget, number: int) -> bytes:
    """A page's content streams decoded (each under the cap) and joined, as qpdf joins them."""
    contents = page.get("/Contents")
    budget.charge_objects(len(contents) if isinstance(contents, Array) else 1)
    streams = list(contents) if isinstance(contents, Array) else [contents]
    return b"\n".join(decode(stream, budget, f"page {number}'s content") for stream in streams
                      if isinstance(stream, Stream))
