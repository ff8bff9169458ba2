#!/usr/bin/env bash
# Installs the Debian 12 packages Hisha needs to build, test and run, but only the missing ones.
# Idempotent and quiet when everything is present; safe for CI (non-interactive).
set -euo pipefail
cd "$(dirname "$0")/.."

# One package per line; extend as new modules need them.
PACKAGES=(
    # Toolchain and build
    build-essential
    g++
    clang
    lld
    cmake
    ninja-build
    pkg-config
    clang-format
    # make package: CPack's Debian generator finds the shared-library dependencies with dpkg-shlibdeps
    dpkg-dev
    # Tests, benchmarks, fuzzing/sanitizers with clang
    libgtest-dev
    libgmock-dev
    googletest
    libbenchmark-dev
    libclang-rt-14-dev
    # The game server: Asio/Beast (1.81 for C++20 coroutines with as_tuple), SQLite, JSON, argon2id
    libboost1.81-dev
    libsqlite3-dev
    nlohmann-json3-dev
    libsodium-dev
    # PostgreSQL store (--db postgresql://...): libpq, and the server binaries its tests start
    libpq-dev
    postgresql
    # STARTTLS of the mail notifications' SMTP client (hisha-server --smtp-host), and the SMTP
    # server their tests send to (python3 -m aiosmtpd)
    libssl-dev
    python3-aiosmtpd
    # The command lines of hisha and hisha-server (header-only), the server's log and formatting
    libcli11-dev
    libspdlog-dev
    libfmt-dev
    # The interactive program's curses display
    libncurses-dev
    # Peers for tests
    gnushogi
    tmux
    xshogi
    xvfb
    x11-apps
    xfonts-75dpi
    xfonts-100dpi
    # The network's trainer (tools/nnue/train.py runs under /usr/bin/python3) and its test
    python3-torch
    python3-numpy
    # The engine in the browser (make wasm: wasm/ built to WebAssembly)
    emscripten
    # The web UI's browser tests (Playwright drives Debian's Chromium); Japanese fonts for its pages
    chromium
    fonts-ipafont-gothic
    fonts-ipafont-mincho
    # scripts/screenshots.sh: the guide's pictures made small (a palette of at most 256 colours)
    pngquant
    # The reverse-proxy example (packaging/nginx-hisha.conf) run in front of hisha-server by the
    # test reverse_proxy_tls, with a certificate that openssl makes for it
    nginx
    openssl
)

is_installed() {
    [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

missing=()
for pkg in "${PACKAGES[@]}"; do
    is_installed "$pkg" || missing+=("$pkg")
done

# Node.js and npm (the tsshogi cross-check, later the web UI): from Debian when the commands
# are missing (a machine may already have them from elsewhere).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    missing+=(nodejs npm)
fi

# npm packages of the project's own folders, from their lock files.
install_npm() {
    local dir
    for dir in tests/e2e/tsshogi web tests/e2e/web; do
        if [[ -f "$dir/package-lock.json" && ! -d "$dir/node_modules" ]]; then
            echo "install-deps: npm ci in $dir"
            (cd "$dir" && npm ci --no-audit --no-fund --silent)
        fi
    done
}

if ((${#missing[@]} == 0)); then
    echo "install-deps: all ${#PACKAGES[@]} packages present"
    install_npm
    exit 0
fi

SUDO=()
if ((EUID != 0)); then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "install-deps: missing packages (${missing[*]}) and not root, no sudo available" >&2
        exit 1
    fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_npm
echo "install-deps: done"
