#!/usr/bin/env bash
# Debian's real xshogi under Xvfb in two-machine match mode (-matchMode Init): hisha is the
# first program (White), gnushogi the second (Black), both searching 4 plies (-searchDepth 4,
# fast on a loaded machine; xshogi then also sends depth/4/help). The game must run to its end
# (xshogi exits by itself in match mode once a program reports the result), and the saved game
# file (-saveGameFile) must replay legally through Hisha's notation reader.
# Screenshots of the running board are kept in OUTDIR (xshogi_hisha.png, or .xwd when
# ImageMagick is missing), with the protocol log and the game. Exit 77 (skipped) when
# xshogi, Xvfb or gnushogi is missing.
set -euo pipefail
HISHA=${1:?usage: xshogi_match.sh HISHA [OUTDIR]}
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT"
XSHOGI=$(command -v xshogi || echo /usr/games/xshogi)
GNUSHOGI=$(command -v gnushogi || echo /usr/games/gnushogi)
for tool in "$XSHOGI" "$GNUSHOGI" Xvfb xwd; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (scripts/install-deps.sh installs xshogi, xvfb, x11-apps, gnushogi)"
        [[ -n "${CI:-}" ]] && exit 1  # CI installs them all: a missing peer there is a failure
        exit 77
    fi
done

GAME="$OUT/xshogi_game.gam"
LOG="$OUT/xshogi_protocol.log"
rm -f "$GAME" "$OUT"/xshogi_hisha.*  # xshogi asks before overwriting a game file
WRAP="$OUT/hisha-first-program.sh"
cat >"$WRAP" <<EOF
#!/bin/sh
HISHA_HASHFILE=/nonexistent/hisha-test.hsh exec "$HISHA" "\$@" 2>>"$OUT/hisha_stderr.log"
EOF
chmod +x "$WRAP"

# Our own X server, so that the board can be photographed while the game runs.
exec 3< <(Xvfb -displayfd 1 -screen 0 1000x1000x24 -nolisten tcp 2>"$OUT/xvfb.log")
XVFB_PID=$!
read -r -t 20 DISPLAY_NUM <&3 || {
    echo "SKIP: Xvfb did not start"
    [[ -n "${CI:-}" ]] && exit 1
    exit 77
}
export DISPLAY=":$DISPLAY_NUM"
XSHOGI_PID=
cleanup() {
    [[ -n $XSHOGI_PID ]] && kill "$XSHOGI_PID" 2>/dev/null || true
    kill "$XVFB_PID" 2>/dev/null || true
}
trap cleanup EXIT

"$XSHOGI" -debug True -fsp "$WRAP" -ssp "$GNUSHOGI" -mm Init -sgf "$GAME" -sd 4 >"$LOG" 2>&1 &
XSHOGI_PID=$!

shots=0
# Keeps a picture only when xshogi was still showing the board after it was taken.
snap() {
    xwd -name xshogi -silent -display "$DISPLAY" >"$OUT/xshogi_hisha.xwd.tmp" 2>/dev/null \
        || xwd -root -silent -display "$DISPLAY" >"$OUT/xshogi_hisha.xwd.tmp" 2>/dev/null || return 0
    if kill -0 "$XSHOGI_PID" 2>/dev/null; then
        mv "$OUT/xshogi_hisha.xwd.tmp" "$OUT/xshogi_hisha.xwd"
        shots=$((shots + 1))
    fi
    rm -f "$OUT/xshogi_hisha.xwd.tmp"
}
start=$SECONDS
while kill -0 "$XSHOGI_PID" 2>/dev/null; do
    if ((SECONDS - start > 840)); then
        echo "FAIL: the game did not end within 840 s" >&2
        tail -20 "$LOG" >&2
        exit 1
    fi
    sleep 0.4
    if grep -q '^Received from first: [0-9]*\. \.\.\.' "$LOG" 2>/dev/null; then snap; fi
done
wait "$XSHOGI_PID" || true
XSHOGI_PID=

if [[ -f "$OUT/xshogi_hisha.xwd" ]]; then
    CONVERT=$(command -v convert-im6.q16 || command -v /usr/bin/convert || true)
    if [[ -n $CONVERT ]] && "$CONVERT" "xwd:$OUT/xshogi_hisha.xwd" "png:$OUT/xshogi_hisha.png" 2>/dev/null; then
        rm -f "$OUT/xshogi_hisha.xwd"
    fi
fi

fail=0
[[ -s $GAME ]] || { echo "FAIL: xshogi saved no game file" >&2; tail -20 "$LOG" >&2; exit 1; }
head -n 1 "$GAME" | grep -q '^# xshogi game file' || { echo "FAIL: not an xshogi game file" >&2; fail=1; }
grep -Eq '(Black wins|White wins|Draw|Repetition)' "$GAME" || { echo "FAIL: the game file has no result" >&2; fail=1; }
machine=$(grep -c '^Received from first: [0-9]*\. \.\.\. ' "$LOG" || true)
((machine > 0)) || { echo "FAIL: hisha made no move" >&2; fail=1; }
grep -q '^Received from first: Illegal move' "$LOG" && { echo "FAIL: hisha refused a move of gnushogi" >&2; fail=1; }
if ! "$HISHA" convert --to sfen "$GAME" >"$OUT/xshogi_game.sfen"; then
    echo "FAIL: the saved game does not replay legally" >&2
    fail=1
fi
plies=$(wc -w <"$OUT/xshogi_game.sfen")
plies=$((plies - 6))
echo "game: $plies plies, hisha moved $machine times; result: $(grep -Eo '(Black wins|White wins|Draw|Repetition)' "$GAME" | tail -1)"
echo "files: $GAME $LOG $(ls "$OUT"/xshogi_hisha.* 2>/dev/null | tr '\n' ' ')"
exit "$fail"
