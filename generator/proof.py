"""`fudaya proof`: a static HTML gallery to proof a game before printing.

output/<game>/proof/index.html shows every card, front and back, as images cut from the game's own
print files (export.py), with its fields, its count and the check's findings about it beside it;
select boxes filter the cards by field (values few enough to list), and a search box by text.
It links the build's PDFs and the report. One self-contained folder: no script, style or font is
fetched (the text is set in the game's own font, copied beside the page). The folder is replaced
whole or not at all, as an export is (output_set.published).
"""
from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from urllib.parse import quote

from validator.issues import Issue
from validator.model import Game

from .export import Renderer, load_manifest, refuse_too_many_pixels, sides
from .output_set import published

MAX_FILTER_VALUES = 24  # a field with more distinct values is searched, not listed
PROOF_DPI = 150

STYLE = """
@font-face { font-family: "fudaya-proof"; src: url("font.ttf"); }
body { font-family: "fudaya-proof", sans-serif; margin: 1.5rem; color: #222; background: #f4f1ea; }
header a { margin-right: 1rem; }
.filters { position: sticky; top: 0; background: #f4f1ea; padding: .5rem 0; z-index: 1; }
.filters label { margin-right: 1rem; }
.deck { margin-top: 2rem; }
.cards { display: flex; flex-wrap: wrap; gap: 1rem; }
figure { background: white; margin: 0; padding: .5rem; border-radius: 6px; width: 260px;
         box-shadow: 0 1px 3px rgba(0,0,0,.2); }
figure img { width: 124px; height: auto; }
figure.hidden { display: none; }
figcaption { font-size: .8rem; }
.finding { color: #a00; }
.warning { color: #a60; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0 .5rem; margin: .3rem 0; }
dt { font-weight: bold; }
"""

SCRIPT = """
function applyFilters() {
  const selects = Array.from(document.querySelectorAll('select[data-field]'));
  const query = document.getElementById('search').value.trim().toLowerCase();
  let shown = 0;
  document.querySelectorAll('figure.card').forEach(function (card) {
    const fields = JSON.parse(card.dataset.fields);
    let ok = selects.every(function (s) { return !s.value || String(fields[s.dataset.field]) === s.value; });
    if (ok && query) { ok = card.textContent.toLowerCase().includes(query); }
    card.classList.toggle('hidden', !ok);
    if (ok) { shown += 1; }
  });
  document.getElementById('shown').textContent = shown;
}
document.querySelectorAll('select[data-field], #search').forEach(function (el) {
  el.addEventListener('input', applyFilters);
});
"""


def card_findings(issues: Sequence[Issue]) -> dict[str, list[Issue]]:
    """The check's findings by the card they name ("card 'xia-wood': ..."), for showing beside it."""
    found: dict[str, list[Issue]] = {}
    for issue in issues:
        for card in re.findall(r"card '([^']+)'", issue.message):
            found.setdefault(card, []).append(issue)
    return found


def _filters(values: Mapping[str, set[str]]) -> str:
    parts = []
    for field, options in sorted(values.items()):
        if 1 < len(options) <= MAX_FILTER_VALUES:
            choices = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in sorted(options))
            parts.append(f'<label>{escape(field)} <select data-field="{escape(field)}">'
                         f'<option value="">(all)</option>{choices}</select></label>')
    return "".join(parts)


def write_proof(game: Game, output_dir: Path, issues: Sequence[Issue]) -> Path:
    """Write output/<game>/proof/ (index.html and its images), replacing the earlier one whole; returns
    index.html's path. The images are rendered and written one at a time."""
    manifest = load_manifest(output_dir, game)
    found = sides(game, manifest)
    if found:
        refuse_too_many_pixels(found, PROOF_DPI)
    final = manifest.folder / "proof"
    images: dict[tuple[str, str], str] = {}
    with published(output_dir, game.id, final, verify=manifest.verify) as staging:
        with Renderer(manifest.folder, PROOF_DPI) as renderer:
            for side in found:
                name = f"img/{side.deck}/{side.card}-{side.side}.png"
                (staging / "img" / side.deck).mkdir(parents=True, exist_ok=True)
                with renderer.cut(side) as image:
                    image.save(staging / name)
                images[(side.card, side.side)] = name
        font = next(iter(game.fonts.values()), None)  # the game's own font: the page reads without system fonts
        if font is not None:
            shutil.copyfile(game.fonts.get("gothic", font).path, staging / "font.ttf")
        (staging / "index.html").write_text(_page(game, manifest.files, issues, images), encoding="utf-8")
    return final / "index.html"


def _page(game: Game, files: Sequence[str], issues: Sequence[Issue], images: Mapping[tuple[str, str], str]) -> str:
    findings = card_findings(issues)
    values: dict[str, set[str]] = {}
    sections = []
    for deck in game.decks:
        figures = []
        for card in deck.cards:
            for field, value in card.fields.items():
                if isinstance(value, (str, int, float, bool)):
                    values.setdefault(field, set()).add(str(value))
            pictures = "".join(f'<img src="{escape(images[(card.id, s)])}" alt="{escape(card.id)} {s}" '
                               f'>' for s in ("front", "back") if (card.id, s) in images)
            rows = "".join(f"<dt>{escape(k)}</dt><dd>{escape(str(v))}</dd>" for k, v in card.fields.items()
                           if isinstance(v, (str, int, float, bool)))
            notes = "".join(f'<p class="{"warning" if i.severity == "warning" else "finding"}">'
                            f'{escape(i.message)}</p>' for i in findings.get(card.id, []))
            data = escape(json.dumps({k: str(v) for k, v in card.fields.items()}, ensure_ascii=False))
            figures.append(f'<figure class="card" data-card="{escape(card.id)}" data-fields="{data}">{pictures}'
                           f'<figcaption><b>{escape(card.id)}</b> × {card.qty}<dl>{rows}</dl>{notes}'
                           f'</figcaption></figure>')
        sections.append(f'<section class="deck" id="{escape(deck.id)}"><h2>{escape(deck.title)} '
                        f'({sum(c.qty for c in deck.cards)})</h2><div class="cards">{"".join(figures)}</div>'
                        f'</section>')
    links = "".join(f'<a href="../{escape(quote(name))}">{escape(name)}</a>' for name in files)
    general = "".join(f'<li class="{"warning" if i.severity == "warning" else "finding"}">{escape(i.render())}</li>'
                      for i in issues if not re.search(r"card '[^']+'", i.message))
    total = sum(len(deck.cards) for deck in game.decks)
    return (f'<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>{escape(game.title)} — proof</title>'
            f'<style>{STYLE}</style></head><body><header><h1>{escape(game.title)}</h1><p>{links}</p>'
            f'{f"<ul>{general}</ul>" if general else ""}</header>'
            f'<div class="filters">{_filters(values)}<label>search <input id="search" type="search"></label>'
            f'<span><span id="shown">{total}</span> / {total} cards</span></div>'
            f'{"".join(sections)}<script>{SCRIPT}</script></body></html>\n')


__all__ = ["card_findings", "write_proof"]
