"""A thin UCI client for the Springboard binary: one process, many commands."""

import os
import subprocess

# The release binary of this checkout (build it first: cargo build --release).
DEFAULT_BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "..", "..", "..", "target", "release", "springboard")


class Springboard:
    def __init__(self, binary=None):
        binary = binary or DEFAULT_BINARY
        self.proc = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, bufsize=1)
        self.variant = None
        self._exchange("uci", "uciok")

    def _exchange(self, cmds, until="readyok"):
        """Send command line(s), then `isready`; return the output lines before `readyok`."""
        if until == "readyok":
            cmds = cmds + "\nisready"
        self.proc.stdin.write(cmds + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("springboard exited: " + "\n".join(lines))
            line = line.rstrip("\n")
            if line == until:
                return lines
            lines.append(line)

    def set_variant(self, v):
        if v != self.variant:
            self._exchange("setoption name UCI_Variant value " + v)
            self.variant = v

    def position(self, fen, moves=()):
        """Set a position; return Springboard's Fen line, or raise ValueError if rejected."""
        cmd = ("position startpos" if fen == "startpos" else "position fen " + fen)
        if moves:
            cmd += " moves " + " ".join(moves)
        out = self._exchange(cmd + "\nd")
        errs = [l for l in out if l.startswith("info string")]
        if errs:
            raise ValueError("; ".join(errs))
        for l in out:
            if l.startswith("Fen: "):
                return l[5:]
        raise RuntimeError("no Fen line: " + "\n".join(out))

    def perft(self, depth):
        """go perft on the current position: (dict move -> count, total)."""
        # `go perft` runs in the engine's search thread (`isready` is answered
        # at once, UCI): read up to its total or its error.
        self.proc.stdin.write("go perft %d\n" % depth)
        self.proc.stdin.flush()
        out = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("springboard exited: " + "\n".join(out))
            line = line.rstrip("\n")
            out.append(line)
            if line.startswith("Nodes searched:") or line.startswith("info string"):
                break
        div, total = {}, None
        for l in out:
            if l.startswith("Nodes searched:"):
                total = int(l.split(":")[1])
            elif ": " in l and not l.startswith("info"):
                m, c = l.split(": ")
                div[m.strip()] = int(c)
        if total is None:
            raise RuntimeError("no perft total: " + "\n".join(out))
        return div, total

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
