#!/usr/bin/env bash
# Regenerates the guide's pictures (docs/images/*.png) from the real programs:
#   lobby.png, game.png, analysis.png, tsume.png: the web UI in Debian's Chromium (Playwright,
#     headless, 1280x800) against build/bin/hisha-server on 127.0.0.1 with a scratch SQLite
#     database, serving a fresh build of web/ (into the scratch folder: web/dist may be in use by
#     `make run`; HISHA_WEB_DIST=web/dist serves an existing build instead);
#   curses.png: build/bin/hisha -C in a 96x30 tmux window, a game a few moves in, captured with
#     capture-pane -e and drawn as a terminal window by Chromium.
# Then pngquant makes each PNG small (a palette of at most 256 colours).
# Usage: scripts/screenshots.sh [OUT_DIR [BIN_DIR]]   (defaults: docs/images, build/bin)
# Needs chromium, tmux, pngquant and node (scripts/install-deps.sh installs them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/docs/images}")
bin=$(realpath "${2:-$root/build/bin}")
hisha=$bin/hisha
server=$bin/hisha-server
source "$root/tests/e2e/web/setup.sh"
for need in "$hisha" "$server"; do
    [[ -x "$need" ]] || { echo "screenshots: $need is not built (ninja -C build hisha hisha-server)" >&2; exit 1; }
done
[[ -n "$chromium" ]] || { echo "screenshots: no chromium (scripts/install-deps.sh installs Debian's chromium)" >&2; exit 1; }
for tool in tmux pngquant node; do
    command -v "$tool" >/dev/null || { echo "screenshots: no $tool (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
web_e2e_npm "$root/web"

work=$(mktemp -d)
sock="hisha-shots-$$"
cleanup() {
    tmux -L "$sock" kill-server >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$out"

dist=${HISHA_WEB_DIST:-}
if [[ -z "$dist" ]]; then
    (cd "$root/web" && npx --no-install vite build --logLevel error --outDir "$work/dist" --emptyOutDir)
    dist=$work/dist
fi
[[ -f "$dist/index.html" ]] || { echo "screenshots: no web UI in $dist" >&2; exit 1; }

# --- the curses display: a game a few moves in (hisha plays White, 40 moves in 5 minutes)
cols=96 rows=30
mkdir -p "$work/curses"
tmux -L "$sock" -f /dev/null new-session -d -s play -x $cols -y $rows \
    "cd '$work/curses' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color HISHA_HASHFILE=/nonexistent/h.hsh '$hisha' -C 40 5; sleep 60"
screen() { tmux -L "$sock" capture-pane -p -t play; }
wait_for() {  # wait_for REGEX SECONDS: until the screen matches
    local i
    for ((i = 0; i < $2 * 10; i++)); do
        screen | grep -Eq -- "$1" && return 0
        sleep 0.1
    done
    echo "screenshots: the curses display never showed /$1/:" >&2
    screen >&2
    exit 1
}
type_line() {
    tmux -L "$sock" send-keys -t play -l -- "$1"
    tmux -L "$sock" send-keys -t play Enter
}
wait_for 'Your move:' 20
n=0
for move in 7g7f 2g2f 6i7h; do
    type_line "$move"
    n=$((n + 1))
    wait_for " $n\\. $move +[^ ]" 60
done
wait_for 'Your move: *$' 10
tmux -L "$sock" capture-pane -e -p -t play >"$work/curses.txt"
cursor=$(tmux -L "$sock" display -p -t play '#{cursor_x} #{cursor_y}')
tmux -L "$sock" kill-server >/dev/null 2>&1 || true

# --- the web UI, then the terminal drawn
rm -f "$out"/{lobby,game,analysis,tsume,curses}.png
node "$root/tests/e2e/web/shots.mjs" --server "$server" --static "$dist" --work "$work" --out "$out" \
    --chromium "$chromium" --terminal "$work/curses.txt" --cursor "$cursor" --cols $cols --rows $rows \
    --title "hisha -C 40 5"

for f in "$out"/{lobby,game,analysis,tsume,curses}.png; do
    before=$(stat -c %s "$f")
    pngquant --force --skip-if-larger --strip --speed 1 --quality 70-95 --output "$f" -- "$f" || true
    echo "screenshots: $(basename "$f") $before -> $(stat -c %s "$f") bytes"
done
