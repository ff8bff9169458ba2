#!/usr/bin/env bash
# One version everywhere: `hisha --version` and `-v`, `hisha-server --version`, the USI `id name`,
# the xshogi banner, the text server's banner, the CSA server's %%VERSION, the HTTP Server header
# and GET /api/version all name the same version, the one the build wrote (project(VERSION) plus
# the git commit).
# Usage: version.sh HISHA HISHA_SERVER
set -euo pipefail
HISHA=${1:?usage: version.sh HISHA HISHA_SERVER}
SERVER=${2:?usage: version.sh HISHA HISHA_SERVER}
fail() { echo "FAIL: $*" >&2; exit 1; }

line=$("$HISHA" --version)
[[ $line =~ ^hisha\ ([0-9]+\.[0-9]+\.[0-9]+[^[:space:]]*)$ ]] || fail "hisha --version printed '$line'"
v=${BASH_REMATCH[1]}
echo "version: $v"
[[ $("$SERVER" --version) == "hisha-server $v" ]] || fail "hisha-server --version: $("$SERVER" --version)"
usi=$(printf 'usi\nquit\n' | "$HISHA" usi | grep '^id name')
[[ $usi == "id name Hisha $v" ]] || fail "USI: '$usi'"
[[ $("$HISHA" -v) == "hisha version $v (GNU Shogi compatible)" ]] || fail "hisha -v: $("$HISHA" -v)"
banner=$(printf 'quit\n' | "$HISHA" -X)  # read whole: `head` would close the pipe early
banner=${banner%%$'\n'*}
[[ $banner == "Hisha $v (GNU Shogi compatible)" ]] || fail "xshogi banner: '$banner'"

tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT
"$SERVER" --db "sqlite:$tmp/db" --text-port 0 --csa-port 0 --http-port 0 --bots "" --password-cost min \
    --log off > "$tmp/out" 2>&1 &
pid=$!
port_of() {  # the port a "listening PROTO ADDR:PORT" line names
    for _ in $(seq 100); do
        local p
        p=$(sed -n "s/^listening $1 .*:\([0-9]*\)$/\1/p" "$tmp/out")
        [[ -n $p ]] && { echo "$p"; return; }
        sleep 0.1
    done
    fail "no 'listening $1' line: $(cat "$tmp/out")"
}
text=$(port_of text) csa=$(port_of csa) http=$(port_of http)

exec 3<>"/dev/tcp/127.0.0.1/$text"
IFS= read -r -t 10 banner <&3 || fail "no text banner"
exec 3<&-
[[ $banner == *"Hisha shogi server $v:"* ]] || fail "text banner: '$banner'"

exec 3<>"/dev/tcp/127.0.0.1/$http"
printf 'GET /api/version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
response=$(timeout 10 cat <&3 | tr -d '\r')
exec 3<&-
grep -qx "Server: hisha-server/$v" <<< "$response" || fail "HTTP Server header: $response"
grep -q "{\"version\":\"$v\"}" <<< "$response" || fail "GET /api/version: $response"

# An account for the CSA login (x1 mode, where the %% commands are).
body='{"name":"versioncheck","password":"secret-pw"}'
exec 3<>"/dev/tcp/127.0.0.1/$http"
printf 'POST /api/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
    "${#body}" "$body" >&3
registered=$(timeout 10 cat <&3)
[[ ${registered%%$'\r'*} == *" 200 "* ]] || fail "could not register an account: $registered"
exec 3<&-
exec 3<>"/dev/tcp/127.0.0.1/$csa"
printf 'LOGIN versioncheck secret-pw x1\n%%%%VERSION\n' >&3
reply=""
while IFS= read -r -t 10 l <&3; do
    [[ $l == "##[VERSION] Hisha"* ]] && { reply=$l; break; }
done
exec 3<&-
[[ $reply == "##[VERSION] Hisha $v CSA server"* ]] || fail "CSA %%VERSION: '$reply'"
echo "PASS: one version everywhere ($v)"
