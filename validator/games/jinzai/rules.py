"""人材登用 (jinzai): rule numbers, clarifications, the action encoding and the observation shared with policies.

Everything here is data both the state and the policies read; the rules themselves are in state.py
(legal actions and transitions) and scoring.py (points and victory points).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ...engine.actions import ActionCodec
from ...engine.api import Action, Clarification, Seat, rule

CLARIFICATIONS: tuple[Clarification, ...] = (
    Clarification("type-of-1-2",
                  "1と2の牌はどちらも文官（赤）です。文官{1,2,4,7}と武官{3,5,6}の数字の合計はともに14です。",
                  "Tiles 1 and 2 are both 文官 (red): 文 {1,2,4,7} and 武 {3,5,6} each sum to 14; game.json rules "
                  "type_of_number and the tiles' type field hold the assignment."),
    Clarification("pool-side",
                  "文官牌と武官牌が両方あるときは、それぞれの数字の合計を比べます（種の例2、"
                  "文7と武3・武5では7対8で武官スペース）。合計が同じなら、いちばん大きい数字の牌の側に置きます。"
                  "トリックスターは数えません。トリックスターだけのときは文官スペースに置きます。",
                  "With both types in the pool, compare the sums of their numbers (the seed's example 2, 文7 "
                  "against 武3 and 武5, is 7 to 8: 武官 space). Equal sums: the side of the highest single number. "
                  "Tricksters add nothing; tricksters only go on the 文官 space."),
    Clarification("pool-fixed",
                  "人材牌の置き場所はラウンドの初めに決まり、そのラウンド中に牌が減っても動きません。",
                  "The space is fixed when the pool is placed at the start of a round; tiles leaving the pool "
                  "during the round do not move it."),
    Clarification("setup-hidden",
                  "配置の3個は、スタートプレイヤーから順に各自が3個を伏せて選んだものとして扱い、"
                  "全員が選び終えてから公開します。",
                  "The simultaneous choice of 3 public tiles is modelled as hidden picks, each player choosing all "
                  "three in turn from the start player, revealed together once everyone has chosen."),
    Clarification("trickster-column",
                  "トリックスターを獲得牌に加えるときは、持ち主が牌のある列の一番上に置きます。"
                  "牌のある列がひとつもなければ、好きな列に置きます（その列は無いものとして扱います）。",
                  "A trickster joining public tiles goes on top of a non-empty column its owner chooses; with no "
                  "non-empty column, on any column (which then counts as absent)."),
    Clarification("bid-from-public",
                  "獲得牌から供出するときは、いずれかの列の一番上の牌を出します。その後、手牌1個を獲得牌に加えます。",
                  "Putting out a public tile means the top tile of a column; then one hand tile joins the public "
                  "tiles."),
    Clarification("forced-duplicate",
                  "出さざるを得ず同じ牌を出したときは、その牌の効果は発動せず、4位（最下位）扱いです。"
                  "出せる牌が他にあるときは同じ牌を出せません。",
                  "A forced duplicate (every option matches a tile already put out this round) has no effect and "
                  "ranks last; a duplicate is illegal while any other option exists."),
    Clarification("next-start-player",
                  "次のスタートプレイヤーは、*を出したプレイヤー、"
                  "いなければ最初に同じ牌を出さざるを得なかったプレイヤー、それもいなければ最下位のプレイヤーです。",
                  "The next start player is whoever put out a *; otherwise the first forced duplicate; otherwise "
                  "the last-ranked player."),
    Clarification("trickster-rank",
                  "判定では、*は数字を持たないので、数字の牌を出した全員より下の順位になります（2の牌は2位）。",
                  "In judging a * has no number and ranks below every numbered tile (a 2 still takes 2nd)."),
    Clarification("rotate",
                  "1の効果：文官の数字を1つ選び、その数字の牌を持つプレイヤー全員が、"
                  "その列の牌（その数字の牌すべて）を、"
                  "選んだ方向（時計回りか反時計回り）で次にその数字の牌を持つプレイヤーへ渡します。"
                  "受け取った牌は列の一番上に置きます。列に残ったトリックスターは動きません。"
                  "持つ人が2人未満の数字は選べず、選べる数字がなければ効果はありません。",
                  "The 1: choose a 文官 number and a direction; every player holding tiles of that number passes "
                  "all of them to the next holder of that number in that direction (clockwise or "
                  "counter-clockwise); received tiles go on top of that column; tricksters in it stay. Only numbers "
                  "held by two or more players may be chosen; with none, the 1 has no effect."),
    Clarification("give",
                  "3の効果：自分のいずれかの列の一番上の牌1個を、"
                  "他のプレイヤー1人の獲得牌に加えます（*なら渡す側が列を選びます）。"
                  "獲得牌がなければ効果はありません。",
                  "The 3: the top tile of one of one's columns goes to another player's public tiles (for a * the "
                  "giver chooses the column); with no public tile, no effect."),
    Clarification("trickster-take",
                  "*の効果：在野の人材牌が残っていれば1個を選んで獲得牌に加えます。",
                  "The *: if the pool still holds tiles, take one of them (player's choice) into one's public tiles."),
    Clarification("acquire",
                  "獲得では、在野の人材牌すべてか、自分以外のプレイヤーが出した残りの供出牌1個を取ります。"
                  "在野が空なら供出牌を取ります。",
                  "Acquiring takes the whole pool or one remaining tile another player put out; an empty pool "
                  "cannot be taken."),
    Clarification("vp-ranking",
                  "合計の順位は同点を同順位とし、次の順位を飛ばします（例：1位が2人なら次は3位）。"
                  "「文または武のどちらかのみ」は、"
                  "数える列に文官と武官の両方がないとき（列がひとつもないときも）−1です。",
                  "Totals rank with ties sharing a place and skipping the next (1,1,3,4). The one-type penalty "
                  "applies unless the counted columns include both a 文官 and a 武官 number (none counts too)."),
    Clarification("next-game",
                  "次のゲームは、直前のゲームの4ラウンド目でSPになったプレイヤーから始めます。"
                  "シミュレーションでは12ゲームで決着しなければ勝利点の多い人の勝ちとします（同じなら最後のゲームの合計1位の人、"
                  "それも同じなら分かち合い）。",
                  "The next game starts with the player who became start player after round 4 of the last game. "
                  "Simulation only: after 12 games without a winner, the most VP win (then the last game's top "
                  "total, else shared)."),
)


def counted_kinds(counts: Sequence[int]) -> tuple[int, ...]:
    """Kinds given as counts per kind, listed in kind order (each repeated by its count)."""
    return tuple(kind for kind, count in enumerate(counts) for _ in range(count))


class PublicRecord(NamedTuple):
    """The public bookkeeping of a match beyond what the heuristic reads, so that a search can rebuild the
    whole table from one seat's view (determinize.py). Nothing in it is hidden from any seat. A NamedTuple,
    one field of the observation: a frozen dataclass pays a setattr per field, and the greedy heuristic
    builds an observation per decision."""

    stage: int                                    # SETUP, BIDDING, ACQUIRING, OVER or SCORING (state.py)
    step: int                                     # picks, bids or acquisitions made in this stage
    start: Seat                                   # this round's start player
    next_start: Seat                              # the next round's, once judged
    star_seat: Seat                               # who put out a * (not a duplicate) this round, -1 if none
    dup: tuple[bool, ...]                         # seat -> its bid this round was a forced duplicate
    out: int                                      # mask of the kinds put out this round
    pending: tuple[tuple[Seat, Seat], ...]        # tricksters awaiting a column: (chooser, owner)
    effect: int                                   # an effect awaiting its choice (an action kind), 0 if none
    effect_seat: Seat
    rotatable: tuple[int, ...]                    # the numbers a pending 1 may rotate
    due: bool                                     # judging or scoring waits for pending choices
    may_hold: tuple[int, ...]                     # seat -> kinds its hand may hold, as forced duplicates showed
    games_played: int
    turns: int
    game_totals: tuple[tuple[int, ...], ...]      # each finished game's totals
    events: tuple[int, ...]                       # forced duplicates, pools taken, rotations, gifts, 2s put out


@dataclass(frozen=True, slots=True)
class JinzaiObservation:
    """One seat's view: own hand (and hidden picks), everyone's columns, the pool, this round's bids.

    Kept as the state keeps them (counts per kind, column stack codes: see columns.py) so that building
    one per decision is cheap for the greedy heuristic; the properties give the readable forms.
    """

    game_name: str
    game: Any                                     # the JinzaiGame (rules, tile table, column codes)
    seat: Seat
    phase: int
    hand_counts: tuple[int, ...]                  # own hand: kind -> count
    picked_counts: tuple[int, ...]                # own hidden setup picks: kind -> count
    codes: tuple[tuple[int, ...], ...]            # seat -> column -> stack code
    pool_counts: tuple[int, ...]                  # kind -> count
    pool_side: int
    bids: tuple[int, ...]                         # seat -> kind put out, -1 if none yet / taken
    bidders_left: int
    round: int
    vp: tuple[int, ...]
    places: tuple[Seat, ...]                      # acquiring order once judged
    star_owner: Seat                              # whose sheet a pending trickster goes on
    public: PublicRecord                          # the rest of the table everyone sees

    @property
    def hand(self) -> tuple[int, ...]:
        return counted_kinds(self.hand_counts)

    @property
    def picked(self) -> tuple[int, ...]:
        return counted_kinds(self.picked_counts)

    @property
    def pool(self) -> tuple[int, ...]:
        return counted_kinds(self.pool_counts)

    @property
    def columns(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """seat -> column -> kinds bottom to top."""
        kinds = self.game.codes.kinds
        return tuple(tuple(kinds(c, code) for c, code in enumerate(seat)) for seat in self.codes)


@dataclass(frozen=True)
class JinzaiRules:
    """Rule numbers from game.json "rules"."""

    hand_size: int
    public_at_setup: int
    rounds: int
    pool_size: int
    vp_to_win: int
    max_games: int
    three_player_removed_numbers: tuple[int, ...]

    @classmethod
    def from_mapping(cls, rules: Mapping[str, Any]) -> JinzaiRules:
        ints = {name: rule(rules, name, int, "jinzai") for name in
                ("hand_size", "public_at_setup", "rounds", "pool_size", "vp_to_win", "max_games")}
        removed = tuple(int(n) for n in rule(rules, "three_player_removed_numbers", list, "jinzai"))
        return cls(**ints, three_player_removed_numbers=removed)


# Actions are ints packed by the shared codec: kind << 12 | x << 6 | y (ActionCodec(2, 6)).
CODEC = ActionCodec(2, 6)
PICK, STAR, BID_HAND, BID_PUBLIC, STAR_TAKE, ROTATE, GIVE, TAKE_POOL, TAKE_BID = range(1, 10)
ACTION_KINDS = ("", "pick", "place-star", "bid-hand", "bid-public", "star-take", "rotate", "give",
                "take-pool", "take-bid")


def encode(kind: int, x: int = 0, y: int = 0) -> Action:
    return CODEC.encode(kind, x, y)


def decode(action: Action) -> tuple[int, int, int]:
    """(kind, x, y) of an action."""
    kind, x, y = CODEC.decode(action)
    return kind, x, y


def kind_label(type_of: tuple[str, ...], kind: int) -> str:
    """文7, 武3 or * for a tile kind."""
    return "*" if kind == 0 else f"{type_of[kind]}{kind}"


def describe(type_of: tuple[str, ...], action: Action) -> str:
    """An action in Japanese, for logs and transcripts."""
    kind, x, y = decode(action)

    def name(k: int) -> str:
        return kind_label(type_of, k)
    if kind == PICK:
        return f"配置: {name(x)}を獲得牌に選ぶ"
    if kind == STAR:
        return f"*を{x + 1}の列に置く"
    if kind == BID_HAND:
        return f"供出: 手牌の{name(x)}"
    if kind == BID_PUBLIC:
        return f"供出: {x + 1}の列の一番上、手牌の{name(y)}を獲得牌へ"
    if kind == STAR_TAKE:
        return f"*の効果: 在野の{name(x)}を獲る"
    if kind == ROTATE:
        return f"1の効果: 文{x}を{'時計回り' if y == 0 else '反時計回り'}に廻す"
    if kind == GIVE:
        return f"3の効果: {x + 1}の列の一番上をP{y + 1}へ"
    if kind == TAKE_POOL:
        return "獲得: 在野の人材牌すべて"
    if kind == TAKE_BID:
        return f"獲得: P{x + 1}の供出牌"
    return f"?{action}"
