"""What each file a build writes is for, as build.json's "use" records it: the build's preflight (and a
reader of build.json) holds a file to the rules of its use, never guessing from its name."""
from __future__ import annotations

# What a written file is for (build.json's "use"); preflight holds each to its own rules.
SHOP, HOME, SCREEN = "shop", "home", "screen"
USES = {
    SHOP: "print-shop file: one piece a page, TrimBox at the finished size and BleedBox 3 mm beyond it, art "
          "carried into the bleed; preflight checks it with its boxes",
    HOME: "to print yourself and cut or fold: sheets with crop marks, pages with white margins; preflight "
          "checks it as a sheet (fudaya preflight --sheets)",
    SCREEN: "read or filled in on screen, not printed: no PDF/X claim, not preflighted",
}
