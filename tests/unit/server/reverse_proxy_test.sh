#!/usr/bin/env bash
# The reverse-proxy example (packaging/nginx-hisha.conf) run as it is written, in front of a real
# hisha-server on 127.0.0.1: only the ports, the server name and the certificate (a self-signed
# one made here) are put in. Over HTTPS through nginx: /healthz; a web login whose cookie is
# Secure (X-Forwarded-Proto); the live socket opened with the cookie (101), its token in no URL
# of nginx's access log; and, with --trusted-proxy 127.0.0.1, the client's own address (curl
# from 127.0.0.2) in the server's log and an administrator's ban of that address refusing it
# while 127.0.0.1 is still served.
# Usage: reverse_proxy_test.sh HISHA_SERVER EXAMPLE_CONF. Exit 77 (skipped) without nginx.
set -u
server_bin=$1
example=$2
for tool in nginx openssl curl; do
    if ! command -v "$tool" > /dev/null && [ ! -x "/usr/sbin/$tool" ]; then
        echo "SKIP: $tool is not installed (scripts/install-deps.sh installs nginx-light)"
        exit 77
    fi
done
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

dir=$(mktemp -d /tmp/hisha_proxy.XXXXXX)
server_pid=
nginx_pid=
cleanup() {
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2> /dev/null && wait "$nginx_pid" 2> /dev/null
    [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
failures=0
check() {  # check WHAT COMMAND...: one line each, counted
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# hisha-server on a free port, trusting the proxy's X-Forwarded-For.
"$server_bin" --db "sqlite:$dir/hisha.db" --http-port 0 --text-port -1 --csa-port -1 --password-cost min \
    --bots '' --trusted-proxy 127.0.0.1 > "$dir/server.out" 2> "$dir/server.log" &
server_pid=$!
for _ in $(seq 100); do grep -q ready "$dir/server.out" 2> /dev/null && break; sleep 0.1; done
backend=$(sed -n 's/^listening http 127.0.0.1:\([0-9]*\)$/\1/p' "$dir/server.out")
[ -n "$backend" ] || { echo "FAILED: hisha-server did not start"; cat "$dir/server.out" "$dir/server.log"; exit 1; }

# The certificate, and the example with this test's ports, name and certificate.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost -keyout "$dir/key.pem" -out "$dir/cert.pem" 2> /dev/null
https=$(free_port)
http=$(free_port)
sed -e "s/shogi\.example\.org/localhost/g" \
    -e "s#/etc/letsencrypt/live/localhost/fullchain.pem#$dir/cert.pem#" \
    -e "s#/etc/letsencrypt/live/localhost/privkey.pem#$dir/key.pem#" \
    -e "s/listen 443 /listen 127.0.0.1:$https /" -e "s/listen \[::\]:443 .*//" \
    -e "s/listen 80;/listen 127.0.0.1:$http;/" -e "s/listen \[::\]:80;//" \
    -e "s#http://127.0.0.1:8080#http://127.0.0.1:$backend#" "$example" > "$dir/site.conf"
mkdir -p "$dir/tmp"
cat > "$dir/nginx.conf" << EOF
daemon off;
master_process off;
pid $dir/nginx.pid;
error_log $dir/error.log;
events {}
http {
    access_log $dir/access.log;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    include $dir/site.conf;
}
EOF
"$nginx_bin" -t -c "$dir/nginx.conf" -p "$dir" > "$dir/nginx-t.out" 2>&1
check "nginx accepts the example" grep -q "syntax is ok" "$dir/nginx-t.out" || cat "$dir/nginx-t.out"
"$nginx_bin" -c "$dir/nginx.conf" -p "$dir" &
nginx_pid=$!
base="https://localhost:$https"
tls=(--silent --cacert "$dir/cert.pem" --resolve "localhost:$https:127.0.0.1" --max-time 10)
for _ in $(seq 100); do curl "${tls[@]}" -o /dev/null "$base/healthz" && break; sleep 0.1; done

# Plain HTTP is sent to HTTPS.
check "http redirects to https" test "$(curl --silent -o /dev/null -w '%{http_code} %{redirect_url}' \
    "http://127.0.0.1:$http/lobby")" = "301 https://127.0.0.1/lobby"
# Health over TLS, with the server's own headers and the proxy's HSTS.
curl "${tls[@]}" -D "$dir/health.h" -o "$dir/health.json" "$base/healthz"
check "healthz 200 through TLS" grep -q '"ok":true' "$dir/health.json"
check "security headers pass through" grep -qi '^content-security-policy:.*frame-ancestors' "$dir/health.h"
check "HSTS from the proxy" grep -qi '^strict-transport-security: max-age=31536000' "$dir/health.h"

# A web login: the cookie is Secure because the proxy says the page came over HTTPS.
curl "${tls[@]}" -D "$dir/register.h" -o /dev/null -X POST -H 'X-Hisha-Request: 1' \
    --data '{"name":"alice","password":"alice-secret","cookie":true}' "$base/api/register"
check "the session cookie is HttpOnly, SameSite=Strict and Secure" \
    grep -qi '^set-cookie: hisha_session=.*HttpOnly.*SameSite=Strict.*Secure' "$dir/register.h"
cookie=$(sed -n 's/^[Ss]et-[Cc]ookie: \(hisha_session=[^;]*\);.*/\1/p' "$dir/register.h")

# The live socket through the proxy, with the cookie and the page's Origin: 101.
curl "${tls[@]}" --http1.1 -o /dev/null -D "$dir/ws.h" --max-time 3 -H "Cookie: $cookie" \
    -H "Origin: $base" -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Version: 13' \
    -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "$base/api/ws"
check "the WebSocket opens through the proxy with the cookie" grep -q '^HTTP/1.1 101' "$dir/ws.h"
check "no token in any URL of the access log" bash -c "grep -q '/api/ws' '$dir/access.log' && ! grep -qi 'token' '$dir/access.log'"

# The client's own address: curl from 127.0.0.2 is 127.0.0.2 to the server (X-Forwarded-For from
# the trusted proxy), so an administrator's ban of it holds behind the proxy and spares the rest.
"$server_bin" admin grant alice --db "sqlite:$dir/hisha.db" > /dev/null
token=$(curl "${tls[@]}" -X POST --data '{"name":"alice","password":"alice-secret"}' "$base/api/login" |
    sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
curl "${tls[@]}" --interface 127.0.0.2 -o /dev/null -H "Authorization: Bearer $token" "$base/api/admin/status"
check "the server logs the client's address, not the proxy's" \
    grep -q '"event":"admin".*"peer":"127.0.0.2"' "$dir/server.log"
curl "${tls[@]}" -o /dev/null -X POST -H "Authorization: Bearer $token" \
    --data '{"kind":"address","target":"127.0.0.2","reason":"proxy test"}' "$base/api/admin/ban"
check "a banned address is refused behind the proxy" test "$(curl "${tls[@]}" --interface 127.0.0.2 \
    -o /dev/null -w '%{http_code}' "$base/api/who")" = 403
check "the other addresses are still served" test "$(curl "${tls[@]}" -o /dev/null -w '%{http_code}' \
    "$base/api/who")" = 200

echo "$((11 - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
