"""The simulation report as a PDF: the key numbers in a table, then charts people can read at a glance."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.colors import CMYKColor
from reportlab.lib.enums import TA_JUSTIFY, TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from validator.sim_result import (
    Distribution,
    LabelRate,
    Ladder,
    LadderPair,
    SeatRate,
    SideRate,
    SimulationReport,
    StrongPlay,
    TableSize,
    Teams,
    VariantComparison,
)
from validator.wording import japanese_range

from .charts import Bin, Estimate, bin_label, histogram, intervals
from .kinsoku import KinsokuParagraph
from .pdfdoc import atomic_path

INK = CMYKColor(0.3, 0.4, 0.4, 0.85)
RULE = CMYKColor(0, 0, 0, 0.3)
MAX_LABEL_COLUMNS = 5  # label kinds with more values (25 generals) are charted, not tabled per table size
ENDINGS = {"cap": "手数上限（打ち切り）"}  # the simulator's own ending; the rest are named by each engine
STUDY_NAMES = {"ladder": "強さの段階", "strong_play": "別の方針での設計の比較"}
TEXT_WIDTH_MM = 174.0  # A4 less the 18 mm side margins
FLAT_SHARE = 0.02  # a histogram whose bars all lie within 2 % of their mean shows nothing a sentence cannot


def _para(text: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of plain text, set with kinsoku (no line starts with 、 or ）): the report has no
    markup, and data strings (a deck's title, a design question) must not be read as ReportLab
    markup (`<img src=…>` would embed any file)."""
    return KinsokuParagraph(escape(text), style)


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def _bins(distribution: Distribution) -> list[Bin]:
    return [Bin(b.low, b.high, b.count) for b in distribution.histogram]


def _styles(font: str, bold: str) -> dict[str, ParagraphStyle]:
    body = ParagraphStyle("body", fontName=font, fontSize=9, leading=13, textColor=INK, wordWrap="CJK",
                          alignment=TA_JUSTIFY)  # running text flush at both edges (validator.compose)
    return {
        "title": ParagraphStyle("title", parent=body, fontName=bold, fontSize=16, leading=22, spaceAfter=4,
                                alignment=TA_LEFT),
        "h2": ParagraphStyle("h2", parent=body, fontName=bold, fontSize=11, leading=16, spaceBefore=8, spaceAfter=3,
                             alignment=TA_LEFT,
                             keepWithNext=1),  # a heading never ends a page
        "body": body,
        "small": ParagraphStyle("small", parent=body, fontSize=7.5, leading=10),
    }


def _names(s: SimulationReport, kind: str) -> dict[str, str]:
    """Japanese names of the engine's ids (kind "endings" or "events"); an unnamed id shows as it is."""
    if kind == "endings":
        return {**ENDINGS, **(s.names_ja.endings if s.names_ja else {})}
    return dict(s.names_ja.events) if s.names_ja else {}


def _interval_height(rows: int) -> float:
    """Points for an interval chart of `rows` rows: 11 a row over the title and axis, 125 at least."""
    return max(125, 50 + 11 * rows)


def _flat(bins: list[Bin]) -> bool:
    counts = [b.count for b in bins]
    mean = sum(counts) / len(counts) if counts else 0
    return len(counts) > 1 and mean > 0 and all(abs(c - mean) <= FLAT_SHARE * mean for c in counts)


def no_variation(bins: Sequence[Bin]) -> str | None:
    """Why a histogram of these bins could show nothing a sentence cannot, in Japanese; None when it can.
    Values that take at most two values (a win/loss 0/1, which is also how a game scoring its winners 1
    looks) are two numbers; bars all within 2 % of their mean (rank points: every game hands out the same
    set) are one. The sentence gives the figures instead."""
    used = [b for b in bins if b.count]
    if len(used) <= 2 and all(b.low == b.high for b in used):
        counts = "、".join(f"{bin_label(b)} が {b.count} 回" for b in used)
        return f"とる値は{len(used)}通りだけ（{counts}）。ばらつきを見せる図にならないため省略。"
    if _flat(list(bins)):
        return (f"{bins[0].low:g}–{bins[-1].high:g} のどの値もほぼ同じ回数（各ゲームで同じ組を配る方式）。"
                "図は省略。")
    return None


def _histogram_or_words(bins: list[Bin], styles: dict[str, ParagraphStyle], *, title: str, x_label: str,
                        font: str, band: tuple[float, float] | None = None) -> Flowable:
    """The histogram, or a sentence with its figures when it could not vary (no_variation)."""
    why = no_variation(bins)
    if why is not None:
        return _para(f"{title}：{why}", styles["small"])
    return histogram(bins, title=title, x_label=x_label, font=font, band=band)


def _fair_text(teams: Teams, players: int) -> str:
    """The report's definition of a side's fair share, with the value at this table size."""
    alone = [side.side for side in teams.sides if side.alone]
    text = ("勝った陣営の全員をそれぞれ1勝と数える。公平な取り分とは、陣営どうしが釣り合っている"
            "（卓にいるどの陣営も同じ確率で勝つ）とした場合の勝率で、1 ÷ そのゲームの陣営の数（ゲームごとに平均）。")
    if alone:
        text += f"{'・'.join(alone)}は1人ずつが1つの陣営。"
    shares = {round(side.fair_share, 9) for side in teams.sides}
    if len(shares) == 1:
        share = shares.pop()
        count = round(1 / share)
        if abs(count * share - 1) < 1e-9:
            text += f"{players}人の卓は {count} 陣営なので、どの陣営・席・{teams.kind}も {_pct(share)}。"
    return text + "陣営の勝率が公平な取り分から離れているほど、その陣営に有利（不利）。"


def _sides_section(s: SimulationReport, teams: Teams, styles: dict[str, ParagraphStyle], font: str, bold: str,
                   ) -> list[Flowable]:
    """A game of sides opens with its balance question: each side's and role's win rate against its fair share."""
    rows = [["陣営", teams.kind, "1ゲームの人数", "勝率 [95%]", "公平な取り分", "差"]]
    for side in teams.sides:
        name = f"{side.side}（1人ずつ）" if side.alone else side.side
        rows.append([name, "・".join(side.roles), f"{side.seats:.2g}", _interval_text(side), _pct(side.fair_share),
                     f"{(side.rate - side.fair_share) * 100:+.1f} ポイント"])
    table = Table(rows, colWidths=[30 * mm, 28 * mm, 24 * mm, 34 * mm, 26 * mm, 28 * mm], repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), font, 8), ("FONT", (0, 0), (-1, 0), bold, 8),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK), ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    story: list[Flowable] = [_para(f"陣営と{teams.kind}ごとの勝率", styles["h2"]),
                             _para(_fair_text(teams, s.players), styles["small"]), Spacer(1, 2 * mm), table,
                             Spacer(1, 2 * mm)]
    group = next((g for g in s.labels if g.kind == teams.kind), None)
    if group is not None:
        order = [role for side in teams.sides for role in side.roles]
        rows_by_side = sorted(group.rows, key=lambda r: order.index(r.label) if r.label in order else len(order))
        story.append(_label_chart(group.kind, rows_by_side, font, None))
    return story


def _label_chart(kind: str, rows: Sequence[LabelRate], font: str, reference: float | None) -> Flowable:
    """One label kind's win rates with intervals; each row's own fair share when the report carries it."""
    own = [row.fair_share for row in rows]
    per_row = own if any(share is not None for share in own) else None
    fair = "（点線 = 公平な取り分）" if per_row is not None or reference is not None else ""
    return intervals([Estimate(row.label, row.rate, *row.ci95) for row in rows],
                     title=f"{kind}ごとの勝率と95%信頼区間{fair}", font=font, reference=reference,
                     references=per_row, height=_interval_height(len(rows)))


def _key_numbers(s: SimulationReport) -> list[list[str]]:
    per_game, time, ludii = s.turns.per_game, s.play_time, s.ludii
    minutes = time.minutes_per_match
    box = time.box_minutes
    total_games = sum(s.ended_by.values()) or 1
    names = _names(s, "endings")
    endings = "、".join(f"{names.get(k, k)} {_pct(v / total_games)}" for k, v in s.ended_by.items())
    return [
        ["項目", "値"],
        [f"試合数（1試合 = {s.games_per_match} ゲーム）", f"{s.matches}（完走 {s.finished.matches}）"],
        ["完了率 Completion / 打ち切り Timeouts", f"{_pct(ludii.completion)} / {_pct(ludii.timeouts)}"],
        ["1ゲームの手番数 平均（中央値、5–95%）",
         f"{per_game.mean:.1f}（{per_game.median:.0f}、{per_game.p5:.0f}–{per_game.p95:.0f}）"],
        ["ゲームの終わり方", endings],
        [f"1試合の推定時間（箱の {japanese_range(round(box[0]), round(box[1]))} 分と比較）",
         f"平均 {minutes.mean:.1f} 分、箱の範囲内 {_pct(time.share_within_box)}、"
         f"短い {_pct(time.share_below_box)}、長い {_pct(time.share_above_box)}"],
        ["手番順勝率の精度（95%区間の半幅）", _precision(s)],
        ["IdealDuration（Ludii）", f"{ludii.ideal_duration:.3f}"],
        ["Balance / AdvantageP1（Ludii）", f"{ludii.balance:.3f} / {_pct(ludii.advantage_p1)}"],
        ["DecisionMoves（選択肢が2つ以上の局面）", _pct(ludii.decision_moves)],
        ["勝者が複数（チームの勝利）" if s.team_victory else "勝利の分かち合い（同点）", f"{s.shared_wins} 試合"],
    ]


def _points(share: float, digits: int = 2) -> str:
    return f"±{share * 100:.{digits}f} ポイント"


def _precision(s: SimulationReport) -> str:
    """How precise the seat win rates are, and why the simulation stopped where it did."""
    note = s.precision
    if note is None:
        return "–"
    reached = f"最大 {_points(note.reached)}"
    if not note.target:
        return f"{reached}（精度の目標なし、{note.cap} 試合すべてを実施）"
    if note.stopped_early:
        return (f"{reached}（目標 {_points(note.target, 1)} に達したため {s.matches} 試合で終了。"
                f"上限 {note.cap}）")
    if note.reached <= note.target:
        return f"{reached}（上限の {note.cap} 試合で目標 {_points(note.target, 1)} に達した）"
    return f"{reached}（目標 {_points(note.target, 1)} には届かず、上限の {note.cap} 試合を実施）"


def _counter_section(s: SimulationReport, styles: dict[str, ParagraphStyle], font: str, bold: str,
                     ) -> list[Flowable]:
    """Every event the engine counts (steals, effects fired, tie-breaks…): total, mean and max per game."""
    if not s.counters:
        return []
    rows = [["数えた出来事", "合計", "1ゲーム平均", "最大"]]
    names = _names(s, "events")
    for name, total in s.counters.items():
        per = s.counters_per_game[name]
        rows.append([names.get(name, name), f"{total}", f"{per.mean:.2f}", f"{per.maximum:g}"])
    table = Table(rows, colWidths=[80 * mm, 30 * mm, 30 * mm, 25 * mm], repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), font, 8), ("FONT", (0, 0), (-1, 0), bold, 8),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK), ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
    ]))
    return [KeepTogether([_para("数えた出来事", styles["h2"]), table, Spacer(1, 2 * mm)])]


def _table_size_section(sizes: Sequence[TableSize], team: bool, styles: dict[str, ParagraphStyle], font: str,
                        bold: str) -> list[Flowable]:
    """One row per table size: length, completion, and the win rate of each label of the few-valued kinds
    (identities, not the 25 generals) with its 95 % interval."""
    kinds = [group.kind for group in sizes[0].labels
             if all(len(g.rows) <= MAX_LABEL_COLUMNS for size in sizes for g in size.labels if g.kind == group.kind)]
    columns = sorted({row.label for size in sizes for g in size.labels if g.kind in kinds for row in g.rows})
    rows = [["人数", "試合", "平均手番", "推定分", "完走"] + columns]
    for size in sizes:
        rates = {row.label: row for g in size.labels if g.kind in kinds for row in g.rows}
        rows.append([f"{size.players}", f"{size.matches}", f"{size.turns_mean:.1f}",
                     f"{size.minutes_mean:.0f}", _pct(size.completion)]
                    + [_interval_text(rates[c]) + _fair_line(rates[c]) if c in rates else "–" for c in columns])
    table = Table(rows, colWidths=[10 * mm, 12 * mm, 15 * mm, 13 * mm, 14 * mm] + [22 * mm] * len(columns),
                  repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), font, 7.5), ("FONT", (0, 0), (-1, 0), bold, 8),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK), ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("ALIGN", (0, 0), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    note = "各人数で同じ方針・シード・精度の目標と試合数の上限（目標に届いた人数は早く終わる）。"
    if kinds:
        credit = "勝った側の全員を1勝と数える" if team else "同点の勝ちは人数で割る"
        note += f"{'・'.join(kinds)}ごとの勝率（{credit}）、下段は95%信頼区間"
        fair = any(row.fair_share is not None for size in sizes for g in size.labels for row in g.rows)
        note += "と、その人数での公平な取り分（陣営が釣り合っているときの勝率）。" if fair else "。"
    return [KeepTogether([_para("人数ごとの結果", styles["h2"]), _para(note, styles["small"]),
                          Spacer(1, 2 * mm), table, Spacer(1, 2 * mm)])]


def _fair_line(row: LabelRate) -> str:
    return "" if row.fair_share is None else f"\n公平 {_pct(row.fair_share)}"


def _variant_section(v: VariantComparison, styles: dict[str, ParagraphStyle], font: str, bold: str,
                     ) -> list[Flowable]:
    """The design question, one row per option (★ = the deck's default), the designer's reason and the verdict."""
    seats = len(v.options[0].seats)
    crowded = seats > 5  # sanguosha's 8 seats: narrower seat columns, so the table keeps within the text width
    header = ["案", "Balance"] + [f"{'順' if crowded else '手番順'}{n}" for n in range(1, seats + 1)] \
        + ["得点SD", "平均勝差", "分"]
    rows = [header]
    for row in v.options:
        rows.append([("★ " if row.default else "") + row.label, f"{row.balance:.3f}"]
                    + [f"{_pct(seat.rate)}" for seat in row.seats]
                    + [f"{row.score_sd:.2f}", f"{row.winning_margin_mean:.2f}", f"{row.minutes_per_match:.0f}"])
    seat_width = min(15.0, (TEXT_WIDTH_MM - 38 - 14 - 13 - 14 - 9) / seats)
    table = Table(rows, colWidths=[38 * mm, 14 * mm] + [seat_width * mm] * seats + [13 * mm, 14 * mm, 9 * mm])
    size = 7 if crowded else 8
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), font, size), ("FONT", (0, 0), (-1, 0), bold, size),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK), ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2 if crowded else 6), ("RIGHTPADDING", (0, 0), (-1, -1), 2 if crowded else 6),
    ]))
    return [
        _para("設計の比較", styles["h2"]),
        _para(f"問い：{v.question}　{v.players}人、方針 {'・'.join(v.policies)}、シード {v.seed}"
              f"（全案で同じ配り）。各案 上限 {v.matches_per_option} 試合、実施 "
              + "・".join(f"{row.matches}" for row in v.options) + " 試合（表の順）。", styles["small"]),
        Spacer(1, 2 * mm), table, Spacer(1, 2 * mm),
        _para(f"既定（★）の理由：{v.why_default}", styles["small"]),
        _para(f"測定結果：{v.verdict_ja}", styles["small"]),
    ] + _strong_play(v.strong_play, styles)


def _strong_play(strong: StrongPlay | None, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    """The same options played again by stronger policies: their Balance, verdict and whether the conclusion holds."""
    if strong is None:
        return []
    again = strong.comparison
    balances = "、".join(f"{'★' if row.default else ''}「{row.label}」{row.balance:.3f}"
                        f"（{row.matches} 試合）" for row in again.options)
    return [Spacer(1, 1 * mm),
            _para(f"方針 {'・'.join(again.policies)} で遊び直した結果（各案 上限 {again.matches_per_option}"
                  f" 試合）：Balance {balances}。{again.verdict_ja}", styles["small"]),
            _para(f"結論：{strong.conclusion_ja}", styles["small"])]


def _interval_text(row: SeatRate | LabelRate | LadderPair | SideRate) -> str:
    return f"{_pct(row.rate)}\n[{_pct(row.ci95[0])}–{_pct(row.ci95[1])}]"


def _ladder_section(ladder: Ladder, styles: dict[str, ParagraphStyle], font: str, bold: str) -> list[Flowable]:
    """The strength ladder: each pair head to head (is the rung really stronger?), then the balance
    measured with every seat at each strength (does an imbalance grow with skill?)."""
    style = [("FONT", (0, 0), (-1, -1), font, 7.5), ("FONT", (0, 0), (-1, 0), bold, 8),
             ("TEXTCOLOR", (0, 0), (-1, -1), INK), ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
             ("ALIGN", (1, 0), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]
    team = ladder.team_victory
    fair = "基準の勝率" if team else "公平な取り分"
    pairs = [["組（強い側 対 弱い側）", "試合", "強い側の勝率 [95%]", fair, "判定"]]
    for pair in ladder.pairs:
        pairs.append([f"{pair.stronger} 対 {pair.weaker}", f"{pair.finished}", _interval_text(pair),
                      _pct(pair.reference), "強い" if pair.separated else "区別できない"])
    head = Table(pairs, colWidths=[48 * mm, 14 * mm, 34 * mm, 34 * mm, 24 * mm], repeatRows=1)
    head.setStyle(TableStyle(style))
    story: list[Flowable] = [
        _para("強さの段階", styles["h2"]),
        _para(f"{ladder.players}人、シード {ladder.seed}。隣り合う段を対戦させる（強い側が1席、弱い側が残りの席。"
              f"最初の手番は毎試合ランダム）。各組 上限 {ladder.matches_per_pair} 試合、途中で確かめて、強いと"
              "示せた時点か、上限までに示せないと決まった時点で打ち切る（逐次検定：上限より前は片側0.05%の厳しい基準、"
              "上限では残りの有意水準で判定し、全体で誤って強いとする確率を2.5%以下に保つ）。"
              + ("チームで勝つゲームなので、基準は弱い側だけの卓で同じ席が勝った割合。" if team else ""),
              styles["small"]),
        Spacer(1, 2 * mm), head, Spacer(1, 1 * mm), _para(ladder.order_ja, styles["small"]),
        _para(ladder.strongest_ja(), styles["small"]), Spacer(1, 2 * mm)]
    if ladder.strengths:
        seats = len(ladder.strengths[0].seats)
        rows = [["全席が同じ方針", "試合", "Balance"] + [f"手番順{n}" for n in range(1, seats + 1)] + ["平均手番"]]
        for row in ladder.strengths:
            rows.append([row.policy, f"{row.finished}", f"{row.balance:.3f}"]
                        + [_interval_text(seat) for seat in row.seats] + [f"{row.turns_mean:.1f}"])
        width = min(24.0, (TEXT_WIDTH_MM - 72) / seats)  # the three columns before and the one after: 72 mm
        table = Table(rows, colWidths=[30 * mm, 12 * mm, 15 * mm] + [width * mm] * seats + [15 * mm], repeatRows=1)
        table.setStyle(TableStyle(style))
        story += [KeepTogether([_para("強さごとの釣り合い", styles["h2"]), table])]
        if ladder.seats is not None:
            story += [Spacer(1, 1 * mm), _para(ladder.seats.text_ja, styles["small"])]
    return story


def write_report_pdf(path: Path, summary: SimulationReport, *, title: str, font: str, bold: str) -> int:
    """Write the report; returns its page count."""
    styles = _styles(font, bold)
    s = summary
    players = s.players
    story: list[Flowable] = [
        _para(f"{title} — シミュレーション報告", styles["title"]),
        _para(f"{players}人、方針 {'・'.join(s.policies)}、{s.matches} 試合（1試合 = "
                  f"{s.games_per_match} ゲーム。箱の表示時間と勝利条件は試合単位）、シード {s.seed}。",
                  styles["small"]),
        Spacer(1, 4 * mm),
    ]
    if s.teams is not None:  # a team game's balance question comes first: do the sides win their fair share?
        story += _sides_section(s, s.teams, styles, font, bold)
    # values wrap in their column: an engine's ending names can run long (sanguosha's three endings)
    cell = ParagraphStyle("cell", parent=styles["body"], fontSize=8.5, leading=11.5)
    rows = [[label, value if n == 0 else _para(value, cell)] for n, (label, value) in enumerate(_key_numbers(s))]
    table = Table(rows, colWidths=[70 * mm, 100 * mm])
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), font, 8.5), ("FONT", (0, 0), (-1, 0), bold, 8.5),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK), ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    story += [table, Spacer(1, 2 * mm)]
    band = s.play_time.turn_band
    per_match = f"1試合（{s.games_per_match}ゲーム）" if s.games_per_match > 1 else "1試合"
    seconds_per_turn = s.play_time.seconds_per_turn
    story.append(_histogram_or_words(_bins(s.turns.per_match), styles, title=f"{per_match}の手番数",
                                     x_label=f"手番数（色の帯 = 箱の表示時間 {seconds_per_turn:g} 秒/手番で換算）",
                                     font=font, band=(band[0], band[1])))
    story.append(_histogram_or_words(_bins(s.scores.per_game), styles, title="1ゲームの得点（全プレイヤー）",
                                     x_label="得点", font=font))
    own = [row.fair_share for row in s.seats]
    per_seat = own if all(share is not None for share in own) else None
    seat_fair = per_seat is not None or not s.team_victory
    story.append(intervals([Estimate(f"手番順 {row.seat}", row.rate, *row.ci95) for row in s.seats],
                           title="手番順ごとの勝率と95%信頼区間" + ("（点線 = 公平な取り分）" if seat_fair else ""),
                           font=font, reference=None if s.team_victory else 1 / players, references=per_seat,
                           height=_interval_height(len(s.seats))))
    for group in s.labels:
        if s.teams is not None and group.kind == s.teams.kind:
            continue  # on the first page, with the sides
        story.append(_label_chart(group.kind, group.rows, font, None if s.team_victory else 1 / players))
    if s.by_players:
        story += _table_size_section(s.by_players, s.team_victory, styles, font, bold)
    story += _counter_section(s, styles, font, bold)
    if s.variants is not None:
        story.append(KeepTogether(_variant_section(s.variants, styles, font, bold)))
    if s.ladder is not None:
        story += _ladder_section(s.ladder, styles, font, bold)
    if s.studies_not_run:
        names = "・".join(STUDY_NAMES[name] for name in s.studies_not_run)
        story.append(_para(f"game.json は{names}も求めているが、このビルドでは行っていない（時間がかかるため。"
                           "fudaya build --studies で行い、結果は同じデータとコードの間、以後の報告にも載る）。",
                           styles["small"]))
    story.append(_para("前提", styles["h2"]))
    for note in (f"1手番を {s.play_time.seconds_per_turn:g} 秒と仮定（その手番で起きることすべてを含む）。"
                 "シャッフル・配札・得点計算の時間は含まない。",
                 "手番順 1 は、その試合の1ゲーム目で最初に手番を行ったプレイヤー。以下、手番の順。"
                 "勝った側の全員をそれぞれ1勝と数える（チームで勝つゲーム）。" if s.team_victory else
                 "同点で勝利を分かち合った試合は、勝者の人数で割って数える。",
                 f"1ゲーム {s.step_cap} 手を超えたら打ち切り（Timeouts に数える）。"):
        story.append(_para(note, styles["small"]))
    with atomic_path(path) as temporary:
        doc = SimpleDocTemplate(str(temporary), pagesize=A4, invariant=1, initialFontName=font,
                                leftMargin=18 * mm, rightMargin=18 * mm, topMargin=15 * mm, bottomMargin=15 * mm,
                                title=f"{title} simulation report", creator="fudaya")
        doc.build(story)
        pages: int = doc.page
    return pages
