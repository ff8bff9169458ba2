#!/usr/bin/env bash
# The web UI's first-load size and time to interactive (issue 20): builds the page into a scratch
# directory and runs first_load.mjs against BUILD_DIR's hisha-server in Debian's Chromium.
# Usage: bash bench/web/run.sh BUILD_DIR [RUNS]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [RUNS]} runs=${2:-9}
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/e2e/web/setup.sh"
[[ -n "$chromium" ]] || { echo "no chromium (scripts/install-deps.sh installs it)" >&2; exit 1; }
web_e2e_npm "$root/web"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root/web" && npx --no-install vite build --logLevel error --outDir "$work/dist" --emptyOutDir)
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(git -C "$root" rev-parse --short HEAD)"
node "$root/bench/web/first_load.mjs" --server "$build/bin/hisha-server" --static "$work/dist" --chromium "$chromium" --runs "$runs"
