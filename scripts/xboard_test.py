#!/usr/bin/env python3
"""Plays Springboard in the real XBoard under Xvfb and checks the games.

For every variant: a Two Machines game (springboard against springboard)
to its end. XBoard's debug file must show no illegal-move claim, no
forfeit and a real result, and XBoard's final position (its
-savePositionFile) must equal the engines' own (the `# final position`
line each engine writes on `result`). Screenshots of each board in mid
game go to the output directory. See docs/xboard.md.

Usage: xboard_test.py ENGINE OUTDIR [VARIANT...]
"""
import os
import re
import subprocess
import sys
import time

XBOARD = "/usr/games/xboard"
ENGINE = None
VARIANTS = ["hopchess", "trampoline", "jumpingking", "hoplit"]


def board_of(fen):
    """The board and sorted holdings of an XBoard FEN."""
    placement = fen.split()[0]
    board, _, hand = placement.partition("[")
    # XBoard writes empty holdings as "[-]".
    hand = "".join(sorted(hand.rstrip("]").replace("-", "")))
    # Expand digits so that different run-length forms compare equal.
    rows = []
    for row in board.split("/"):
        rows.append(re.sub(r"\d+", lambda m: "1" * int(m.group()), row))
    return "/".join(rows), hand


def start_xvfb(display):
    proc = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1280x1024x24"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.5)
    return proc


def screenshot(display, path):
    subprocess.run(
        ["import", "-display", display, "-window", "root", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        timeout=30,
    )


def two_machines(engine, variant, outdir, display):
    debug = os.path.join(outdir, f"{variant}.debug")
    pgn = os.path.join(outdir, f"{variant}.pgn")
    fenfile = os.path.join(outdir, f"{variant}.fen")
    for f in (debug, pgn, fenfile):
        if os.path.exists(f):
            os.remove(f)
    cmd = [
        XBOARD,
        "-debug", "-debugfile", debug,
        "-fcp", f"{engine} xboard",
        "-scp", f"{engine} xboard",
        "-variant", variant,
        "-mg", "1",
        "-tc", "5", "-inc", "0",
        "-depth", "2",
        "-testLegality", "false",
        "-sgf", pgn,
        "-spf", fenfile,
        "-popupExitMessage", "false",
        "-autoCallFlag", "true",
        "-adjudicateDrawMoves", "160",
    ]
    env = dict(os.environ, DISPLAY=display)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shot = os.path.join(outdir, f"{variant}-twomachines.png")
    shot_taken = False
    deadline = time.time() + 150
    while proc.poll() is None and time.time() < deadline:
        time.sleep(0.5)
        if not shot_taken and os.path.exists(debug):
            with open(debug, errors="replace") as f:
                log = f.read()
            if log.count(": move ") >= 10:
                screenshot(display, shot)
                shot_taken = True
    if proc.poll() is None:
        proc.kill()
        proc.wait()
        return [f"{variant}: XBoard did not finish the game in time"]
    return check(variant, debug, fenfile)


def check(variant, debug, fenfile):
    errors = []
    with open(debug, errors="replace") as f:
        log = f.read()
    for line in log.splitlines():
        if re.search(r"<(first|second)\s*: Illegal move", line) or "Forfeit" in line or "Illegal move \"" in line:
            errors.append(f"{variant}: {line.strip()}")
    ends = [e for e in re.findall(r"GameEnds\((\d+), ([^,]*),", log) if e[0] != "0"]
    if not ends:
        errors.append(f"{variant}: no GameEnds in the debug file")
    elif ends[0][1] in ("xboard exit", "(null)") or "abort" in ends[0][1].lower():
        errors.append(f"{variant}: the game did not end with a result: {ends[0][1]}")
    # The engine's view: the moves the two engines played, replayed in a
    # fresh session; `result` makes it write its final position.
    moves = re.findall(r"<(?:first|second)\s*: move (\S+)", log)
    script = "xboard\nprotover 2\nvariant %s\nforce\n" % variant
    script += "".join(f"usermove {m}\n" for m in moves) + "result *\nquit\n"
    out = subprocess.run([ENGINE, "xboard"], input=script, capture_output=True, text=True, timeout=60).stdout
    for line in out.splitlines():
        if line.startswith("Illegal move") or line.startswith("Error"):
            errors.append(f"{variant}: replay: {line}")
    finals = re.findall(r"# final position (.*)", out)
    if not finals:
        errors.append(f"{variant}: the engine wrote no final position")
    if not os.path.exists(fenfile):
        errors.append(f"{variant}: XBoard saved no final position")
    else:
        with open(fenfile) as f:
            xb = f.read().strip().splitlines()[-1]
        for fen in finals:
            if board_of(fen) != board_of(xb):
                errors.append(f"{variant}: XBoard's final position {xb} != the engine's {fen}")
    result = ends[0][1] if ends else "?"
    moves = log.count("<first : move ") + log.count("<second: move ")
    print(f"{variant}: {moves} moves, {result}; XBoard's final position matched: {not errors}")
    return errors


def main():
    global ENGINE
    engine, outdir = sys.argv[1], sys.argv[2]
    ENGINE = engine
    variants = sys.argv[3:] or VARIANTS
    os.makedirs(outdir, exist_ok=True)
    display = ":%d" % (90 + os.getpid() % 9)
    xvfb = start_xvfb(display)
    errors = []
    try:
        for v in variants:
            errors += two_machines(engine, v, outdir, display)
    finally:
        xvfb.kill()
    for e in errors:
        print("FAIL", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
