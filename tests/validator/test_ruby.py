"""Ruby markup (青空文庫 notation): what each form means, the ordinary brackets it leaves alone, and a located
error for every unbalanced or empty form."""
from __future__ import annotations

import pytest

from validator.ruby import Marked, Ruby, RubyError, parse_ruby


@pytest.mark.parametrize(("source", "text", "rubies"), [
    ("漢字", "漢字", ()),
    ("｜漢字《かんじ》を読む", "漢字を読む", (Ruby(0, 2, ("かんじ",)),)),
    ("この漢字《かんじ》を読む", "この漢字を読む", (Ruby(2, 4, ("かんじ",)),)),  # the kanji run before 《
    ("諸葛亮《しょかつりょう》", "諸葛亮", (Ruby(0, 3, ("しょかつりょう",)),)),
    ("殺《さつ》", "殺", (Ruby(0, 1, ("さつ",)),)),
    ("人々《ひとびと》", "人々", (Ruby(0, 2, ("ひとびと",)),)),
    ("漢字《かん｜じ》", "漢字", (Ruby(0, 2, ("かん", "じ")),)),  # jukugo: one reading a kanji
    ("ｶﾞ｜ABC《えーびーしー》", "ｶﾞABC", (Ruby(2, 5, ("えーびーしー",)),)),  # any base with ｜
    ("関羽《かんう》張飛《ちょうひ》", "関羽張飛", (Ruby(0, 2, ("かんう",)), Ruby(2, 4, ("ちょうひ",)))),
    ("関羽《かんう》羽《う》", "関羽羽", (Ruby(0, 2, ("かんう",)), Ruby(2, 3, ("う",)))),  # no reach into a base
    ("そのうえ《君主》を含む", "そのうえ《君主》を含む", ()),  # after kana: the ordinary brackets
    ("「《君主》」", "「《君主》」", ()),
    ("君主《《注》》", "君主《注》", ()),  # doubled: the brackets themselves, even after kanji
    ("縦棒｜｜", "縦棒｜", ()),
])
def test_each_form_means_what_the_notation_says(source: str, text: str, rubies: tuple[Ruby, ...]) -> None:
    assert parse_ruby(source) == Marked(text, rubies)


def test_kinds() -> None:
    mono, group, jukugo = (parse_ruby(s).rubies[0] for s in ("殺《さつ》", "漢字《かんじ》", "漢字《かん｜じ》"))
    assert (mono.kind, group.kind, jukugo.kind) == ("mono", "group", "jukugo")
    assert jukugo.reading == "かんじ"


@pytest.mark.parametrize(("source", "position", "words"), [
    ("漢字《かんじ", 3, "never closed"),
    ("漢字《かん《じ》", 3, "never closed"),
    ("漢字《》です", 3, "empty reading"),
    ("｜《かな》", 2, "no base text"),
    ("｜漢字です", 1, "no 《reading》 follows"),
    ("｜漢｜字《じ》", 3, "a second ｜"),
    ("ここで》終わる", 4, "》 with no 《"),
    ("「《君主」", 2, "never closed"),
    ("漢字《か｜ん｜じ》", 3, "3 readings separated by ｜ over 2 base characters"),
    ("漢字《かん｜》", 3, "jukugo ruby gives each base character one reading"),
    ("｜上\n下《うえした》", 5, "spans a line break"),
])
def test_unbalanced_or_empty_markup_is_located(source: str, position: int, words: str) -> None:
    with pytest.raises(RubyError) as caught:
        parse_ruby(source)
    assert caught.value.position == position - 1
    assert str(caught.value).startswith(f"ruby markup at character {position}: ") and words in str(caught.value)


def test_parsing_is_linear_in_the_text() -> None:
    """A long run of kanji and readings: the base search never walks back over earlier rubies."""
    source = "漢字《かんじ》" * 20_000
    marked = parse_ruby(source)
    assert len(marked.rubies) == 20_000 and marked.rubies[-1] == Ruby(39_998, 40_000, ("かんじ",))


def test_a_tate_chu_yoko_annotation_marks_the_run_it_quotes() -> None:
    marked = parse_ruby("西暦2026［＃「2026」は縦中横］年、!?［＃「!?」は縦中横］")
    assert marked.text == "西暦2026年、!?" and marked.across == ((2, 6), (8, 10))


@pytest.mark.parametrize(("source", "words"), [
    ("傍点［＃「傍点」に傍点］", "the only ［＃…］ annotation read is ［＃「…」は縦中横］"),
    ("ab［＃「xy」は縦中横］", "must follow the text it quotes"),
])
def test_an_annotation_it_cannot_read_is_located(source: str, words: str) -> None:
    with pytest.raises(RubyError) as caught:
        parse_ruby(source)
    assert str(caught.value).startswith("annotation at character 3: ") and words in str(caught.value)
