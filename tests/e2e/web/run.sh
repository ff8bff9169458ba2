#!/usr/bin/env bash
# The web UI in Chromium (Playwright, headless) against a real hisha-server with a fresh SQLite
# database: see web.test.mjs. Usage: run.sh HISHA_SERVER WEB_DIR OUT_DIR [KIF_FILE [TEST]]
# TEST: another test script of this folder (FEATURE.test.mjs; default web.test.mjs), each with the
# same arguments. Screenshots land in OUT_DIR; exit 77 (skipped) only outside CI when Chromium is
# missing.
set -euo pipefail
server=$1 web=$2 out=$3 kif=${4:-} test=${5:-web.test.mjs}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
if [[ -z "$chromium" ]]; then
    echo "web test: no chromium (scripts/install-deps.sh installs Debian's chromium)" >&2
    [[ -n "${CI:-}" ]] && exit 1
    exit 77
fi
web_e2e_npm "$web"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A fresh build of the page into the scratch directory (web/dist may be in use by `make run`).
(cd "$web" && npx --no-install tsc --noEmit && npx --no-install vite build --logLevel error --outDir "$work/dist" --emptyOutDir)
mkdir -p "$out"
rm -f "$out"/*.png
js_gzip=0
for f in "$work"/dist/assets/*.js; do js_gzip=$((js_gzip + $(gzip -9 -c "$f" | wc -c))); done
echo "web: JavaScript $(cat "$work"/dist/assets/*.js | wc -c) bytes, $js_gzip bytes gzipped"
node "$here/$test" --server "$server" --static "$work/dist" --work "$work" --out "$out" \
    --chromium "$chromium" --kif "$kif"
