#!/usr/bin/env bash
# Plays Springboard in the real XBoard (Debian's xboard 4.9.1) under Xvfb:
# a Two Machines game of each variant XBoard can show and special moves entered
# by mouse (docs/xboard.md), checked by scripts/xboard_test.py. Installs xboard,
# xvfb, xdotool, xclip and imagemagick if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
[ -x /usr/games/xboard ] || need+=(xboard)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
command -v xclip >/dev/null || need+=(xclip)
command -v import >/dev/null || need+=(imagemagick)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The binary of the test build (the test profile: optimised, with debug
# assertions), which scripts/test.sh has built already: no second build.
cargo test --workspace --no-run -q
out="${XBOARD_TEST_OUT:-target/xboard-test}"
# No Two Machines game of Hoplit Chess: XBoard 4.9.1 cannot show a drop's
# pawn step (docs/xboard.md); its promotion to a Hoplit is entered by mouse.
python3 scripts/xboard_test.py "$PWD/target/debug/springboard" "$out" \
  normal hopchess trampoline jumpingking hoplit
