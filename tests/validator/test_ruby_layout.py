"""Ruby placed along the line (validator.ruby_layout) and set by the composer and the text fit
(validator.typeset): JLREQ's centring and 1:2:1 spreading, overhang only onto kana and punctuation by at
most one ruby character, jukugo ruby per kanji, bases never broken, readings never outside their line,
and the room readings take counted by the fit."""
from __future__ import annotations

import random

import pytest

from validator.compose import NEVER, compose, is_kanji
from validator.paths import FONTS_DIR
from validator.presets import PRINT_MIN_TEXT_PT
from validator.ruby import parse_ruby
from validator.ruby_layout import RUBY_SCALE, Reading, RubySetting, set_ruby
from validator.typeset import fit_text, load_metrics

GOTHIC = load_metrics(FONTS_DIR / "BIZUDGothic-Regular.ttf")


def _set(source: str, scale: float = RUBY_SCALE) -> tuple[str, RubySetting]:
    """`source` in a monospaced em font: every character one em, every ruby character `scale` em."""
    marked = parse_ruby(source)
    return marked.text, set_ruby(marked.text, [1.0] * len(marked.text), marked.rubies,
                                 lambda reading, _: len(reading) * scale, scale)


def test_a_mono_reading_no_longer_than_its_kanji_is_centred_over_it() -> None:
    _, setting = _set("山《や》を")
    assert setting.readings == (Reading(0, 1, "や", 0.25, 0.0),)  # half an em of reading in one em: 0.25 each side
    assert setting.pads == (0.0, 0.0)


def test_a_shorter_group_reading_is_spread_one_two_one() -> None:
    _, setting = _set("｜東京都《とうと》へ")  # 1.5 em of reading over 3 em
    [reading] = setting.readings
    assert reading.gap == pytest.approx(0.5) and reading.offset == pytest.approx(0.25)  # ends: half a gap
    assert reading.offset * 2 + 3 * 0.5 + 2 * reading.gap == pytest.approx(3.0)


def test_a_longer_reading_overhangs_kana_by_at_most_one_ruby_character_and_never_kanji() -> None:
    _, setting = _set("の｜志《こころざし》を")  # 2.5 em over 1 em, kana both sides
    [reading] = setting.readings
    assert (reading.before, reading.after) == (0.5, 0.5)  # one ruby character each side
    assert setting.pads[1] == pytest.approx(0.5)  # the rest spreads the base
    _, setting = _set("大志《たいし》漢")  # kanji after, kanji inside another word before: no overhang
    assert setting.readings[0].before == setting.readings[0].after == 0.0


def test_a_longer_reading_spreads_its_group_base_one_two_one_when_it_cannot_overhang() -> None:
    _, setting = _set("漢｜天智《てんじてんのう》漢")  # 3.5 em of reading over 2 em between kanji
    assert setting.pads[1:3] == (pytest.approx(0.75), pytest.approx(0.75))  # each kanji centred in its cell
    assert setting.measured.widths[1:3] == (pytest.approx(1.75), pytest.approx(1.75))


def test_two_readings_over_one_kana_share_it() -> None:
    _, setting = _set("｜志《こころざし》の｜志《こころざし》")
    first, second = setting.readings
    assert first.after + second.before <= 1.0 + 1e-9  # each half the kana at most: they never meet


def test_jukugo_ruby_sits_per_kanji_and_may_break_between_them() -> None:
    text, setting = _set("東京《とう｜きょう》")
    assert [r.text for r in setting.readings] == ["とうきょう"]  # きょう is longer than its kanji: one group
    assert setting.measured.breaks[1] == NEVER
    text, setting = _set("衣手《ころも｜で》")
    assert [r.text for r in setting.readings] == ["ころもで"]  # ころも overhangs 手 inside the word: one group
    text, setting = _set("明日《あ｜す》")
    assert [(r.start, r.text) for r in setting.readings] == [(0, "あ"), (1, "す")]
    assert setting.measured.breaks[1] != NEVER


def test_a_base_is_never_broken_nor_stretched() -> None:
    text, setting = _set("あいうえおかきくけこ｜東京都庁《とうきょうとちょう》さしすせそ")
    for measure in (4.0, 5.0, 6.0, 7.0, 12.0):
        for line in compose(setting.measured, measure).lines:
            assert not (line.start < 10 < line.end < 14 or line.start < 14 - 1 < line.end - 1 < 13)
            assert not 10 < line.start < 14  # a base starts a line at its start or not at all
    assert {11, 12, 13} <= setting.measured.rigid


def _random_source(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(3, 30)):
        kind = rng.random()
        if kind < 0.35:
            parts.append("".join(rng.choice("あいうえおかきくけこのをに、。") for _ in range(rng.randint(1, 6))))
        elif kind < 0.6:
            base = "".join(rng.choice("東西南北天地人山川") for _ in range(rng.randint(1, 4)))
            parts.append(f"｜{base}《{''.join(rng.choice('かなよみ') for _ in range(rng.randint(1, 9)))}》")
        else:
            parts.append("".join(rng.choice("漢字語句") for _ in range(rng.randint(1, 3))))
    return "".join(parts)


@pytest.mark.parametrize("vertical", [False, True])
def test_readings_stay_inside_their_line_and_never_meet(vertical: bool) -> None:
    """Over many random texts and measures: every reading within its line's extent, the extent within the
    measure (where a base fits at all), no two readings on a line overlapping, no reading over a kanji that
    is not its base."""
    rng = random.Random(5)
    looked = 0
    for _ in range(300):
        source = _random_source(rng)
        width = rng.uniform(40, 160)
        laid = fit_text(source, GOTHIC, width=width if not vertical else 200, height=200 if not vertical else width,
                        size=10, vertical=vertical)
        if laid is None:
            continue
        for n, marks in enumerate(laid.readings):
            extent = laid.line_widths[n]
            assert extent <= width + 1e-6
            spans = sorted((m.offset, m.offset + _length(m.text, laid.ruby_size, vertical) + m.gap * (len(m.text) - 1))
                           for m in marks)
            for (_, a1), (b0, _) in zip(spans, spans[1:]):
                assert a1 <= b0 + 1e-6
            for a0, a1 in spans:
                looked += 1
                assert -1e-6 <= a0 and a1 <= extent + 1e-6
    assert looked > 500


def test_readings_overhang_only_kana_and_punctuation_outside_any_base() -> None:
    rng = random.Random(11)
    hung = 0
    for _ in range(500):
        text, setting = _set(_random_source(rng))
        owned = {k for r in setting.readings for k in range(r.start, r.end)}
        for reading in setting.readings:
            for amount, k in ((reading.before, reading.start - 1), (reading.after, reading.end)):
                if amount:
                    hung += 1
                    assert 0 < amount <= RUBY_SCALE and k not in owned and not is_kanji(text[k])
    assert hung > 100


def _length(text: str, size: float, vertical: bool) -> float:
    return len(text) * size if vertical else GOTHIC.text_width(text, size)


def test_the_fit_counts_the_readings_room() -> None:
    plain = fit_text("山川", GOTHIC, width=100, height=10, size=10)
    ruby = fit_text("山川《さんせん》", GOTHIC, width=100, height=10, size=10)
    assert plain is not None and ruby is None  # 10 pt of text and 5 pt of reading need 15 pt
    ruby = fit_text("山川《さんせん》", GOTHIC, width=100, height=15, size=10)
    assert ruby is not None and ruby.ruby_size == 5.0 and ruby.ruby_room == 5.0 and ruby.extent == 15.0
    two = fit_text("山川《さんせん》\n海《うみ》", GOTHIC, width=100, height=40, size=10, line_height=1.2)
    assert two is not None and two.leading == 15.0  # 1.2 lines leave no room for a reading: a base and a reading


def test_a_reading_is_never_set_under_the_print_minimum() -> None:
    laid = fit_text("山《やま》", GOTHIC, width=100, height=30, size=7)
    assert laid is not None and laid.ruby_size == PRINT_MIN_TEXT_PT  # half of 7 pt would be 3.5 pt
    laid = fit_text("山《やま》", GOTHIC, width=100, height=40, size=30, ruby_scale=0.3)
    assert laid is not None and laid.ruby_size == pytest.approx(9.0)
