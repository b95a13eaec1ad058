"""漢字と家紋の戦国武将 (sengoku): rule settings, clarifications, the action encoding and the observation."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine.actions import ActionCodec
from ...engine.api import Action, Clarification, Seat, rule

if TYPE_CHECKING:
    from .state import SengokuGame

OVER = 0  # phase once the game has ended; otherwise the phase is the kind of the pending decision

CLARIFICATIONS: tuple[Clarification, ...] = (
    Clarification("identical-cards",
                  "同じ漢字の漢字1文字カードはどれも同じカード、同じ家の名字カードもどれも同じカードとして扱います。"
                  "名字カード1枚と下の名前の漢字2枚がそろえば、どの武将のカードから来たかに関係なく名前が完成します。",
                  "Given-name cards of the same kanji are the same card in play, as are surname cards of the same "
                  "family: a family's surname card and the two kanji of one of its warlords complete that name, "
                  "whichever warlords' cards they were printed for."),
    Clarification("max-players",
                  "手札×人数が120枚より少なく、山札が残る人数まで遊べます（12枚なら9人、9枚なら13人）。"
                  "箱の表示は2〜6人です。",
                  "Any number of players may play while hand size × players leaves a draw pile (120 cards: 9 "
                  "players with 12 cards, 13 with 9); the box says 2-6."),
    Clarification("reveal-mandatory",
                  "基本ルールでは、自分の手番で山札から引いた後、完成している名前をすべて1つずつ公開します。"
                  "同じカードで複数の名前が作れるときは、どれを公開するかを選びます。配られた手札で完成している名前は、"
                  "最初の手番で公開します。",
                  "In the base rule every completed name is laid out in the player's own turn, after drawing, one "
                  "at a time; when the cards could make several names the player chooses which. Names complete "
                  "in the dealt hand are laid out on the holder's first turn."),
    Clarification("discard-any",
                  "捨てるカードは手札のどれでもかまいません（引いたばかりのカードも可）。"
                  "捨て札は横取りされない限り場に残り、"
                  "山札に戻しません。",
                  "Any hand card may be discarded, the card just drawn included. Discards not stolen stay out of "
                  "play (never reshuffled into the draw pile)."),
    Clarification("steal-complete",
                  "横取りは、手札の2枚と捨て札で名前が完成するときだけできます。横取りした人はその名前をすぐ公開し"
                  "（アナザールールでも「鳴き」として公開）、手札から1枚捨てます。",
                  "A discard may be taken only to complete a name with two hand cards; the stealer lays that name "
                  "out at once (in the riichi variant too, like 鳴き) and discards one card."),
    Clarification("steal-order",
                  "同時に「横取り!」と言ったときは、捨てた人の次の席から順に優先します。"
                  "シミュレーションでは、横取りできる人に捨てた人の次の席から順に尋ね、最初に取ると答えた人が取ります。"
                  "",
                  "Simultaneous claims are settled by seat order starting after the discarder: the engine asks the "
                  "players able to steal in that order, and the first to claim takes the card."),
    Clarification("steal-chain",
                  "横取りした人が捨てたカードも、その人以外の全員（最初に捨てた人も含む）が横取りできます。"
                  "その後に山札から引くのは、横取りの前と同じく元の手番の人の次の人です。",
                  "The stealer's discard may be stolen in turn by anyone but the stealer (the first discarder "
                  "included); the next draw still belongs to the player after the original turn player."),
    Clarification("pile-end",
                  "山札の最後の1枚を引いた人が捨て、その捨て札の横取りがすべて終わった時点でゲーム終了です。",
                  "The game ends when the last card of the draw pile has been drawn and discarded and the steal "
                  "windows after it have closed (the next player would have to draw from an empty pile)."),
    Clarification("zero-out",
                  "基本ルールでは、手札がゼロになった人はそこで上がり、以後は引くことも横取りすることもありません。"
                  "ゼロになった順を記録します。手札の残る人が1人以下になったら、その時点でゲーム終了です。",
                  "In the base rule a player whose hand reaches zero is out: no more draws or steals. The order in "
                  "which players reach zero is recorded; the game ends early once at most one player holds cards."),
    Clarification("tie-break",
                  "手札の枚数が同じ人同士は、(1)漢字1文字カードの枚数が同じなら家紋の合計が少ない人、"
                  "(2)違うなら多い人が"
                  "家紋の少ないカードから相手と同じ枚数を選び、家紋の合計が少ない人が上位です。"
                  "それでも同じなら同順位です。"
                  "3人以上が同じ枚数のときは、2人ずつ比べて勝った数の多い順に並べます。",
                  "Equal card counts: (1) with equal numbers of given-name cards, fewer crests in total ranks "
                  "higher; (2) with different numbers, the player with more given-name cards keeps the ones with "
                  "the fewest crests down to the other's count, then crest totals are compared. Still equal: a "
                  "shared place. Three or more tied players are compared in pairs and ordered by pairs won."),
    Clarification("trade",
                  "トレードルールは遊ぶ人同士で決める任意ルールなので、シミュレーションではトレードなしで遊びます。",
                  "The trade rule is optional and its details are left to the players; the simulation plays "
                  "without trades."),
    Clarification("riichi-declare",
                  "アナザールールのリーチは、捨てた後（または配られた時点で）"
                  "あと1枚ですべて完成する手札になったとき自動で"
                  "宣言したものとし、宣言は取り消されません。",
                  "In the riichi variant riichi is declared automatically as soon as a hand is one card from "
                  "complete, after a discard or on the deal; the declaration stands for the rest of the game."),
    Clarification("riichi-win",
                  "アナザールールでは、リーチした人が山札から引いたか横取りした後、1枚を除く手札がすべて名前になれば、"
                  "すべて公開して最後の1枚を捨て、手札ゼロでその時点で勝ちです（ゲーム終了）。",
                  "In the riichi variant a player in riichi whose hand, after drawing or stealing, is all names but "
                  "one card lays everything out, discards the last card and wins at once with an empty hand "
                  "(the game ends)."),
    Clarification("riichi-draw",
                  "アナザールールで誰も上がらずに山札が尽きたら流局（引き分け）です。設定で順位をつける場合は、"
                  "各自の手札から完成している名前をできるだけ多く除き（除き方が複数あれば、その人に最も有利な除き方）、"
                  "残りに本来の勝敗の決め方を使います。",
                  "In the riichi variant, the pile running out with no winner is a draw (流局). With the ranked "
                  "option, each hand drops as many completed names as it holds (of several ways, the best one for "
                  "its holder) and the base ranking applies to the cards left."),
)


@dataclass(frozen=True)
class SengokuRules:
    """Rule settings from game.json "rules" (variant and options have defaults)."""

    hand_size: int
    name_size: int
    variant: str = "base"          # "base" | "riichi"
    riichi_draw: str = "draw"      # "draw" (流局 shared by all) | "ranked" (base ranking on what is left)

    @classmethod
    def from_mapping(cls, rules: Mapping[str, Any]) -> SengokuRules:
        hand_size = rule(rules, "hand_size", int, "sengoku")
        name_size = rule(rules, "name_size", int, "sengoku")
        if hand_size <= 0 or hand_size % name_size:
            raise ValueError(f"sengoku: hand_size {hand_size} must be a positive multiple of {name_size}")
        if name_size != 3:
            raise ValueError(f"sengoku: the engine plays names of 3 cards, not {name_size}")
        variant = str(rules.get("variant", "base"))
        riichi_draw = str(rules.get("riichi_draw", "draw"))
        if variant not in ("base", "riichi"):
            raise ValueError(f"sengoku: rules variant must be 'base' or 'riichi', got {variant!r}")
        if riichi_draw not in ("draw", "ranked"):
            raise ValueError(f"sengoku: rules riichi_draw must be 'draw' or 'ranked', got {riichi_draw!r}")
        return cls(hand_size, name_size, variant, riichi_draw)


# Actions are ints laid out by one ActionCodec: kind << 8 | x, x a warlord (name) index or a card type.
REVEAL, DISCARD, STEAL, PASS = range(1, 5)
ACTION_KINDS = ("", "reveal", "discard", "steal", "pass")
CODEC = ActionCodec(1, 8)
KIND_SHIFT, MASK = CODEC.kind_shift, CODEC.mask  # for hot loops; everything else calls encode/decode
PASS_ACTION: Action = CODEC.encode(PASS)


def encode(kind: int, x: int = 0) -> Action:
    return CODEC.encode(kind, x)


def decode(action: Action) -> tuple[int, int]:
    """(kind, x) of an action."""
    return action >> KIND_SHIFT, action & MASK


@dataclass(frozen=True)
class SengokuObservation:
    """One seat's view: its own hand, everyone's laid-out names, hand sizes, discards, riichi flags."""

    game_name: str
    game: SengokuGame                          # the rules and the name table
    seat: Seat
    phase: int                                 # the kind of decision pending (REVEAL, DISCARD, STEAL)
    hand: tuple[int, ...]                      # own card types, sorted
    hand_sizes: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]         # seat -> names laid out (warlord indices)
    discards: tuple[int, ...]                  # card types in the discard pile, oldest first
    live: int                                  # the card type open to a steal, -1 if none
    pile: int                                  # cards left in the draw pile
    riichi: tuple[bool, ...]
    zero_order: tuple[Seat, ...]
    # Public history a search needs to deal a position (determinize.py): who started, whose turn it is
    # (the next draw is the seat after it), who discarded the live card (a steal window asks the seats
    # after it), the seats that have drawn or stolen (base rule: they laid out every name they had, so
    # their hands hold none) and the steals made.
    first_player: Seat
    turn_player: Seat
    discarder: Seat                            # the seat whose discard is live, -1 if none
    clean: tuple[bool, ...]
    steals: int
