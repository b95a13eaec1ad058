"""validator.compose, the one line composer: kinsoku, 分離禁止, kept words, runts and justification.

Most cases measure every character one unit wide (a full-width character of a 1-unit font) and
ASCII half as wide, so a measure of 5 holds five kana.
"""
from __future__ import annotations

import pytest

from validator.compose import (
    AVOID,
    FREE,
    NEVER,
    NO_END,
    NO_START,
    Line,
    Measured,
    break_classes,
    compose,
    justify,
    measured,
    squeezed,
)
from validator.geometry import mm_to_pt
from validator.rulebooks import answer_text

TENTH_MM = mm_to_pt(0.1)


def text(chars: str, size: float = 1.0) -> Measured:
    return measured(chars, [size * (0.5 if ord(c) < 0x2000 else 1.0) for c in chars])


def lines_of(chars: str, measure: float) -> list[str]:
    laid = text(chars)
    return [chars[line.start:line.end] for line in compose(laid, measure).lines]


# --- kinsoku (JLREQ / JIS X 4051 classes) --------------------------------------------------------------------

# every class the brief names: closing brackets, 、。, small kana, ー, ・：；, hyphens and dashes, iteration marks
NEVER_FIRST = "）」』】〕〉》］｝、。，．ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶー・：；‐〜゠–ゝゞヽヾ々！？"
NEVER_LAST = "（「『【〔〈《［｛"


@pytest.mark.parametrize("mark", list(NEVER_FIRST))
def test_no_line_starts_with_a_closing_or_small_character(mark: str) -> None:
    assert mark in NO_START
    got = lines_of(f"あいうえお{mark}かきくけこさしすせそ", 5)
    assert "".join(got) == f"あいうえお{mark}かきくけこさしすせそ"
    assert all(line[0] != mark for line in got), got
    assert got[0] == "あいうえ"  # お goes along with the mark (oidashi), not the mark alone


@pytest.mark.parametrize("mark", list(NEVER_LAST))
def test_no_line_ends_with_an_opening_bracket(mark: str) -> None:
    assert mark in NO_END
    got = lines_of(f"あいうえ{mark}おかきくけこさしす", 5)
    assert got[0] == "あいうえ" and got[1].startswith(mark), got


def test_kinsoku_looks_through_spaces_and_chains() -> None:
    # 」。 together may not open a line: the break goes before the character they follow
    assert lines_of("あいうえお」。かきくけこさし", 5)[:2] == ["あいうえ", "お」。かき"]
    assert break_classes("あ 。")[2] == NEVER  # the next line would open with 。 once the space is dropped


def test_a_line_too_short_for_kinsoku_breaks_where_it_overflows() -> None:
    # pushing out would empty the line: the violation is accepted rather than overflowing
    assert lines_of("あ。", 1) == ["あ", "。"]


# --- 分離禁止: numbers, operators, words ----------------------------------------------------------------------


def test_a_number_stays_with_its_unit() -> None:
    chars = "相手に1ダメージを与える。"
    classes = break_classes(chars)
    one = chars.index("1")
    assert classes[one + 1] == NEVER  # 1|ダ
    for measure in range(4, 12):
        got = lines_of(chars, measure)
        assert all(not line.endswith("1") for line in got), (measure, got)


@pytest.mark.parametrize("chars", ["7+6+2=15", "1＋内政", "２×３", "10÷2−1", "±0"])
def test_operators_never_start_or_end_a_line(chars: str) -> None:
    classes = break_classes(chars)
    for k, c in enumerate(chars):
        if c in "+＋−-=＝×÷±":
            assert (k == 0 or classes[k] == NEVER) and (k + 1 == len(chars) or classes[k + 1] == NEVER), (chars, k)


def test_spaced_operators_bind_across_the_space_but_a_command_option_may_open_a_line() -> None:
    assert set(break_classes("1 + 2 = 3")[1:]) == {NEVER}
    command = "fudaya build --studies"
    classes = break_classes(command)
    assert classes[command.index(" --")] == FREE  # build|--studies: the option is no operator
    assert lines_of(f"結果は{command}で行う。", 9.5)[0] == "結果はfudaya build"


def test_an_equation_is_never_split_when_anything_else_can_break() -> None:
    chars = "合計は7+6+2=15になる。"
    for measure in range(7, 14):
        assert any("7+6+2=15" in line for line in lines_of(chars, measure)), measure


def test_the_operand_word_of_a_sum_is_kept() -> None:
    # 1＋内政: the 1＋内 can never part, 内政 only when no other break keeps the line full
    chars = "被害を受けカードを裏にする（1枚で1＋内政＝●の数まで）。"
    assert break_classes(chars)[chars.index("政")] == AVOID
    for measure in (13, 14, 15, 16):
        got = lines_of(chars, measure)
        assert any("1＋内政＝●" in line for line in got), (measure, got)


def test_the_operand_word_of_a_spaced_sum_is_kept_too() -> None:
    # jinzai's example answers: 「組み合わせの勝利／点 ±0」 parted 勝利点 from the 点 its ±0 binds across the space
    template = "列の点 {columns}点 ＋ 5種類ボーナス {bonus}点 ＝ 価値 **{total}点**　／　組み合わせの勝利点 {vp:+d}"
    chars = answer_text(template, {"columns": 10, "bonus": 0, "total": 10, "vp": 0}).replace("**", "")
    assert chars.endswith("勝利点\u00a0±0")  # the label kept to its value by a no-break space
    classes = break_classes(chars)
    assert classes[chars.index("点\u00a0±")] == AVOID and classes[chars.index("値 ")] == AVOID
    for measure in range(26, 36):
        got = lines_of(chars, measure)
        assert got[-1].endswith("勝利点\u00a0±0") and (len(got) == 1 or "勝利点" in got[-1]), (measure, got)


def test_a_range_stays_whole() -> None:
    classes = break_classes("2〜4人")
    assert classes[1] == NEVER and classes[2] == NEVER and classes[3] == NEVER


def test_a_katakana_word_moves_whole_when_the_line_stays_full() -> None:
    # sanguosha's 殺 at 8.5 pt in 51.6 mm (17.2 em): the old breaker set 他のプ／レイヤー
    chars = "出牌段階に1回、攻撃範囲内の他のプレイヤー1人に使う。"
    got = lines_of(chars, 17.2)
    assert got == ["出牌段階に1回、攻撃範囲内の他の", "プレイヤー1人に使う。"]
    assert break_classes(chars)[chars.index("レ")] == AVOID


def test_a_katakana_word_breaks_rather_than_leave_a_gappy_line() -> None:
    # moving プレ would leave 他の on a line of ten filled to eight: too loose once justified
    assert lines_of("攻撃範囲内の他のプレイヤー1人に使う。", 10)[0] == "攻撃範囲内の他のプレ"
    assert lines_of("カードを引くとプレイヤー全員", 8)[0] == "カードを引くと"  # 7 of 8: the word moves


def test_latin_words_and_no_break_spaces_hold_together() -> None:
    assert break_classes("ab")[1] == NEVER and break_classes("a b")[1] == FREE
    assert break_classes("勝利点\u00a0±0")[3] == NEVER and break_classes("勝利点\u00a0±0")[4] == NEVER
    got = lines_of("カードを引く。Then discard one card.", 8)
    assert all(word in " ".join(got).split() for word in ("Then", "discard", "one", "card."))


def test_an_overlong_word_is_split_where_it_overflows() -> None:
    word = "Supercalifragilistic"
    got = lines_of(f"a {word}", 4)
    assert got[0] == "a" and "".join(got[1:]) == word
    assert all(len(line) <= 8 for line in got)


# --- runts ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("chars", "expected"), [
    ("あいうえおかきくけこさ", ["あいうえお", "かきく", "けこさ"]),  # さ alone would be a runt
    ("あいうえおかきくけこす。", ["あいうえお", "かきくけ", "こす。"]),  # す。 is a one-character line too
    ("あいうえおかきくけこさしす", ["あいうえお", "かきくけこ", "さしす"]),  # three characters stand alone
    ("あいうえお\nかきくけこさ\nたち", ["あいうえお", "かきく", "けこさ", "たち"]),  # each paragraph
])
def test_no_paragraph_ends_in_a_one_character_line(chars: str, expected: list[str]) -> None:
    assert lines_of(chars, 5) == expected


def test_a_runt_takes_only_what_kinsoku_allows() -> None:
    # the runt's new first character may not be 」: 「う」 moves whole
    got = lines_of("あいう「え」かきくけこ。", 6)
    assert all(line[0] not in NO_START for line in got) and len(got[-1]) > 2, got


def test_a_runt_stays_when_the_line_above_cannot_give() -> None:
    # the line above ended at an explicit break (another paragraph); or it is one Latin word
    assert lines_of("ab\nc", 5) == ["ab", "c"]
    assert lines_of("abcdefghij k", 5) == ["abcdefghij", "k"]


# --- lines, paragraphs and budgets ------------------------------------------------------------------------------


def test_explicit_breaks_and_empty_paragraphs() -> None:
    laid = text("夏\n\n殷周\n")
    got = compose(laid, 10).lines
    assert [laid.chars[line.start:line.end] for line in got] == ["夏", "", "殷周", ""]
    assert not any(line.justify for line in got)


def test_first_line_measure_and_budget() -> None:
    laid = text("あいうえおかきくけこさしすせそたちつてと")
    first = compose(laid, [3, 5], max_lines=2)
    assert [laid.chars[line.start:line.end] for line in first.lines] == ["あいう", "えおかきく"]
    assert first.stop == 8
    rest = compose(laid, 5, start=first.stop)
    assert "".join(laid.chars[line.start:line.end] for line in rest.lines) == laid.chars[8:]


def test_spaces_do_not_open_or_close_a_line() -> None:
    laid = text("Draw two cards then discard one")
    for line in compose(laid, 5).lines:
        assert laid.chars[line.start] != " " and laid.chars[line.end - 1] != " "


# --- justification ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("width_mm", [38.0, 41.5, 51.6, 77.4])
def test_justified_lines_fill_the_measure_to_a_tenth_of_a_millimetre(width_mm: float) -> None:
    size = 7.5  # points; the card font's em
    chars = "出牌段階に1回、攻撃範囲内の他のプレイヤー1人に使う。対象は「閃」を出さなければ1ダメージを受ける。"
    laid = text(chars, size)
    measure = mm_to_pt(width_mm)
    lines = compose(laid, measure).lines
    assert len(lines) >= 2
    for line in lines[:-1]:
        spacing = justify(laid, line)
        assert len(spacing) == line.end - line.start and spacing[-1] == 0.0
        assert abs(line.width + sum(spacing) - measure) < TENTH_MM / 100
        assert min(spacing) >= 0.0
    assert justify(laid, lines[-1]) == ()  # the paragraph's last line stays as set


def test_justification_spreads_between_characters_never_inside_latin_words() -> None:
    laid = text("あいTeamう")  # 3 + 4 × 0.5 = 5 wide, set on a measure of 6
    line = Line(0, 7, sum(laid.widths), 6.0, justify=True)
    spacing = justify(laid, line)
    assert spacing[2] == spacing[3] == spacing[4] == 0.0  # T|e, e|a, a|m
    assert spacing[0] == spacing[1] == spacing[5] > 0  # あ|い, い|T, m|う
    assert sum(spacing) == pytest.approx(6.0 - sum(laid.widths))


def test_lines_ended_by_a_break_are_not_justified() -> None:
    laid = text("あいうえおか\nきく")
    lines = compose(laid, 4).lines
    assert [line.justify for line in lines] == [True, False, False]
    assert justify(laid, lines[1]) == ()


@pytest.mark.parametrize(("chars", "cut", "shifted"), [
    ("です。」", [2], []),          # 。 then a closing bracket: 。 gives up its blank half
    ("」「", [0], []),              # closing then opening: half an em between their glyphs
    ("（「字", [1], [1]),           # opening after opening: the second gives up its leading half
    ("、「", [0], []),
    ("」。", [0], []),
    ("字」字「字", [], []),         # a mark beside a character keeps its blank
    ("(「", [], []),               # half-width brackets have no blank to give
])
def test_marks_side_by_side_are_set_solid(chars: str, cut: list[int], shifted: list[int]) -> None:
    found = squeezed(chars, [1.0] * len(chars), [1.0] * len(chars))
    if not cut:
        assert found is None
        return
    cells, shifts = found.cells, found.shifts
    assert [k for k, w in enumerate(cells) if w < 1.0] == cut and all(cells[k] == 0.5 for k in cut)
    assert [k for k, s in enumerate(shifts) if s] == shifted and all(shifts[k] == -0.5 for k in shifted)
