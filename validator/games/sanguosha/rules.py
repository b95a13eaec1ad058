"""三国殺 (sanguosha): card and skill slugs, action kinds and codec, the rules read from game.json, the
clarifications, the distance function and what one seat may see.

Behaviour is keyed by slug (CONTRACT.md fixes them); which cards exist, their suits, ranks and ranges
and each general's HP, gender, kingdom and skills come from the deck data (tables.py).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...engine.actions import ActionCodec
from ...engine.api import Action, Clarification, Seat, Side, rule

if TYPE_CHECKING:
    from .game import SanguoshaGame
    from .state import SanguoshaState

GAME = "sanguosha"

# -- cards -----------------------------------------------------------------------------------------
CARD_SLUGS = ("sha", "shan", "tao", "juedou", "guohe", "shunshou", "wuzhong", "nanman", "wanjian", "taoyuan",
              "wugu", "jiedao", "wuxie", "lebu", "shandian", "zhuge", "qinggang", "cixiong", "hanbing", "qinglong",
              "zhangba", "guanshi", "fangtian", "qilin", "bagua", "renwang", "jueying", "dilu", "zhuahuang", "chitu",
              "dayuan", "zixing")
(SHA, SHAN, TAO, JUEDOU, GUOHE, SHUNSHOU, WUZHONG, NANMAN, WANJIAN, TAOYUAN, WUGU, JIEDAO, WUXIE, LEBU, SHANDIAN,
 ZHUGE, QINGGANG, CIXIONG, HANBING, QINGLONG, ZHANGBA, GUANSHI, FANGTIAN, QILIN, BAGUA, RENWANG) = range(26)
CARD_NAMES = ("殺", "閃", "桃", "決闘", "過河拆橋", "順手牽羊", "無中生有", "南蛮入侵", "万箭斉発", "桃園結義",
              "五穀豊登", "借刀殺人", "無懈可撃", "楽不思蜀", "閃電", "諸葛連弩", "青釭剣", "雌雄双股剣", "寒氷剣",
              "青龍偃月刀", "丈八蛇矛", "貫石斧", "方天画戟", "麒麟弓", "八卦陣", "仁王盾", "絶影", "的盧", "爪黄飛電",
              "赤兎", "大宛", "紫騂")
CARD_INDEX = {slug: i for i, slug in enumerate(CARD_SLUGS)}
SINGLE_TRICKS = frozenset({JUEDOU, GUOHE, SHUNSHOU, WUZHONG, JIEDAO})
AOE_TRICKS = frozenset({NANMAN, WANJIAN, TAOYUAN, WUGU})
DELAYED = frozenset({LEBU, SHANDIAN})
TRICKS = SINGLE_TRICKS | AOE_TRICKS | DELAYED | {WUXIE}
SUBTYPES = ("basic", "trick", "delayed", "weapon", "armor", "horse_plus", "horse_minus")
WEAPON_SLOT, ARMOR_SLOT, PLUS_SLOT, MINUS_SLOT = range(4)
SLOT_OF_SUBTYPE = {"weapon": WEAPON_SLOT, "armor": ARMOR_SLOT, "horse_plus": PLUS_SLOT, "horse_minus": MINUS_SLOT}
SPADE, HEART, CLUB, DIAMOND = range(4)
SUITS = ("spade", "heart", "club", "diamond")
SUIT_MARKS = ("♠", "♥", "♣", "♦")
RANK_LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
NO_COLOR, BLACK, RED = 0, 1, 2

# -- skills and equipment effects (one index space for TRIGGER / SKILL actions) ----------------------
SKILL_SLUGS = ("jianxiong", "hujia", "fankui", "guicai", "ganglie", "tuxi", "luoyi", "tiandu", "yiji", "qingguo",
               "luoshen", "rende", "jijiang", "wusheng", "paoxiao", "guanxing", "kongcheng", "longdan", "mashu",
               "tieji", "jizhi", "qicai", "zhiheng", "jiuyuan", "qixi", "keji", "kurou", "yingzi", "fanjian", "guose",
               "liuli", "qianxun", "lianying", "jieyin", "xiaoji", "jijiu", "qingnang", "wushuang", "lijian", "biyue")
SKILL_NAMES = ("奸雄", "護駕", "反饋", "鬼才", "剛烈", "突襲", "裸衣", "天妬", "遺計", "傾国", "洛神", "仁徳", "激将",
               "武聖", "咆哮", "観星", "空城", "竜胆", "馬術", "鉄騎", "集智", "奇才", "制衡", "救援", "奇襲", "克己",
               "苦肉", "英姿", "反間", "国色", "流離", "謙遜", "連営", "結姻", "梟姫", "急救", "青嚢", "無双", "離間",
               "閉月")
EQUIP_EFFECTS = ("bagua", "cixiong", "qinglong", "guanshi", "hanbing", "qilin", "zhangba", "fangtian")
EFFECT_SLUGS = SKILL_SLUGS + EQUIP_EFFECTS
EFFECT_NAMES = SKILL_NAMES + ("八卦陣", "雌雄双股剣", "青龍偃月刀", "貫石斧", "寒氷剣", "麒麟弓", "丈八蛇矛",
                             "方天画戟")
EFFECT_INDEX = {slug: i for i, slug in enumerate(EFFECT_SLUGS)}

ROLES = ("lord", "loyalist", "rebel", "renegade")
ROLE_NAMES = ("主公", "忠臣", "反賊", "内奸")
IDENTITY_KIND = "身分"  # the seat label kind naming each seat's identity (state.seat_labels)
# Who wins together: the lord with the loyalists, the rebels, and each renegade on their own.
SIDES = (Side("主公側", ("主公", "忠臣")), Side("反賊", ("反賊",)), Side("内奸", ("内奸",), alone=True))
LORD, LOYALIST, REBEL, RENEGADE = range(4)

# -- actions: kind << 28 | a << 21 | b << 14 | c << 7 | d, operands below 127; NONE = 127 ------------
CODEC = ActionCodec(operands=4, bits=7)
NONE = 127
HAND = 126          # a PICK of "a hand card, at random" (the picker does not see the hand)
(PASS, GENERAL, USE, CONVERT, SKILL, RESPOND, TRIGGER, PICK, DISCARD, TARGET, OPTION, GIVE) = range(1, 13)
ACTION_KINDS = ("", "pass", "general", "use", "convert", "skill", "respond", "trigger", "pick", "discard", "target",
                "option", "give")
K_SHIFT = CODEC.kind_shift


_BITS, _MASK = CODEC.shift, CODEC.mask
_A, _B, _C = K_SHIFT - _BITS, K_SHIFT - 2 * _BITS, K_SHIFT - 3 * _BITS  # where operands a, b, c sit
A_SHIFT, B_SHIFT = _A, _B  # bulk option lists: act(kind, a, b) == act(kind, 0, 0) | a << A_SHIFT | b << B_SHIFT


def act(kind: int, a: int = NONE, b: int = NONE, c: int = NONE, d: int = NONE) -> Action:
    """Pack by hand with CODEC's layout (hot: every legal action is built here); NONE fills unused operands."""
    return kind << K_SHIFT | a << _A | b << _B | c << _C | d


def unpack(action: Action) -> tuple[int, int, int, int, int]:
    return action >> K_SHIFT, action >> _A & _MASK, action >> _B & _MASK, action >> _C & _MASK, action & _MASK


def first(action: Action) -> int:
    """The action's first operand: the card, general or seat most decisions name."""
    return action >> _A & _MASK


def second(action: Action) -> int:
    """The action's second operand (where a picked card lies, whom a card goes to…)."""
    return action >> _B & _MASK


PASS_ACTION = act(PASS)

# -- prompts: what the pending decision is about (code, a, b, c) ----------------------------------------
(P_GENERAL, P_PLAY, P_SHAN, P_SHA, P_TAO, P_WUXIE, P_TRIGGER, P_PICK, P_DISCARD, P_TARGET, P_OPTION, P_GIVE,
 P_WUGU, P_GUANXING, P_COST) = range(15)
# What a, b, c of each prompt are (a seat, a slug index, an effect index ...):
PROMPTS = {
    P_GENERAL: "choose a general (own options in the observation)",
    P_PLAY: "own play phase",
    P_SHAN: "閃 wanted: a = source, b = cause (card slug index), c = seat helped + 1 (護駕) or 0",
    P_SHA: "殺 wanted: a = opponent, b = cause (card slug index), c = seat helped + 1 (激将) or 0",
    P_TAO: "桃 wanted: a = dying seat, b = damage source (-1 none)",
    P_WUXIE: "無懈可撃 window: a = target, b = trick slug index, c = cancelled << 7 | user (127: none)",
    P_TRIGGER: "optional effect: a = effect index, b = seat concerned or 127, c = card",
    P_PICK: "pick a card: a = owner seat, b = 1 to take / 0 to discard, c = effect index",
    P_DISCARD: "discard: a = cards left to discard, b = reason (effect index or 0)",
    P_TARGET: "choose a player: a = effect index, b = context seat",
    P_OPTION: "choose an option: a = effect index, b = seat asking",
    P_GIVE: "give a card to a player (遺計)",
    P_WUGU: "五穀豊登: a = user",
    P_GUANXING: "観星: a = cards left; PICK(card, 0 top / 1 bottom)",
    P_COST: "choose cards to pay (制衡): a = effect index, b = chosen so far",
}
PROMPT_NAMES = ("general", "play", "shan", "sha", "tao", "wuxie", "trigger", "pick", "discard", "target", "option",
                "give", "wugu", "guanxing", "cost")

CLARIFICATIONS: tuple[Clarification, ...] = (
    Clarification("general-shortage",
                  "武将が足りず、主公以外の全員に指定枚数（3枚）ずつ配れないときは、残りの武将を均等に分けられる枚数ずつ配ります。",
                  "When too few generals remain to give every non-lord player the set number of choices (3), each "
                  "gets as many as divide the remaining generals evenly."),
    Clarification("ex-replace",
                  "EXカードを入れ替えて使うときは、同じスートとランクの2枚のうち、EXカードの表で左に書いたカードを抜きます。",
                  "Playing with the EX cards replacing base cards, each EX card replaces the first of the two base "
                  "cards of its suit and rank that its replaces field lists."),
    Clarification("dying-order",
                  "瀕死のときは、瀕死の人から席順に、生きている全員に「桃」を使うか尋ねます。",
                  "A dying player is offered 桃 by every living player in seat order, starting with the dying one."),
    Clarification("wuxie-order",
                  "無懈可撃は、手番の人から席順に、無懈可撃を持つ人に尋ねます。誰かが使えば、また最初から尋ねます。",
                  "無懈可撃 is offered in seat order from the turn player to those holding one; after one is played, "
                  "everyone is asked again."),
    Clarification("turn-death",
                  "手番の人が死亡したら、その手番はすぐに終わり、解決中のカードは捨て札になります。",
                  "When the turn player dies, the turn ends at once; cards being resolved go to the discard pile."),
    Clarification("shandian-pass",
                  "閃電が当たらなかったときは、次の席から、判定エリアに閃電のない生きている人に移ります。"
                  "誰も受け取れなければ元の人の判定エリアに残ります。",
                  "A 閃電 that misses moves to the next living player in seat order without a 閃電 in the judge "
                  "area; if nobody can take it, it stays."),
    Clarification("hand-pick-random",
                  "他人の手札を選ぶとき（過河拆橋、順手牽羊、反饋、突襲、寒氷剣、反間）は、裏向きのまま無作為の1枚になります。",
                  "Picking another player's hand card (過河拆橋, 順手牽羊, 反饋, 突襲, 寒氷剣, 反間) takes one at "
                  "random, unseen."),
    Clarification("guanxing-order",
                  "観星では、1枚ずつ「山札の上」か「山札の下」を選んで置きます。先に上に置いたカードほど下になります。",
                  "観星 places the cards one at a time on top or at the bottom; a card placed on top earlier ends "
                  "up below one placed later."),
    Clarification("fangtian-last",
                  "方天画戟の追加の目標は、最後の手札1枚で殺を使うときに、最初の目標の後で1人ずつ選びます。",
                  "方天画戟's extra targets are chosen one at a time after the first, when the 殺 is the last hand "
                  "card."),
    Clarification("luoyi-user",
                  "裸衣の+1は、許褚が使った殺と決闘で許褚がダメージを与えるときだけです。",
                  "裸衣's +1 applies only to 殺 and 決闘 that 許褚 used, when 許褚 deals the damage."),
    Clarification("lord-helpers",
                  "護駕・激将で頼まれた人は、頼んだ主公の次の席から順に1回ずつ、手札（または変換するスキル）から出すかを決めます。"
                  "頼まれた人の八卦陣は使えません。",
                  "Asked through 護駕 or 激将, the lord's kingdom answers once each in seat order after the lord, from "
                  "hand cards or converting skills; a helper's 八卦陣 cannot answer."),
    Clarification("jijiang-play",
                  "主公の劉備は、自分の出牌段階にも激将を使えます。攻撃範囲内の1人を選び、他の蜀のプレイヤーに席順で1人ずつ"
                  "「殺」を出すか尋ねます。出されたら劉備が使った「殺」としてその人に使い、1回の出牌段階に使える「殺」の数に"
                  "数えます。誰も出さなければ、その出牌段階にはもう激将で頼めません。",
                  "The lord 劉備 may use 激将 in his own play phase too: he names a player in his attack range and the "
                  "other 蜀 players are asked in seat order for a 殺, which he then uses on that player (it counts "
                  "towards his 殺 per play phase). If nobody plays one, he cannot ask again that play phase."),
    Clarification("liuli-range",
                  "流離で「殺」を移す相手は、カードを捨てる前の大喬の攻撃範囲の中から選びます。",
                  "流離's new target is chosen within 大喬's attack range before the card is discarded."),
    Clarification("yiji-give",
                  "遺計では、ダメージ1点ごとに山札の上2枚を1枚ずつ、自分を含む好きな人に渡します。",
                  "遺計: for each point of damage, the top two cards are given one at a time to any players, "
                  "oneself included."),
)


@dataclass(frozen=True)
class SanguoshaRules:
    """The numeric rules of game.json "rules"; the schema (schema/rules/sanguosha.schema.json) checks them first."""

    identity_table: Mapping[int, tuple[int, int, int, int]]   # players -> lord, loyalist, rebel, renegade
    start_hand: int = 4
    draw_per_turn: int = 2
    lord_extra_hp: int = 1
    lord_extra_hp_min_players: int = 5
    lord_choices_random: int = 2
    general_choices: int = 3
    rebel_kill_draw: int = 3
    sha_per_turn: int = 1
    ex_cards: str = "none"

    @classmethod
    def from_mapping(cls, rules: Mapping[str, Any]) -> SanguoshaRules:
        table = dict(rule(rules, "identity_table", dict, GAME))
        variant = str(rules.get("identity_variant", "standard"))
        if variant != "standard":
            variants = rules.get("identity_variants", {})
            if variant not in variants:
                raise ValueError(f"{GAME}: identity_variant {variant!r} is not among identity_variants")
            table.update(variants[variant]["table"])
        roles: dict[int, tuple[int, int, int, int]] = {}
        for k, v in table.items():
            lord, loyal, rebel, renegade = (int(v.get(role, 0)) for role in ROLES)
            roles[int(k)] = (lord, loyal, rebel, renegade)
        for players, counts in roles.items():
            if sum(counts) != players or counts[LORD] != 1:
                raise ValueError(f"{GAME}: identity_table {players}: {counts} is not one lord and {players} seats")
        ints = {key: rule(rules, key, int, GAME) for key in (
            "start_hand", "draw_per_turn", "lord_extra_hp", "lord_extra_hp_min_players", "lord_choices_random",
            "general_choices", "rebel_kill_draw", "sha_per_turn") if key in rules}
        ex = str(rules.get("ex_cards", "none"))
        if ex not in ("none", "replace", "add"):
            raise ValueError(f"{GAME}: ex_cards must be none, replace or add, not {ex!r}")
        return cls(roles, ex_cards=ex, **ints)


def distance(seats_alive: Sequence[Seat], source: Seat, target: Seat, minus_horse: int = 0, plus_horse: int = 0) -> int:
    """Seats between `source` and `target` around the table, counting only `seats_alive` (in seat order),
    the shorter way; minus the measurer's −1 horses, plus the target's +1 horses; never below 1."""
    if source == target:
        return 0
    n = len(seats_alive)
    gap = abs(seats_alive.index(source) - seats_alive.index(target))
    return max(1, min(gap, n - gap) - minus_horse + plus_horse)


@dataclass(frozen=True)
class SanguoshaObservation:
    """One seat's view: its own hand and identity, the public table, the pending decision."""

    game_name: str
    seat: Seat
    role: int                               # own identity (ROLES index)
    roles: tuple[int, ...]                  # known identities: the lord, the dead, oneself; -1 unknown
    generals: tuple[int, ...]               # general index per seat, -1 while unknown
    general_options: tuple[int, ...]        # the generals this seat may choose (setup only)
    hp: tuple[int, ...]
    max_hp: tuple[int, ...]
    alive: tuple[bool, ...]
    hand: tuple[int, ...]
    hand_counts: tuple[int, ...]
    equipment: tuple[tuple[int, ...], ...]  # per seat: weapon, armour, +1 horse, −1 horse (card id or -1)
    judge_areas: tuple[tuple[int, ...], ...]
    deck_size: int
    turn_player: Seat
    sha_used: int
    prompt: tuple[int, int, int, int]       # (P_* code, a, b, c); see PROMPTS
    card_kinds: tuple[int, ...]             # card id -> CARD_SLUGS index (public card table)
    card_suits: tuple[int, ...]
    card_ranks: tuple[int, ...]
    distances: tuple[int, ...]              # from this seat to each seat (0 for itself and the dead)
    attack_range: int
    hostility: tuple[int, ...]              # public record per seat: damage to the lord and his defenders minus
    #                                         damage to those who attacked him (known roles only; nothing hidden)
    general_hp: tuple[int, ...]             # general index -> printed HP (public table)
    discard: tuple[int, ...]                # the discard pile, bottom first (every card on it went face up)
    processing: tuple[int, ...]             # cards being used, played or judged, face up
    turns: int                              # turns begun so far (0 while generals are chosen)
    deciding: bool                          # whether the pending decision (prompt) is this seat's own
    step: int                               # actions applied before this view was taken
    game: SanguoshaGame = field(repr=False, compare=False)  # the immutable rules game (for determinize)
    # The state this view was taken from, read by determinize.py alone: it keeps what the seat has seen
    # and deals everything else anew (policies read only the fields above).
    source: SanguoshaState = field(repr=False, compare=False)


def encode_general(index: int) -> Action:
    return act(GENERAL, index)


__all__ = ["CLARIFICATIONS", "CODEC", "SanguoshaObservation", "SanguoshaRules", "act", "distance", "unpack"]
