#!/usr/bin/env bash
# The levels' ladder of one game (docs/engine.md, "The levels' ratings"):
# matches between skill levels a few apart and between the weakest level and
# the 1-ply material player (`uci --player material1`), each headed by a
# line that `springboard levels` reads. Appends to LOG.
#
#   bash scripts/level-ladder.sh --variant hopchess --games 20 --log hopchess.log \
#       [--sb BINARY] [--tc 5+0.05 | --page-time] [--pairs "m:0 0:4 4:8 8:12 12:16 16:20"]
#
# --page-time plays each skill at the play page's own time a move instead of
# a clock: level L = skill L-1 thinks 200 + 90 (L-1) ms
# (crates/springboard/src/web_engine.rs, `think_ms`); the material player
# answers at once either way.
#
# A pair "A:B" plays skill A (engine1) against skill B; "m" is the material
# player. The games start from the game's opening suite (built in), each
# position with both colours.
set -euo pipefail
SB=target/release/springboard
VARIANT=chess
GAMES=20
TC=5+0.05
LOG=
PAIRS="m:0 0:4 4:8 8:12 12:16 16:20"
SEED=1
PAGE_TIME=
while [ $# -gt 0 ]; do
  case $1 in
    --sb) SB=$2; shift 2 ;;
    --variant) VARIANT=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --tc) TC=$2; shift 2 ;;
    --page-time) PAGE_TIME=1; shift ;;
    --log) LOG=$2; shift 2 ;;
    --pairs) PAIRS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$LOG" ] || { echo "--log FILE is needed" >&2; exit 2; }
SB=$(realpath "$SB")

side() { # the engine command and option of a player: "m" or a skill
  if [ "$1" = m ]; then
    echo "$SB uci --player material1"
  else
    echo "$SB uci"
  fi
}
name() { if [ "$1" = m ]; then echo material1; else echo "skill $1"; fi; }
think_ms() { if [ "$1" = m ]; then echo 1; else echo $((200 + 90 * $1)); fi; }

for pair in $PAIRS; do
  a=${pair%%:*}; b=${pair##*:}
  args=(--engine1 "$(side "$a")" --engine2 "$(side "$b")")
  [ "$a" = m ] || args+=(--option1 "Skill Level=$a")
  [ "$b" = m ] || args+=(--option2 "Skill Level=$b")
  if [ -n "$PAGE_TIME" ]; then
    args+=(--movetime1 "$(think_ms "$a")" --movetime2 "$(think_ms "$b")")
    tc="page time $(think_ms "$a")/$(think_ms "$b") ms"
  else
    args+=(--tc "$TC")
    tc="tc $TC"
  fi
  echo "=== $(name "$a") vs $(name "$b"), $GAMES games, $VARIANT, $tc, seed $SEED" | tee -a "$LOG"
  "$SB" match "${args[@]}" --variant "$VARIANT" --games "$GAMES" --seed "$SEED" 2>&1 | tee -a "$LOG" | grep -E "^engine1|Elo" || true
done
