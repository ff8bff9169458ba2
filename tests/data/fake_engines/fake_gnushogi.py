#!/usr/bin/env python3
"""A GNU Shogi stand-in for the xshogi driver's tests: it speaks the xshogi protocol of
gnushogi 1.4.2 (banner, force mode with echoed moves, inverted black/white + go,
`n. ... move` lines) and asks a USI engine at depth 1 for its moves; on its Nth move of the
game, or the Nth move it is sent, it shows one of gnushogi's quirks.

usage: fake_gnushogi.py USI_ENGINE MODE N [ignored gnushogi arguments...]
  normal   plays on
  claim    prints `Drawn game!` instead of its Nth move and stops playing
  giveup   prints a move line without a move, then `Black mates!` / `White mates!`
  refuse   answers the Nth move it is sent with `Illegal move (no match) <move>`
  swallow  neither echoes nor answers the Nth move it is sent (the repetition hang)
Only the even start is supported (no `edit`).
"""
import subprocess
import sys


def main():
    engine_cmd, mode, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    usi = subprocess.Popen(engine_cmd.split() + ["usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True, bufsize=1)

    def ask(cmd, until):
        usi.stdin.write(cmd + "\n")
        usi.stdin.flush()
        for line in usi.stdout:
            if line.startswith(until):
                return line.split()
        sys.exit(4)

    ask("usi", "usiok")
    ask("isready", "readyok")
    moves, force, computer = [], False, None
    echoes = mine = received = 0
    print("GNU Shogi 1.4.2", flush=True)

    def think():
        nonlocal mine
        mine += 1
        if mine == nth and mode == "claim":
            print("Drawn game!", flush=True)
            return False
        if mine == nth and mode == "giveup":
            loser = "Black" if len(moves) % 2 else "White"
            print("%d. ... %d" % (mine, 300000), flush=True)
            print("%s mates!" % ("White" if loser == "Black" else "Black"), flush=True)
            return False
        usi.stdin.write(("position startpos moves " + " ".join(moves) if moves else "position startpos") + "\n")
        best = ask("go depth 1", "bestmove")[1]
        moves.append(best)
        print("%d. ... %s 300000" % (mine, best), flush=True)
        return True

    playing = True
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        w = words[0]
        if w == "quit":
            break
        if w in ("beep", "random", "easy", "level", "time", "otime", "depth", "hint") or w.isdigit():
            continue
        if w == "force":
            force = True
        elif w in ("black", "white"):
            computer, force = ("white" if w == "black" else "black"), False
        elif w == "go":
            computer = "black" if computer == "white" else "white"
            force = False
            playing = think()
        else:  # a move
            received += 1
            if received == nth and mode == "refuse" and not force:
                print("Illegal move (no match) %s" % w, flush=True)
                continue
            if received == nth and mode == "swallow" and not force:
                continue
            echoes += 1
            moves.append(w)
            print("%d. %s 300000" % (echoes, w), flush=True)
            if not force and playing:
                playing = think()
    usi.kill()


if __name__ == "__main__":
    main()
