#!/usr/bin/env bash
# Installation and packaging as a user meets them:
#  - `cmake --install` into a fresh prefix puts the programs, the web UI, the book, the manual
#    pages and the docs in place, and the installed hisha-server, started without --static,
#    serves the real web UI (its index page and the script that page loads);
#  - the manual pages name every option of `hisha-server --help` and every subcommand of
#    `hisha help`, so they cannot fall behind the programs silently;
#  - the Debian package CPack makes has a sound control file (name, version, architecture,
#    dependencies found from the binaries) and file list, and its hisha runs once unpacked.
# Usage: install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$(cd "${1:?usage: install.sh BUILD_DIR SOURCE_DIR}" && pwd)
SRC=$(cd "${2:?usage: install.sh BUILD_DIR SOURCE_DIR}" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
pid=""
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT

[[ -f $SRC/web/dist/index.html ]] || fail "web/dist is not built (make web)"
cmake --install "$BUILD" --prefix "$tmp/prefix" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
p=$tmp/prefix
for f in bin/hisha bin/hisha-server share/hisha/web/index.html share/hisha/book.sfen share/man/man6/hisha.6 \
         share/man/man8/hisha-server.8 share/doc/hisha/README.md share/doc/hisha/copyright; do
    [[ -e $p/$f ]] || fail "cmake --install did not install $f"
done
v=$("$p/bin/hisha" --version)
echo "installed: $v"

# The installed server without --static serves the installed UI.
"$p/bin/hisha-server" --db "sqlite:$tmp/db" --text-port -1 --csa-port -1 --http-port 0 --bots "" \
    --password-cost min --log off > "$tmp/out" 2>&1 &
pid=$!
port=""
for _ in $(seq 100); do
    port=$(sed -n 's/^listening http .*:\([0-9]*\)$/\1/p' "$tmp/out")
    [[ -n $port ]] && break
    sleep 0.1
done
[[ -n $port ]] || fail "the installed server did not listen: $(cat "$tmp/out")"
http_get() {  # PATH -> the whole response, CRs removed
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$1" >&3
    timeout 10 cat <&3 | tr -d '\r'
    exec 3<&-
}
index=$(http_get /)
head -n 1 <<< "$index" | grep -q ' 200 ' || fail "GET / of the installed server: $(head -n 1 <<< "$index")"
grep -q '<main id="app"' <<< "$index" || fail "GET / is not the web UI: $index"
script=$(grep -o 'src="/assets/[^"]*\.js"' <<< "$index" | sed -n '1{s/^src="//; s/"$//; p}')  # sed reads all
[[ -n $script ]] || fail "the index page loads no script"
asset=$(http_get "$script")
head -n 1 <<< "$asset" | grep -q ' 200 ' || fail "GET $script: $(head -n 1 <<< "$asset")"
grep -q "^Content-Security-Policy: default-src 'self'" <<< "$index" || fail "the page has no CSP: $index"
grep -qx 'Cache-Control: no-cache' <<< "$index" || fail "index.html is not revalidated"
grep -qx 'Cache-Control: public, max-age=31536000, immutable' <<< "$asset" || fail "$script is not immutable"
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""

# The manual pages cover the programs' own lists.
man6=$SRC/docs/man/hisha.6 man8=$SRC/docs/man/hisha-server.8
for opt in $("$p/bin/hisha-server" --help | grep -o '^  --[a-z-]*' | sed 's/^  //'); do
    grep -qF -- "${opt//-/\\-}" "$man8" || fail "hisha-server.8 does not describe $opt"
done
for sub in $("$p/bin/hisha" help | sed -n 's/^ *\(usage:\)\? *hisha \([a-z][a-z-]*\).*/\2/p' | sort -u); do
    grep -q "hisha $sub" "$man6" || fail "hisha.6 does not describe hisha $sub"
done

# The systemd unit of packaging/: its command line is one the server accepts, and systemd
# (when systemd-analyze is there) finds nothing wrong with it, run on the installed server.
unit=$SRC/packaging/hisha-server.service
server_help=$("$p/bin/hisha-server" --help)
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
[[ $exec_start == /usr/bin/hisha-server\ * ]] || fail "the unit does not start /usr/bin/hisha-server: $exec_start"
for opt in $(grep -o -- ' --[a-z-]*' <<< "$exec_start"); do
    grep -q -- "^  $opt " <<< "$server_help" || fail "the unit's $opt is no option of hisha-server"
done
if command -v systemd-analyze > /dev/null; then
    sed "s#^ExecStart=/usr/bin/hisha-server#ExecStart=$p/bin/hisha-server#" "$unit" > "$tmp/hisha-server.service"
    verdict=$(systemd-analyze verify --man=no "$tmp/hisha-server.service" 2>&1) || fail "systemd-analyze: $verdict"
fi

# The Debian package.
(cd "$BUILD" && cpack -G DEB -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack"; }
deb=$(ls "$tmp"/pkg/hisha_*.deb)
echo "package: $(basename "$deb")"
control=$(dpkg-deb -f "$deb")
grep -qx 'Package: hisha' <<< "$control" || fail "control: $control"
version=${v#hisha }
grep -qx "Version: ${version%%+*}" <<< "$control" || fail "control version: $control"
grep -qx "Architecture: $(dpkg --print-architecture)" <<< "$control" || fail "control architecture: $control"
depends=$(sed -n 's/^Depends: //p' <<< "$control")
for lib in libc6 libstdc++6 libsqlite3-0 libsodium23 libpq5 libncursesw6 libfmt9 libspdlog1.10; do
    grep -q "\b$lib\b" <<< "$depends" || fail "Depends lacks $lib: $depends"
done
files=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
for f in ./usr/bin/hisha ./usr/bin/hisha-server ./usr/share/hisha/web/index.html ./usr/share/man/man6/hisha.6 \
         ./usr/share/man/man8/hisha-server.8 ./usr/share/doc/hisha/copyright; do
    grep -qx -- "$f" <<< "$files" || fail "the package lacks $f"
done
dpkg-deb -x "$deb" "$tmp/unpacked"
[[ $("$tmp/unpacked/usr/bin/hisha" --version) == "$v" ]] || fail "the packaged hisha"
echo "PASS: install, the installed UI, manual pages, package $(basename "$deb")"
