#!/usr/bin/env python3
"""A broken USI engine for the match tests: it relays to a real engine and misbehaves on the
Nth `go` of every game (counted from `usinewgame`). Every `go` reaches the real engine as
`go depth 1`, so that the fake answers at once whatever the clock says and only misbehaves
when it is told to, even on a loaded machine.

usage: fake_usi.py MODE N [DELAY] -- ENGINE COMMAND...
  illegal  answers `bestmove 5i1a` (no piece can make that move)
  crash    exits with status 3 instead of answering
  silent   never answers that `go` (nor `stop`), but stays alive
  late     answers DELAY seconds (default 2.0) after the `go`, ignoring `stop`
  resign   answers `bestmove resign`
  win      answers `bestmove win` (a declaration that does not hold)
"""
import subprocess
import sys
import threading
import time


def main():
    sep = sys.argv.index("--")
    mode, nth = sys.argv[1], int(sys.argv[2])
    delay = float(sys.argv[3]) if sep > 3 else 2.0
    engine = subprocess.Popen(sys.argv[sep + 1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    state = {"gos": 0, "hold": False}
    lock = threading.Lock()

    def out(line):
        with lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def relay():
        for line in engine.stdout:
            line = line.rstrip("\n")
            if line.startswith("bestmove") and state["hold"]:
                state["hold"] = False
                time.sleep(max(0.0, state["until"] - time.time()))
            out(line)

    threading.Thread(target=relay, daemon=True).start()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            break
        if words[0] == "usinewgame":
            state["gos"] = 0
            state["silent"] = False
        if words[0] == "go":
            state["gos"] += 1
            if state["gos"] == nth:
                if mode == "illegal":
                    out("bestmove 5i1a")
                    continue
                if mode == "crash":
                    engine.kill()
                    sys.exit(3)
                if mode == "silent":
                    state["silent"] = True
                    continue
                if mode == "resign":
                    out("bestmove resign")
                    continue
                if mode == "win":
                    out("bestmove win")
                    continue
                if mode == "late":
                    state["hold"] = True
                    state["until"] = time.time() + delay
        if words[0] == "stop" and state.get("silent"):
            continue
        if words[0] == "go":
            line = "go depth 1\n"
        engine.stdin.write(line)
        engine.stdin.flush()
    engine.kill()


if __name__ == "__main__":
    main()
