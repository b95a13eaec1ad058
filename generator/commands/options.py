"""The choices of the `fudaya` options (enums Typer shows in --help); imported at start, so nothing heavy."""
from __future__ import annotations

from enum import StrEnum


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"


class Marks(StrEnum):
    tombo = "tombo"
    western = "western"
    none = "none"


class Pdfx(StrEnum):
    x4 = "x-4"
    x1a = "x-1a"


class Mode(StrEnum):
    both = "both"
    sheets = "sheets"
    printshop = "printshop"


class ExportFormat(StrEnum):
    png = "png"
    tts = "tts"
