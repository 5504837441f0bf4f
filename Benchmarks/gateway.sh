#!/usr/bin/env bash
# Gateway and identity benchmark (issue 2). Prints, from one run on this machine:
#   1. GET /v1/users/me (authenticated) directly at the identity service and through the gateway
#      (and through nginx with keep-alive upstreams, when nginx is installed, as a reference proxy);
#   2. login throughput (bcrypt cost 12) through the gateway;
#   3. GET /v1/users/me through the gateway while logins run, to show bcrypt never stalls other requests.
# Needs wrk (apt-get install wrk; nginx-light optional). Builds and runs release binaries only.
# Usage: Benchmarks/gateway.sh [seconds per run, default 15]
#   LOCAL_STACK_BIN=path  measure that release LocalStack binary instead of building this tree's (to compare
#                         two versions on one machine: run each in turn, several times)
#   ONLY_ME=1             only part 1 (no logins)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-15}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }

if [ -n "${LOCAL_STACK_BIN:-}" ]; then
    BIN="$LOCAL_STACK_BIN"
else
    swift build -c release --product LocalStack 2>&1 | grep -E "error|Compiling|Build" | tail -3 >&2
    BIN="$(swift build -c release --show-bin-path)/LocalStack"
fi
DATA=$(mktemp -d)
cleanup() { kill "${STACK_PID:-}" "${NGINX_PID:-}" 2>/dev/null || true; rm -rf "$DATA"; }
trap cleanup EXIT

# The per-address limits would otherwise throttle a load generator on one address.
DATA_DIR="$DATA" LOG_LEVEL=error RATE_LIMIT_PER_MINUTE=100000000 LOGIN_RATE_LIMIT_PER_MINUTE=100000000 \
    "$BIN" >"$DATA/stack.log" 2>&1 &
STACK_PID=$!
for _ in $(seq 1 100); do curl -sf localhost:8080/health/live >/dev/null && curl -sf localhost:8081/health/live >/dev/null && break; sleep 0.1; done

PASSWORD="correct horse battery staple"
curl -sf -X POST localhost:8080/v1/auth/register -H 'content-type: application/json' \
    -d "{\"email\":\"bench@example.com\",\"username\":\"bench\",\"password\":\"$PASSWORD\"}" >/dev/null
TOKEN=$(curl -sf -X POST localhost:8080/v1/auth/login -H 'content-type: application/json' \
    -d "{\"identifier\":\"bench\",\"password\":\"$PASSWORD\"}" | sed -E 's/.*"accessToken":"([^"]+)".*/\1/')

cat >"$DATA/login.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"identifier":"bench","password":"$PASSWORD"}'
LUA

# wrk's summary as: requests/s, p50, p99.
summarize() {
    awk '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {errors=$NF}
         END {printf "%10s req/s   p50 %8s   p99 %8s%s\n", rps, p50, p99, (errors ? "   non-2xx " errors : "")}'
}
me() { wrk -t2 -c"$2" -d"${SECONDS_PER_RUN}s" --latency -H "Authorization: Bearer $TOKEN" "$1/v1/users/me" | summarize; }

echo "machine: $(nproc) cores, $(awk '/model name/ {$1=$2=$3=""; print; exit}' /proc/cpuinfo | xargs), $(date -u +%F)"
echo "GET /v1/users/me, wrk -t2 -c64, ${SECONDS_PER_RUN}s each"
printf "  %-22s" "identity directly:"; me http://127.0.0.1:8081 64
printf "  %-22s" "through the gateway:"; me http://127.0.0.1:8080 64
if command -v nginx >/dev/null; then
    cat >"$DATA/nginx.conf" <<NGINX
daemon off; worker_processes 2; pid $DATA/nginx.pid; error_log $DATA/nginx.err;
events { worker_connections 1024; }
http { access_log off;
  upstream identity { server 127.0.0.1:8081; keepalive 64; }
  server { listen 127.0.0.1:8090;
    location / { proxy_pass http://identity; proxy_http_version 1.1; proxy_set_header Connection ""; } } }
NGINX
    nginx -c "$DATA/nginx.conf" & NGINX_PID=$!
    sleep 0.5
    printf "  %-22s" "through nginx:"; me http://127.0.0.1:8090 64
fi
[ -n "${ONLY_ME:-}" ] && exit 0
echo "POST /v1/auth/login (bcrypt cost 12) through the gateway, wrk -t2 -c8"
printf "  %-22s" "logins:"; wrk -t2 -c8 -d"${SECONDS_PER_RUN}s" --latency -s "$DATA/login.lua" http://127.0.0.1:8080/v1/auth/login | summarize
echo "GET /v1/users/me through the gateway (wrk -t1 -c16) while logins run (wrk -t1 -c8)"
wrk -t1 -c8 -d"$((SECONDS_PER_RUN + 2))s" --latency -s "$DATA/login.lua" http://127.0.0.1:8080/v1/auth/login >"$DATA/background.txt" &
LOGINS_PID=$!
sleep 1
printf "  %-22s" "me during logins:"; wrk -t1 -c16 -d"${SECONDS_PER_RUN}s" --latency -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/v1/users/me | summarize
wait "$LOGINS_PID"
printf "  %-22s" "logins meanwhile:"; summarize <"$DATA/background.txt"
