#!/usr/bin/env bash
# The guide's pictures can be made again: scripts/screenshots.sh runs against the built programs
# into a scratch folder, and each picture is a valid PNG of its size, small and not blank
# (png_check.mjs). The pictures the script makes are those in docs/images, and each is shown
# by the README or the guide.
# Usage: screenshots.sh SOURCE_DIR BIN_DIR
set -euo pipefail
root=$(realpath "${1:?usage: screenshots.sh SOURCE_DIR BIN_DIR}")
bin=$(realpath "${2:?usage: screenshots.sh SOURCE_DIR BIN_DIR}")
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# name=WIDTHxHEIGHT: the web UI at 1280x800; the 96x30 terminal in 15px DejaVu Sans Mono (9.04 by
# 18 px a cell) with its padding and title bar.
expected=(lobby.png=1280x800 game.png=1280x800 analysis.png=1280x800 tsume.png=1280x800 curses.png=892x589)

"$root/scripts/screenshots.sh" "$out" "$bin"
failures=0
node "$here/png_check.mjs" "$out" "${expected[@]}" || failures=$((failures + 1))

names=$(printf '%s\n' "${expected[@]%%=*}" | sort)
made=$(cd "$out" && ls -1 -- *.png | sort)
committed=$(cd "$root/docs/images" && ls -1 -- *.png | sort)
if [[ "$made" != "$names" ]]; then
    echo "FAIL: the script made: $(echo $made), expected: $(echo $names)"
    failures=$((failures + 1))
fi
if [[ "$committed" != "$names" ]]; then
    echo "FAIL: docs/images holds $(echo $committed), the script makes $(echo $names)"
    failures=$((failures + 1))
fi
for name in $names; do
    if ! grep -q "images/$name" "$root/README.md" "$root"/docs/guide/*.md; then
        echo "FAIL: docs/images/$name is shown neither by README.md nor by docs/guide"
        failures=$((failures + 1))
    fi
done
if ((failures)); then exit 1; fi
echo "screenshots: ${#expected[@]} pictures made, checked, and shown in the docs"
