"""What the command line shows: findings grouped by file, and tables (rich) for list and check.

Findings stay one self-contained `file:line:column: $.path: message` line each, whatever the
output, because editors and CI problem matchers jump to them; they come grouped by file (files in
the order their first finding came, check order within a file). In a terminal each file gets a
heading with its count and errors and warnings their colours; piped or in a CI log there is no
colour and no heading, only the lines. Tables are drawn by rich; outside a terminal at a width of
at least 120 columns, so a log keeps one row to a line. Text from a deck never goes through rich's
markup: it is passed as Text, so a card named "[bold]" prints as written.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from validator.issues import Issue, shown_path
from validator.wording import counted

LOG_WIDTH = 120  # columns for tables written to a file or a CI log
SEVERITY_STYLES = {"error": "red", "warning": "yellow", "info": "dim"}


def console(*, stderr: bool = False) -> Console:
    """A console on stdout (or stderr) as it is now: coloured in a terminal, plain and wide elsewhere."""
    probe = Console(stderr=stderr)
    if probe.is_terminal:
        return Console(stderr=stderr, highlight=False)
    return Console(stderr=stderr, highlight=False, no_color=True, width=max(probe.width, LOG_WIDTH),
                   soft_wrap=False)


def grouped(issues: Sequence[Issue]) -> dict[Path, list[Issue]]:
    """Issues by file, files in the order of their first issue, each file's issues in their order."""
    groups: dict[Path, list[Issue]] = {}
    for issue in issues:
        groups.setdefault(issue.location.file, []).append(issue)
    return groups


def print_findings(issues: Sequence[Issue], root: Path) -> None:
    """Every issue on stderr, one line each, grouped by file (headed and coloured in a terminal)."""
    out = console(stderr=True)
    for file, group in grouped(issues).items():
        if out.is_terminal:
            severities = [issue.severity for issue in group]
            heading = Text(_shown(file, root), style="bold")
            heading.append("  " + ", ".join(counted(severities.count(severity), noun)
                                             for severity, noun in (("error", "error"), ("warning", "warning"),
                                                                    ("info", "note")) if severity in severities),
                           style="dim")
            out.print(heading)
        for issue in group:
            style = SEVERITY_STYLES.get(issue.severity, "") if out.is_terminal else ""
            out.print(Text(issue.render(root), style=style), soft_wrap=True)


def _shown(file: Path, root: Path) -> str:
    return str(shown_path(file, root))


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], *, right: Sequence[str] = ()) -> Table:
    """A plain table: a title on the left, a header row, cells as Text (never markup)."""
    shown = Table(title=Text(title, style="bold"), title_justify="left", header_style="bold", box=box.SIMPLE_HEAD,
                  show_edge=False, pad_edge=False)
    for name in columns:
        shown.add_column(name, justify="right" if name in right else "left", overflow="fold")
    for row in rows:
        shown.add_row(*(Text(cell) for cell in row))
    return shown
