# Sourced by run.sh (the browser test) and scripts/screenshots.sh (the guide's pictures): finds
# Debian's Chromium (HISHA_CHROMIUM overrides) into $chromium, empty when there is none, and
# installs the npm packages of this folder (playwright-core) and of the web UI when missing.
web_e2e_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
chromium=${HISHA_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
web_e2e_npm() {  # web_e2e_npm WEB_DIR
    if [[ ! -d "$web_e2e_dir/node_modules/playwright-core" ]]; then
        (cd "$web_e2e_dir" && npm ci --no-audit --no-fund --silent)
    fi
    if [[ ! -d "$1/node_modules/vite" ]]; then
        (cd "$1" && npm ci --no-audit --no-fund --silent)
    fi
}
