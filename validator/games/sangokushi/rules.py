"""三国志演義 war game (sangokushi): the rule tables read from game.json, the action encoding, the
clarifications (every point the source rules leave open, decided once) and what one seat may see.

The numbers of the rules (deal sizes, the method die, the capture die, bonuses, costs) are data in
game.json `rules` so the printed reference card and the engine read the same table; start areas
and victory points live in the map component (validator.model.GameMap).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ...engine.actions import ActionCodec
from ...engine.api import Action, Clarification, Seat, rule
from .knowledge import Known

if TYPE_CHECKING:
    from .game import SangokushiGame

GAME = "sangokushi"
STATS = ("valor", "command", "strategy")                 # 武勇 采配 知略: what a battle method compares
METHODS = {"duel": "valor", "battle": "command", "scheme": "strategy"}  # 一騎討ち 合戦 計略
METHOD_LABELS = {"duel": "一騎討ち", "battle": "合戦", "scheme": "計略"}
CAPTURE, KILL, RETURN = "capture", "kill", "return"     # 生け捕り 討ち死に 生還
CAPTURE_RESULTS = (CAPTURE, KILL, RETURN)

CLARIFICATIONS: tuple[Clarification, ...] = (
    Clarification("attack-needs-cards",
                  "攻撃するには手札が必要です。中立エリアへの攻撃は手札2枚、他の人のエリアへの攻撃は1枚以上。"
                  "自分のエリアは攻撃できません。",
                  "An attack needs hand cards: two for a neutral area, at least one for another player's area. "
                  "Nobody attacks their own area."),
    Clarification("neutral-choice",
                  "中立エリアを取るときに使用済みにする2枚は、攻撃する人が手札から選びます。ダイスは振りません。",
                  "The attacker chooses which two hand cards a neutral area costs; no die is rolled."),
    Clarification("refusal",
                  "防御側は、自分のカードを1枚も出す前なら戦闘を断れます。手札がない防御側は必ず断ったことになります。"
                  "断られた攻撃ではダイスを振らず、攻撃側の出したカードは使用済みになり、エリアは攻撃側のものになります。",
                  "The defender may refuse before putting down any card; a defender with an empty hand always "
                  "refuses. A refused attack rolls no die: the attacker's chosen cards become used and the area "
                  "changes hands."),
    Clarification("best-generals",
                  "各ラウンドで使う武将は、表向きのカードから能力値の高い順に自動で選びます。"
                  "どれを選んでもほかに影響しないので、選ぶ意味がないためです。",
                  "Each round uses the face-up cards with the highest stat for the method: the pick changes "
                  "nothing else, so any other pick could only be worse."),
    Clarification("two-generals-sum",
                  "2人で戦う方法では、2人の能力値を足し、ダイスは各側1個だけ振ります。",
                  "In a two-general method the two stats are added; each side still rolls one die."),
    Clarification("short-handed",
                  "2人で戦う方法なのに表向きのカードが1枚しかない側は、その1枚だけで戦います。",
                  "A side with a single face-up card fights a two-general round with that card alone."),
    Clarification("bonus-face-up",
                  "所属ボーナスは、その時点で表向きのカード（2枚以上）だけで判定します。"
                  "君主のボーナス（+2）も、君主が表向きのときだけです。+1と+2は重ねません。",
                  "The affiliation bonus looks only at the side's face-up cards at that moment (two or more); the "
                  "lord's +2 needs the lord face up and replaces the +1."),
    Clarification("tie",
                  "合計値が同じなら、どちらも被害なしで、戦闘方法を振り直すところからもう一度行います。",
                  "Equal totals: no damage to either side, and the next round starts with a new method roll."),
    Clarification("damage-flip",
                  "被害はカードを裏にすることでだけ受けます。1枚は1+内政値まで受け止め、被害が残る限り、"
                  "被害を受ける側が表向きのカードを1枚ずつ選んで裏にします。受け止めきれなかった分や余った分は、"
                  "次のラウンドに持ち越しません。",
                  "Damage is taken only by turning cards face down: the damaged side picks face-up cards one at a "
                  "time, each absorbing up to 1 + its politics, until the damage is covered or no card is left. "
                  "Nothing carries over: unused capacity of the last card and damage beyond the last card are lost."),
    Clarification("capture-order",
                  "戦闘の後は、討ち取りチェック、カードの移動、エリアの移動の順に行い、その後で生け捕ったカードの"
                  "保有枚数制限を見ます。勝った攻撃側は、取ったエリアの分だけ制限が増えた状態で判定します。",
                  "After a battle: capture checks, cards moved, the area changes hands, and only then are captured "
                  "cards held against the limit, so a winning attacker counts the area just taken."),
    Clarification("capture-choice",
                  "生け捕ったカードは1枚ずつ、残すか在野に捨てるかを勝った人が選びます。"
                  "保有枚数制限に達していれば捨てるしかありません。",
                  "The winner decides for each captured card in turn whether to keep it or release it to the "
                  "pool; at the holding limit it must be released."),
    Clarification("lord-death-roll",
                  "君主の死亡とは討ち死にだけを指します（生け捕りや生還、解雇は含みません）。死亡した君主の数は"
                  "全員の分を合わせて数えます。戦闘の後処理（エリアの移動まで）が終わってから、その戦闘で死んだ君主1人ごとに"
                  "ダイスを振り、その君主を含めた死亡数以下ならゲーム終了です。",
                  "A lord dies only when killed in the capture check (not when captured, returned or dismissed). "
                  "Dead lords are counted over the whole table. Once the battle's aftermath up to the area change "
                  "is done, one die per lord killed in it is rolled; at or below the dead count so far (that lord "
                  "included) the game ends."),
    Clarification("end-scoring",
                  "君主の死亡でゲームが終わったときは、その時点の保有エリアのポイントが一番多い人が勝ちです。"
                  "同点なら全員が勝者です。失ったエリアのポイントは数えません。",
                  "When a lord's death ends the game, the most area points held at that moment wins; equal points "
                  "share the win. Areas lost earlier count for nothing."),
    Clarification("stalemate",
                  "全員が続けてパスしたら（1周）、そこでゲーム終了とし、エリアのポイントで勝者を決めます。"
                  "また、決められた周回数（round_limit）を終えてもゲームは終わります。",
                  "If every player passes in a row (one full round), the game ends and area points decide; so it "
                  "does after round_limit full rounds (a simulation bound, counted in the report)."),
    Clarification("recover-choice",
                  "回復は使用済みカードがあるときだけ行えます。戻せる枚数が使用済みカードより少ないときは、"
                  "どれを戻すか本人が選びます。足りていれば全部戻ります。",
                  "Recovery needs a used card. When fewer cards may come back than are used, the player picks "
                  "which; otherwise all come back."),
    Clarification("recruit-limit",
                  "保有枚数が制限に達していると徴兵はできません。引ける枚数は制限までで、山札と在野プールの両方が"
                  "空なら、そこで終わります。追加徴兵に使ったカードも保有カードに数えます。",
                  "No recruiting at the holding limit. Draws stop at the limit or when both the pile and the pool "
                  "are empty; cards spent on an extra recruit still count as held."),
    Clarification("extra-recruit",
                  "追加徴兵に使うカードには内政値1以上のものが1枚以上必要です。ダイスは使うカードがあるときだけ振り、"
                  "(内政値の合計+ダイス+ボーナス)÷3の切り捨てだけ追加で引きます。",
                  "An extra recruit needs a card of politics 1 or more among those spent. The die is rolled only "
                  "when cards are spent; (politics + die + bonus) // 3 more cards are drawn."),
    Clarification("dismiss-one",
                  "解雇では手札を1枚以上捨てます。",
                  "A dismissal releases at least one hand card."),
    Clarification("area-loss-discard",
                  "エリアを失って保有枚数制限を超えたら、超えた分だけ、手札と使用済みのどちらからでも本人が選んで"
                  "在野プールに捨てます。",
                  "A player over the limit after losing an area releases the excess to the pool, choosing from "
                  "hand and used cards alike."),
    Clarification("start-areas",
                  "開始エリアはダイスで各席に割り当て、開始プレイヤーも無作為に決めます。",
                  "Start areas are dealt to seats at random, and so is the first player."),
)

# Actions: kind << 8 | operand (a card id or an area index, each below 255).
(ATTACK, RECOVER, RECRUIT, DISMISS, PASS, PAY, COMMIT, DONE, REFUSE, DAMAGE, SPEND, ROLL, RESTORE, DRAW, TAKE,
 KEEP, RELEASE, DISCARD, SHED) = range(1, 20)
ACTION_KINDS = ("", "attack", "recover", "recruit", "dismiss", "pass", "pay", "commit", "done", "refuse",
                "damage", "spend", "roll", "restore", "draw", "take", "keep", "release", "discard", "shed")
CODEC = ActionCodec(operands=1, bits=8)
KIND_SHIFT, MASK = CODEC.kind_shift, CODEC.mask


def encode(kind: int, x: int = 0) -> Action:
    return kind << KIND_SHIFT | x


def decode(action: Action) -> tuple[int, int]:
    """(kind, operand) of an action."""
    return action >> KIND_SHIFT, action & MASK


@dataclass(frozen=True)
class SangokushiRules:
    """The numeric rules from game.json "rules"; the schema (schema/rules/sangokushi.schema.json) checks them first."""

    deal_size: Mapping[int, int]              # 2.2: players -> cards dealt (規定枚数)
    affiliations: tuple[str, ...]             # 5.10: the twelve affiliations
    method_die: tuple[tuple[str, int], ...]   # 5.5: die face 1..6 -> (method, generals)
    capture_die: tuple[str, ...]              # 6.1: die face 1..6 -> capture / kill / return
    max_battle_cards: int = 4                 # 5.1
    neutral_cost: int = 2                     # 4.4
    affiliation_bonus: int = 1                # 5.10, 7.6, 8.8
    lord_bonus: int = 2                       # 5.11
    bonus_min_cards: int = 2
    damage_base: int = 1                      # 5.14: a card absorbs damage_base + politics
    extra_recruit_divisor: int = 3            # 8.5
    extra_recruit_min_politics: int = 1       # 8.9
    round_limit: int = 60                     # clarification "stalemate"

    @classmethod
    def from_mapping(cls, rules: Mapping[str, Any]) -> SangokushiRules:
        deal = rule(rules, "deal_size", dict, GAME)
        affiliations = tuple(str(a) for a in rule(rules, "affiliations", list, GAME))
        die = rule(rules, "method_die", list, GAME)
        capture = tuple(str(c) for c in rule(rules, "capture_die", list, GAME))
        if len(die) != 6 or len(capture) != 6:
            raise ValueError(f"{GAME}: method_die and capture_die need one entry per die face (6)")
        methods = tuple((str(m["method"]), int(m["generals"])) for m in die)
        for method, generals in methods:
            if method not in METHODS or generals not in (1, 2):
                raise ValueError(f"{GAME}: method_die entry ({method}, {generals}) is not a method of 1 or 2 generals")
        if any(c not in CAPTURE_RESULTS for c in capture):
            raise ValueError(f"{GAME}: capture_die entries must be among {CAPTURE_RESULTS}")
        ints = {key: rule(rules, key, int, GAME) for key in (
            "max_battle_cards", "neutral_cost", "affiliation_bonus", "lord_bonus", "bonus_min_cards", "damage_base",
            "extra_recruit_divisor", "extra_recruit_min_politics", "round_limit") if key in rules}
        return cls({int(k): int(v) for k, v in deal.items()}, affiliations, methods, capture, **ints)


@dataclass(frozen=True)
class BattleView:
    """The battle as one seat sees it: face-down selections are counts until revealed."""

    attacker: Seat
    defender: Seat
    area: int
    revealed: bool
    attack_cards: tuple[int, ...]     # the attacker's cards (only the seat's own before the reveal)
    defend_cards: tuple[int, ...]
    attack_count: int
    defend_count: int
    face_up: tuple[int, ...]          # cards face up (after the reveal)
    method: int                       # last method die face, 0 before the first round
    damage: int                       # damage still to be taken by the seat deciding DAMAGE


class TableView(NamedTuple):
    """The rest of what every seat sees, which no heuristic reads but a state dealt from the observation
    (determinize.py) needs to play on exactly. A NamedTuple, as building one per decision stays cheap."""

    player: Seat                      # whose decision it is
    turns: int
    passes_in_row: int
    area: int                         # the area attacked this turn (a neutral one too), -1 when none
    spent_owner: Seat                 # whose chosen cards are down (-1: none)
    spent_count: int                  # how many cards they have chosen face down so far
    eligible_count: int               # how many used cards the recovering seat may still bring back
    captured: tuple[int, ...]         # captured cards still to be kept or released, the next one last
    shed_seat: Seat                   # the seat that lost an area and may have to shed cards, -1 when none
    starts: tuple[int, ...]           # seat -> start area
    known: Known                      # per seat, (card, places) the table saw it go to (knowledge.py)


@dataclass(frozen=True)
class SangokushiObservation:
    """One seat's view: its own hand and used cards, the public table, the pending decision."""

    game_name: str
    game: SangokushiGame
    seat: Seat
    phase: int
    turn_player: Seat
    hand: tuple[int, ...]
    used: tuple[int, ...]
    hand_counts: tuple[int, ...]
    used_counts: tuple[int, ...]
    limits: tuple[int, ...]
    owners: tuple[int, ...]           # area -> seat, -1 when neutral
    points: tuple[int, ...]           # seat -> area points held
    pool: tuple[int, ...]             # 在野プール, face up (8.3)
    deck_size: int
    removed: tuple[int, ...]
    dead_lords: int
    spent: tuple[int, ...]            # cards chosen so far for recovery, recruit, neutral pay or battle
    pending: int                      # draws / restores / discards left in the current step
    battle: BattleView | None
    eligible: tuple[int, ...]         # the seat's own used cards its recovery may still bring back
    table: TableView
