"""The deck files a simulation may read, for the report cache's key: every JSON file of the deck but
the layouts and rulebooks, which only drawing reads. Listed through the confined file layer and
bounded in total, so a deck of many large files is one located refusal in check as in build."""
from __future__ import annotations

from .deckfs import ConfinedError, inside_or_none, read_bytes, regular_files
from .issues import DeckError, Issue
from .jsonsource import load_json
from .limits import MAX_DECK_JSON_BYTES, MAX_JSON_BYTES
from .model import Game


def simulated_files(game: Game) -> list[tuple[str, bytes]]:
    """(name in the deck, bytes) of every JSON file a simulation may read, in name order; DeckError,
    located at the game, when they are too many or together more than MAX_DECK_JSON_BYTES."""
    manifest = load_json(game.directory / "game.json", root=game.directory, located=False).data
    components = manifest.get("components", []) if isinstance(manifest, dict) else []
    drawn_only = {inside_or_none(game.directory, c.get(key)) for c in components if isinstance(c, dict)
                  for key in ("layout", "source")}
    try:
        listed = [found for found in regular_files(game.directory, ".json") if found.path not in drawn_only]
        total = sum(found.size for found in listed)
        if total > MAX_DECK_JSON_BYTES:
            raise ConfinedError(f"its JSON files hold {total:,} bytes, over the {MAX_DECK_JSON_BYTES:,} a deck may")
        return [(found.name, read_bytes(game.directory, found.name, MAX_JSON_BYTES)) for found in listed]
    except ConfinedError as exc:
        raise DeckError([Issue(game.location, "deck-too-large", f"the deck folder: {exc}")]) from None


def simulated_files_issue(game: Game) -> Issue | None:
    """simulated_files' refusal as a located issue, or None (check refuses what build's report would)."""
    try:
        simulated_files(game)
    except DeckError as exc:
        return exc.issues[0]
    return None
