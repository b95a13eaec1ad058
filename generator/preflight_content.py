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


def _image(image: pikepdf.PdfInlineImage) -> Operation:
    """An inline image as its colour space, the one thing the walker asks of it."""
    settings = image.obj
    space = settings.get("/CS", settings.get("/ColorSpace"))
    return [{"settings": {} if space is None else {"/CS": space}}], b"INLINE IMAGE"


def _operation(operator: bytes, operands: list[Any]) -> Operation:
    operator = _NAMES.get(operator, operator)
    if operator in SHOWS:
        return [], operator
    return (operands if is_well_formed(operator, operands) else None), operator


def _grouped(data: bytes, budget: Budget) -> list[Operation] | None:
    """qpdf's own grouping of operands with their operators (only the walked ones are handed over); None
    where pikepdf's grouping fails: on an inline image without data (BI EI), on operators in an array."""
    try:
        instructions = pikepdf.parse_content_stream(Stream(budget.scratch, data), WALKED.decode())
    except (IndexError, TypeError):
        budget.scratch.get_warnings()  # (the one-by-one parse repeats them)
        return None
    operations: list[Operation] = []
    for instruction in instructions:
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            operations.append(_image(instruction.iimage))
        elif (operator := instruction.operator.unparse()) in _NAMES:  # (pikepdf also lets through qQ, Qx...)
            operations.append(_operation(operator, [_operand(v) for v in instruction.operands]))
    return operations


class _OneByOne(pikepdf.StreamParser):
    """The same operations from qpdf's tokens one at a time, grouped as pikepdf groups them (inline images
    and all), but an operator's operands are kept only up to what any walked operator takes (more are
    counted, and make a checked operator malformed) and only until their operator."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where
        self.operations: list[Operation] = []
        self.operands: list[Any] = []
        self.extra = 0          # operands past MAX_OPERANDS, counted only
        self.image = False      # between BI and EI
        self.settings: list[Any] = []  # the inline image's dictionary, as tokens (BI ... ID)

    def handle_object(self, obj: Any, offset: int, length: int, /) -> None:
        kind = type(obj)  # (called for every token: numbers, most of them, take the shortest way)
        if kind is int or kind is Decimal or kind is bool or not isinstance(obj, Operator):
            operands = self.operands
            if len(operands) < (MAX_ARRAY_ITEMS if self.image else MAX_OPERANDS):
                operands.append(float(obj) if kind is Decimal else obj)
            else:
                self.extra += 1
            return
        operator = obj.unparse()
        if operator in _NAMES or operator[:1] in (b"q", b"Q"):  # pikepdf's filter lets qQ, Qx... through
            self._operator(operator)
        self.operands, self.extra = [], 0

    def _operator(self, operator: bytes) -> None:
        if operator == b"BI":
            self.image = True
        elif self.image and operator == b"ID":
            if self.extra:
                raise Refused(f"{self.where} has an inline image dictionary of over {MAX_ARRAY_ITEMS:,} items")
            self.settings = self.operands
        elif self.image and operator == b"EI":
            data = self.operands[0] if self.operands else pikepdf.String(b"")
            self.operations.append(_image(pikepdf.PdfInlineImage(image_data=data, image_object=tuple(self.settings))))
            self.image, self.settings = False, []
        elif not self.image and operator in _NAMES:
            too_many = [*self.operands, None] if self.extra else self.operands  # (no checked operator takes 34)
            self.operations.append(_operation(operator, too_many))
            if len(self.operations) > MAX_STREAM_OPERATORS:
                raise Refused(f"{self.where} holds over {MAX_STREAM_OPERATORS:,} operators")

    def handle_eof(self) -> None:
        pass


def _one_by_one(data: bytes, budget: Budget, where: str) -> list[Operation]:
    collector = _OneByOne(where)
    if not len(budget.scratch.pages):
        budget.scratch.add_blank_page()
    page = budget.scratch.pages[0]
    page.obj.Contents = Stream(budget.scratch, data)
    page.parse_contents(collector)
    return collector.operations


def parse_content(data: bytes, budget: Budget, where: str) -> list[Operation]:
    """The operations the walker acts on in decoded content: grouped by qpdf when short, else one by one."""
    hits = qpdf_limit_hits()
    with warnings.catch_warnings():  # pikepdf repeats qpdf's complaints as Python warnings; the Pdf keeps them
        warnings.simplefilter("ignore")
        grouped = _grouped(data, budget) if len(data) <= GROUPED_BYTES else None
        operations = grouped if grouped is not None else _one_by_one(data, budget, where)
    if len(operations) > MAX_STREAM_OPERATORS:
        raise Refused(f"{where} holds over {MAX_STREAM_OPERATORS:,} operators")
    if qpdf_limit_hits() > hits:
        raise Refused(f"{where} holds an array or dictionary of over {MAX_ARRAY_ITEMS:,} items")
    problems = [re.sub(r"^.*?\((?:content|stream data)[^)]*\): ", "", str(w)) for w in budget.scratch.get_warnings()]
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
