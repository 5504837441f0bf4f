#!/usr/bin/env bash
# Compares two gateway builds on GET /v1/users/me (wrk -t2 -c64): each runs as its own process in front of the
# same local stack, in turn, for several rounds, and the gateway process's own CPU time per request is read from
# /proc. Use it to show a change to the gateway costs nothing: build the Gateway product of both versions in
# release (e.g. a `git worktree` of the old commit), then
#   Benchmarks/gateway-compare.sh OLD/.build/release/Gateway .build/release/Gateway [rounds] [seconds]
# The local stack is this tree's release LocalStack (built if missing). Needs wrk.
#
# The cost of tracing: compare one build with itself, tracing off ("before") and on ("after"), exporting to a
# local OTLP sink that accepts and discards (OTLP_SINK=1 starts one: python3's http.server on 127.0.0.1:4318):
#   OTLP_SINK=1 AFTER_ENV="OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318" \
#       Benchmarks/gateway-compare.sh .build/release/Gateway .build/release/Gateway
# BEFORE_ENV / AFTER_ENV: extra VAR=value words for that gateway's environment. With tracing off the gateway
# still forwards a traceparent; on, it also records and exports a span per request (swift-otel's batch
# processor: by default a batch every 5 s, at most 2048 queued; OTEL_BSP_* change that).
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1; AFTER=$2; ROUNDS=${3:-3}; SECS=${4:-10}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
swift build -c release --product LocalStack 2>&1 | grep -E "error|Build" | tail -1 >&2
STACK_BIN="$(swift build -c release --show-bin-path)/LocalStack"
DATA=$(mktemp -d)
cleanup() { kill "${STACK:-}" "${GW:-}" "${SINK:-}" 2>/dev/null || true; rm -rf "$DATA"; }
trap cleanup EXIT
if [ -n "${OTLP_SINK:-}" ]; then
    python3 - >"$DATA/sink.log" 2>&1 <<'PY' &
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
ThreadingHTTPServer(("127.0.0.1", 4318), Sink).serve_forever()
PY
    SINK=$!
fi
DATA_DIR="$DATA" LOG_LEVEL=error RATE_LIMIT_PER_MINUTE=100000000 LOGIN_RATE_LIMIT_PER_MINUTE=100000000 \
    GATEWAY_PORT=8090 "$STACK_BIN" >"$DATA/stack.log" 2>&1 &
STACK=$!
for _ in $(seq 1 200); do curl -sf localhost:8090/health/ready >/dev/null && break; sleep 0.1; done
PASSWORD="correct horse battery staple"
curl -sf -X POST localhost:8090/v1/auth/register -H 'content-type: application/json' \
    -d "{\"email\":\"bench@example.com\",\"username\":\"bench\",\"password\":\"$PASSWORD\"}" >/dev/null
TOKEN=$(curl -sf -X POST localhost:8090/v1/auth/login -H 'content-type: application/json' \
    -d "{\"identifier\":\"bench\",\"password\":\"$PASSWORD\"}" | sed -E 's/.*"accessToken":"([^"]+)".*/\1/')
INTERNAL=$(cat "$DATA/development-secrets/internal-token")
HZ=$(getconf CLK_TCK)
echo "machine: $(nproc) cores, $(awk '/model name/ {$1=$2=$3=""; print; exit}' /proc/cpuinfo | xargs), $(date -u +%F)"
for round in $(seq 1 "$ROUNDS"); do
    for version in before after; do
        binary=$BEFORE; extra=${BEFORE_ENV:-}
        [ "$version" = after ] && binary=$AFTER && extra=${AFTER_ENV:-}
        # shellcheck disable=SC2086 # `extra` is VAR=value words
        env $extra PORT=8099 INTERNAL_TOKEN=$INTERNAL LOG_LEVEL=error RATE_LIMIT_PER_MINUTE=100000000 "$binary" \
            >"$DATA/gw.log" 2>&1 &
        GW=$!
        for _ in $(seq 1 100); do curl -sf localhost:8099/health/live >/dev/null && break; sleep 0.1; done
        wrk -t2 -c64 -d2s -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8099/v1/users/me >/dev/null
        before_ticks=$(awk '{print $14+$15}' "/proc/$GW/stat")
        out=$(wrk -t2 -c64 -d"${SECS}s" --latency -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8099/v1/users/me)
        after_ticks=$(awk '{print $14+$15}' "/proc/$GW/stat")
        requests=$(echo "$out" | awk '/requests in/ {print $1}')
        printf "round %d %-6s %10s req/s   p99 %8s   gateway CPU %4d us/req\n" "$round" "$version" \
            "$(echo "$out" | awk '/Requests\/sec/ {print $2}')" "$(echo "$out" | awk '/^ +99%/ {print $2}')" \
            $(( (after_ticks - before_ticks) * 1000000 / HZ / requests ))
        kill "$GW"; wait "$GW" 2>/dev/null || true; GW=
    done
done
