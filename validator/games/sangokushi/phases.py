"""sangokushi's decision phases: which question the state is waiting on (OVER once the game has ended)."""
from __future__ import annotations

(OVER, TURN, PAY_P, ATTACK_P, DEFEND_P, DAMAGE_P, CAPTURE_P, SHED_P, RECOVER_P, RESTORE_P, RECRUIT_P, DRAW_P,
 DISMISS_P) = range(13)

END_TARGET, END_LORD, END_STALEMATE, END_ROUNDS = "target", "lord-death", "stalemate", "rounds"
END_COUNTERS = {END_TARGET: "end_target", END_LORD: "end_lord", END_STALEMATE: "end_stalemate",
                END_ROUNDS: "end_rounds"}
