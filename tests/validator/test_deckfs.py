"""The confined file layer refuses every way a deck can point outside itself or at something not a file."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from validator.deckfs import ConfinedError, read_bytes, regular_files, resolve, stat_file, write_bytes


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    folder = tmp_path / "deck"
    (folder / "art").mkdir(parents=True)
    (folder / "cards.json").write_text("{}", encoding="utf-8")
    (folder / "art" / "a.svg").write_text("<svg/>", encoding="utf-8")
    (tmp_path / "secret.json").write_text('{"secret": 1}', encoding="utf-8")
    return folder


def test_reads_a_file_inside_and_a_link_that_stays_inside(deck: Path) -> None:
    (deck / "same.json").symlink_to("cards.json")
    assert read_bytes(deck, "cards.json", 100) == b"{}"
    assert read_bytes(deck, "same.json", 100) == b"{}"
    assert read_bytes(deck, "art/a.svg", 100) == b"<svg/>"


@pytest.mark.parametrize("name", ["../secret.json", "art/../../secret.json", "/etc/hostname", "out.json",
                                  "loop.json", "fifo.json", "zero.json", "art", "missing.json", "a\x00b"])
def test_refuses_every_way_out_and_every_non_file(deck: Path, name: str) -> None:
    (deck / "out.json").symlink_to(deck.parent / "secret.json")
    (deck / "loop.json").symlink_to("loop.json")
    os.mkfifo(deck / "fifo.json")
    (deck / "zero.json").symlink_to("/dev/zero")
    done: list[str] = []

    def attempt() -> None:
        try:
            read_bytes(deck, name, 1000)
        except ConfinedError as exc:
            done.append(str(exc))

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(5)  # a FIFO opened for reading would block forever
    assert done, f"{name!r} was read, or the read hung"


def test_the_size_limit_is_checked_before_reading(deck: Path) -> None:
    (deck / "big.json").write_bytes(b" " * 1001)
    with pytest.raises(ConfinedError, match="1,001 bytes, over the 1,000-byte limit"):
        read_bytes(deck, "big.json", 1000)


def test_a_write_replaces_a_planted_link_instead_of_writing_through_it(deck: Path) -> None:
    outside = deck.parent / "secret.json"
    (deck / "cards.json.partial").symlink_to(outside)
    (deck / "cards.json").unlink()
    (deck / "cards.json").symlink_to(outside)
    write_bytes(deck, "cards.json.partial", b"[1]")
    assert outside.read_text(encoding="utf-8") == '{"secret": 1}'
    assert not (deck / "cards.json.partial").is_symlink()
    write_bytes(deck, "cards.json", b"[2]")  # the link is replaced, its target untouched
    assert (deck / "cards.json").read_bytes() == b"[2]" and not (deck / "cards.json").is_symlink()
    assert outside.read_text(encoding="utf-8") == '{"secret": 1}'
    assert sorted(p.name for p in deck.iterdir()) == ["art", "cards.json", "cards.json.partial"]  # no temp left


def test_a_write_into_a_linked_folder_outside_is_refused(deck: Path) -> None:
    (deck / "away").symlink_to(deck.parent)
    with pytest.raises(ConfinedError, match="leaves the deck"):
        write_bytes(deck, "away/new.json", b"{}")
    assert not (deck.parent / "new.json").exists()


def test_the_listing_skips_links_out_devices_and_hidden_files(deck: Path) -> None:
    (deck / "out.json").symlink_to(deck.parent / "secret.json")
    (deck / "zero.json").symlink_to("/dev/zero")
    (deck / "same.json").symlink_to("cards.json")
    (deck / "linked").symlink_to(deck.parent)
    (deck / ".hidden.json").write_text("{}", encoding="utf-8")
    os.mkfifo(deck / "fifo.json")
    listed = [f.name for f in regular_files(deck, ".json")]
    assert listed == ["cards.json", "same.json"]
    assert stat_file(deck, "same.json").relative == "cards.json"


def test_the_listing_is_bounded(deck: Path) -> None:
    for n in range(30):
        (deck / f"{n}.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ConfinedError, match="more than 20 files"):
        list(regular_files(deck, limit=20))


def test_a_link_loop_in_the_deck_folder_itself_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(ConfinedError, match="links loop"):
        resolve(tmp_path / "a", "x.json")
