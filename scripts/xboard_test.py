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
import concurrent.futures
import os
import re
import subprocess
import sys
import threading
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


def xboard_env(display, outdir):
    return dict(os.environ, DISPLAY=display)


# Debian's xboard.conf saves the settings to ~/.xboardrc on exit (XBoard
# finds ~ in the password file, not $HOME): the tests must not.
NO_SAVE = ["-saveSettingsOnExit", "false"]


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
        "-popupExitMessage", "false", *NO_SAVE,
        "-autoCallFlag", "true",
        "-adjudicateDrawMoves", "160",
    ]
    env = xboard_env(display, outdir)
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


def check(variant, debug, fenfile, start=None):
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
    script = "xboard\nprotover 2\nvariant %s\nforce\n" % variant.split("-")[0]
    if start:
        script += f"setboard {start}\n"
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


# Two Machines games from a position (pasted in Edit Game mode, then
# Ctrl+T): Jumping King with White stuck (J6), so that it passes (@@@@).
FROM = {
    "jumpingking": "*****k/6/6/6/1N4/2N3/K5/1*****[RRBBPPPrrbbnnppp] w - - 0 5",
}


def two_machines_from(engine, variant, fen, outdir, display):
    name = f"{variant}-from"
    debug = os.path.join(outdir, f"{name}.debug")
    fenfile = os.path.join(outdir, f"{name}.fen")
    for f in (debug, fenfile):
        if os.path.exists(f):
            os.remove(f)
    cmd = [
        XBOARD, "-debug", "-debugfile", debug,
        "-fcp", f"{engine} xboard", "-scp", f"{engine} xboard",
        "-variant", variant, "-testLegality", "false", "-mode", "EditGame",
        "-tc", "5", "-inc", "0", "-depth", "2", "-spf", fenfile,
        "-popupExitMessage", "false", *NO_SAVE,
    ]
    env = xboard_env(display, outdir)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(4)
        subprocess.run(["xclip", "-i", "-selection", "clipboard"], input=fen, text=True, env=env, check=True)
        xdo(display, "mousemove", "150", "200")
        time.sleep(0.3)
        xdo(display, "key", "ctrl+shift+v")
        time.sleep(1)
        xdo(display, "key", "ctrl+t")
        deadline = time.time() + 120
        while time.time() < deadline:
            time.sleep(1)
            with open(debug, errors="replace") as f:
                if re.search(r"GameEnds\([1-9]", f.read()):
                    break
        time.sleep(1)
        screenshot(display, os.path.join(outdir, f"{name}.png"))
    finally:
        proc.kill()
        proc.wait()
    errors = check(name, debug, fenfile, start=fen)
    with open(debug, errors="replace") as f:
        if "move @@@@" not in f.read():
            errors.append(f"{name}: no pass was played")
    return errors


LIGHT, DARK = "#E0E0A0", "#208020"

# Moves entered by mouse in Edit Game mode (the engine attached as first
# engine answers lift/put and referees): each step is a square ("e2"), a
# holdings square ("W5": White's piece number 5), or a press-and-drag
# ("e3v1": press on e3, drag down one notch, 30 pixels, to sweep through the
# engine's `choice`, release; `^` drags up). The usermove lines XBoard must send, in order.
MOUSE = {
    "hopchess": [(
        None,
        # 1.e4 Nf6@d5 2.Nf3@h3 Nc3@a6 (a bounce off d5) 3.d4@h3 (White
        # keeps the trampoline on h3).
        ["e2", "e4", "g8", "d5", "f6", "g1", "h3", "f3", "f6", "a6", "c3", "d2", "h3", "d4"],
        # Black's two-leg moves arrive in XBoard's castling kludge form.
        ["e2e4", "g8f6,d5g6", "g1h3,h3f3", "f6c3,a6d3", "d2h3,h3d4"],
    ), (
        None,
        # 1.e4 Nf6@g8: the trampoline on the vacated square, by clicking
        # f6 twice (the first click is a placement click).
        ["e2", "e4", "g8", "f6", "f6"],
        ["e2e4", "g8f6"],
    ), (
        None,
        # 1.e4 Nc6@d4 2.d3@f5 Ng3@d4: the double bounce c6-d4(T)-f5(T)-g3,
        # keeping Black's trampoline on d4.
        ["e2", "e4", "b8", "d4", "c6", "d2", "f5", "d3", "c6", "d4", "g3"],
        ["e2e4", "b8c6,d4b6", "d2f5,f5d3", "c6g3,d4f3"],
    )],
    "trampoline": [(
        None,
        # 1.e4 T@d5 2.T@f3 e6 3.Ng5 (g1-f3(T)-g5) Td4.
        ["e2", "e4", "B5", "d5", "W5", "f3", "e7", "e6", "g1", "g5", "d5", "d4"],
        ["e2e4", "T@d5", "T@f3", "e7e6", "g1g5", "d5d4"],
    ), (
        "4k3/P7/8/8/8/8/8/4K3[Tt] w - - 0 1",
        # a8: the engine answers `choice QRBN`; dragging down sweeps Q, N,
        # B, R (XBoard's table order, from the queen on).
        ["a7", "a8v3"],
        ["a7a8r"],
    )],
    "jumpingking": [(
        None,
        # 1.Kc2 Kd7 2.Ke3 leaving a bishop on c2. The engine answers
        # `choice RBNP`; dragging down sweeps R, P, N, B.
        ["a1", "c2", "f8", "d7", "c2", "e3v3"],
        ["a1c2", "f8d7", "c2e3b"],
    )],
    "hoplit": [(
        "4k3/1P6/8/8/8/8/8/4K3[Hh] w - - 0 1",
        # b8: `choice QRBNH`; the sweep goes Q, H, N, B, R (L5).
        ["b7", "b8v1"],
        ["b7b8h"],
    )],
}


def board_box(display, shot):
    """The board's left, top and square pitch, from the dark squares."""
    screenshot(display, shot)
    info = subprocess.run(
        ["convert", shot, "-fill", "black", "+opaque", DARK, "-fill", "white", "-opaque", DARK, "-trim", "info:"],
        capture_output=True, text=True, check=True,
    ).stdout
    m = re.search(r" (\d+)x(\d+) \d+x\d+\+(\d+)\+(\d+)", info)
    w, h, x, y = map(int, m.groups())
    return x, y, w, h


def xdo(display, *args):
    subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=display), check=True)


def mouse(engine, variant, case, outdir, display):
    start, steps, expected = MOUSE[variant][case]
    name = f"{variant}-mouse{case}"
    debug = os.path.join(outdir, f"{name}.debug")
    if os.path.exists(debug):
        os.remove(debug)
    files, ranks = (6, 8) if variant == "jumpingking" else (8, 8)
    cmd = [
        XBOARD, "-debug", "-debugfile", debug,
        "-fcp", f"{engine} xboard",
        "-variant", variant, "-testLegality", "false", "-mode", "EditGame",
        "-useBoardTexture", "false", "-lightSquareColor", LIGHT, "-darkSquareColor", DARK,
        "-popupExitMessage", "false", *NO_SAVE,
    ]
    env = xboard_env(display, outdir)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    errors = []
    try:
        time.sleep(4)
        if start:
            subprocess.run(["xclip", "-i", "-selection", "clipboard"], input=start, text=True, env=env, check=True)
            xdo(display, "mousemove", "150", "200")
            time.sleep(0.3)
            xdo(display, "key", "ctrl+shift+v")
            time.sleep(1)
        x0, y0, w, h = board_box(display, os.path.join(outdir, f"{name}-start.png"))
        px, py = w / files, h / ranks

        def at(f, row):
            return str(int(x0 + (f + 0.5) * px)), str(int(y0 + (row + 0.5) * py))

        for step in steps:
            if step[0] in "WB":
                n = int(step[1:])
                # White's holdings: two files right of the board, its
                # number counted from the bottom; Black's: two files left,
                # counted from the top.
                x, y = at(files + 1, ranks - 1 - n) if step[0] == "W" else at(-2, n)
                xdo(display, "mousemove", x, y, "click", "1")
            else:
                sq, drag = step[:2], step[2:]
                x, y = at(ord(sq[0]) - 97, ranks - int(sq[1]))
                if drag:
                    dy = "-30" if drag[0] == "^" else "30"
                    xdo(display, "mousemove", x, y, "mousedown", "1")
                    time.sleep(0.8)
                    for _ in range(int(drag[1:])):
                        xdo(display, "mousemove_relative", "--", "0", dy)
                        time.sleep(0.4)
                    xdo(display, "mouseup", "1")
                else:
                    xdo(display, "mousemove", x, y, "click", "1")
            time.sleep(0.8)
        screenshot(display, os.path.join(outdir, f"{name}.png"))
        # Keys go where the pointer is (no window manager): over the board.
        xdo(display, "mousemove", *at(files // 2, ranks // 2))
        time.sleep(0.3)
        xdo(display, "key", "ctrl+shift+c")
        time.sleep(0.5)
        xb = subprocess.run(
            ["xclip", "-o", "-selection", "clipboard"], env=env, capture_output=True, text=True
        ).stdout.strip()
    finally:
        proc.kill()
        proc.wait()
    with open(debug, errors="replace") as f:
        log = f.read()
    sent = [m.strip() for m in re.findall(r">first : usermove \d+ >first : (\S+)", log)]
    if sent != expected:
        errors.append(f"{name} by mouse: XBoard sent {sent}, expected {expected}")
    for line in log.splitlines():
        if re.search(r"<first\s*: (Illegal move|Error)", line):
            errors.append(f"{name} by mouse: {line.strip()}")
    script = "xboard\nprotover 2\nvariant %s\nforce\n" % variant
    if start:
        script += f"setboard {start}\n"
    script += "".join(f"usermove {m}\n" for m in sent) + "result *\nquit\n"
    out = subprocess.run([engine, "xboard"], input=script, capture_output=True, text=True, timeout=60).stdout
    finals = re.findall(r"# final position (.*)", out)
    if not finals or not xb or board_of(finals[0]) != board_of(xb):
        errors.append(f"{name} by mouse: XBoard's position {xb!r} != the engine's {finals}")
    print(f"{name} by mouse: {sent}; XBoard's position {xb}; matched: {not errors}")
    return errors


def free_display():
    """An X display number no other server holds (its lock file)."""
    with DISPLAY_LOCK:
        n = 90 + os.getpid() % 50
        while os.path.exists(f"/tmp/.X{n}-lock") or n in TAKEN:
            n += 1
        TAKEN.add(n)
        return f":{n}"


def play_variant(engine, v, outdir):
    """Every check of one variant, on an X server of its own."""
    display = free_display()
    xvfb = start_xvfb(display)
    errors = []
    try:
        if v != "hoplit":
            errors += two_machines(engine, v, outdir, display)
        if v in FROM:
            errors += two_machines_from(engine, v, FROM[v], outdir, display)
        for case in range(len(MOUSE.get(v, []))):
            errors += mouse(engine, v, case, outdir, display)
    finally:
        xvfb.kill()
        xvfb.wait()
    return errors


# The variants run side by side, each on its own Xvfb display (their time is
# mostly XBoard's waits): XBOARD_TEST_JOBS at once, 3 unless told.
DISPLAY_LOCK = threading.Lock()
TAKEN = set()


def main():
    global ENGINE
    engine, outdir = sys.argv[1], sys.argv[2]
    ENGINE = engine
    variants = sys.argv[3:] or VARIANTS
    os.makedirs(outdir, exist_ok=True)
    jobs = int(os.environ.get("XBOARD_TEST_JOBS", "3"))
    errors = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for found in pool.map(lambda v: play_variant(engine, v, outdir), variants):
            errors += found
    for e in errors:
        print("FAIL", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
