"""`fudaya preflight`: each PDF checked in a bounded child process, one line per finding."""
from __future__ import annotations

from pathlib import Path

import typer


def preflight(files: list[Path], *, sheets: bool, min_bleed: float, min_dpi: float, max_ink: float, pdfx: bool,
              ) -> None:
    """Print each file's findings (or 'ok'); exit 1 when any."""
    from functools import partial

    from ..preflight import Limits, refusal
    from ..preflight import preflight as check_pdf
    from ..preflight_budget import run_bounded

    limits = Limits(min_bleed_mm=min_bleed, min_image_dpi=min_dpi, max_ink_percent=max_ink)
    total = 0
    for path in files:  # each in a child process held to a memory and time limit: the file is untrusted
        findings = run_bounded(partial(check_pdf, path, limits, boxes=not sheets, pdfx=pdfx),
                               refused=lambda why: [refusal(why)])
        for finding in findings:
            typer.echo(finding.line(str(path)), err=finding.refused)
        total += len(findings)
        if not findings:
            typer.echo(f"{path}: ok")
    if total:
        raise typer.Exit(1)
