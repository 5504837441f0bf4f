#!/usr/bin/env bash
# Failover drill (issues 42 and 43): three PostgreSQL 15 nodes under Patroni, a three-member etcd, HAProxy in
# front, the whole platform (LocalStack: every service and the gateway in one process, every PostgreSQL service on
# HAProxy) under a mixed workload: four writers post household bills, two post messages, four readers send the
# ten hot reads through the gateway; the primary is killed (kill -9), then the new one stopped cleanly. Prints per
# scenario: seconds until writes are accepted again, acknowledged bills and messages, found, duplicates, missing,
# reads, failed reads, the longest stretch of failed reads, seconds until reads are answered again, seconds until
# the old primary streams again as a replica. Exits 1 if any fails.
# Everything runs on 127.0.0.1 in a temporary folder removed at the end. See README.md here.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BASE=25400 BINARIES="" MODE=stack KEEP=no
usage() {
    echo "usage: $0 [--binaries DIR] [--base-port N] [--split | --sql] [--keep]"
    echo "  --binaries DIR  folder with LocalStack and its *.resources bundles (--split: Identity, Household and Gateway)"
    echo "                  (default: the repo's .build/release or .build/debug)"
    echo "  --base-port N   first of the ports used, N to N+47 (default 25400)"
    echo "  --split         issue 42's drill: identity, household and the gateway as separate processes, bills only"
    echo "  --sql           no platform: the writers insert rows straight into PostgreSQL through HAProxy"
    echo "  --keep          keep the temporary folder (logs, data) after the end"
}
while [ $# -gt 0 ]; do
    case $1 in
        --binaries) BINARIES=$2; shift 2 ;;
        --base-port) BASE=$2; shift 2 ;;
        --sql) MODE=sql; shift ;;
        --split) MODE=split; shift ;;
        --keep) KEEP=yes; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done

step() { printf '%s  %s\n' "$(date -u +%T)" "$*"; }
die() { printf 'drill: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# Polls a command until it succeeds, for at most $1 seconds: no wait in the drill is unbounded.
poll() {
    local end=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $end ] || return 1
        sleep 0.2
    done
}
wait_for() { local what=$1; shift; poll "$@" || die "$what: not within $1 s"; }
[ "$(id -u)" = 0 ] || die "run as root (PostgreSQL runs as the postgres user, switched to with setpriv)"

# What it needs, installed from Debian if absent.
missing=()
for package in postgresql-15 patroni etcd-server haproxy curl; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    step "installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ $MODE = split ]; then
    if [ -z "$BINARIES" ]; then
        for dir in "$REPO/.build/release" "$REPO/.build/debug"; do
            [ -x "$dir/Identity" ] && [ -x "$dir/Household" ] && [ -x "$dir/Gateway" ] && { BINARIES=$dir; break; }
        done
    fi
    for product in Identity Household Gateway; do
        [ -n "$BINARIES" ] && [ -x "$BINARIES/$product" ] || die "no $product binary; build them first:
  swift build -c release --product Identity && swift build -c release --product Household && swift build -c release --product Gateway
or run the cluster part alone with --sql"
    done
elif [ $MODE = stack ]; then
    if [ -z "$BINARIES" ]; then
        for dir in "$REPO/.build/release" "$REPO/.build/debug"; do
            [ -x "$dir/LocalStack" ] && { BINARIES=$dir; break; }
        done
    fi
    [ -n "$BINARIES" ] && [ -x "$BINARIES/LocalStack" ] || die "no LocalStack binary; build it first:
  swift build -c release --product LocalStack
or run issue 42's drill with --split, or the cluster part alone with --sql"
    # SwiftPM puts each target's resources in a bundle folder next to the executable, where it looks for them.
    compgen -G "$BINARIES/*.resources" >/dev/null || die "no *.resources bundle next to $BINARIES/LocalStack (copy them with it)"
fi

# Ports: etcd clients and peers, PostgreSQL, Patroni's REST API, HAProxy, then the platform. All must be free.
# --split: identity, household, gateway, social (never started: its URL only) at +40 to +43. LocalStack: the
# gateway at +40 (GATEWAY_PORT), its seven services at +41 to +47 (SERVICE_PORT_BASE).
ETCD_CLIENT=($BASE $((BASE + 1)) $((BASE + 2))) ETCD_PEER=($((BASE + 3)) $((BASE + 4)) $((BASE + 5)))
PG=($((BASE + 10)) $((BASE + 11)) $((BASE + 12))) REST=($((BASE + 20)) $((BASE + 21)) $((BASE + 22)))
HAPROXY=$((BASE + 30)) IDENTITY=$((BASE + 40)) HOUSEHOLD=$((BASE + 41)) GATEWAY=$((BASE + 42)) SOCIAL=$((BASE + 43))
if [ $MODE = stack ]; then
    GATEWAY=$((BASE + 40)) SERVICE_BASE=$((BASE + 41))
    PLATFORM=($(seq $((BASE + 40)) $((BASE + 47))))
else
    PLATFORM=($IDENTITY $HOUSEHOLD $GATEWAY $SOCIAL)
fi
for port in "${ETCD_CLIENT[@]}" "${ETCD_PEER[@]}" "${PG[@]}" "${REST[@]}" $HAPROXY "${PLATFORM[@]}"; do
    ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || die "port $port is in use (choose another --base-port)"
done

WORK=$(mktemp -d /tmp/failover-drill.XXXXXX)
chmod 755 "$WORK"
PIDS=() PATRONI=()
# SIGTERM, then SIGKILL for whatever still runs 20 s later, said by name: a process that will not stop shows.
stop() {
    local pid end=$((SECONDS + 20))
    for pid in "$@"; do kill "$pid" 2>/dev/null; done
    for pid in "$@"; do
        while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $end ]; do sleep 0.2; done
        kill -0 "$pid" 2>/dev/null && echo "drill: $(ps -o comm= -p "$pid") still running 20 s after SIGTERM; killed" &&
            kill -9 "$pid"
    done
}
cleanup() {
    local status=$? pid i later=()
    set +e
    trap - EXIT INT TERM
    # In the reverse order of their start: writers and platform, HAProxy, Patroni (which stops its PostgreSQL on
    # SIGTERM, and needs etcd for it), etcd.
    for ((i = ${#PIDS[@]} - 1; i >= 4; i--)); do later+=("${PIDS[i]}"); done
    stop "${later[@]}"
    stop "${PIDS[@]:3:1}"
    stop "${PATRONI[@]}"
    stop "${PIDS[@]:0:3}"
    for file in "$WORK"/pg*/data/postmaster.pid; do
        [ -f "$file" ] && pid=$(head -1 "$file") && kill -9 "$pid" $(pgrep -P "$pid") 2>/dev/null
    done
    if [ $status -ne 0 ]; then
        for log in "$WORK"/*.log "$WORK"/pg*/patroni.log; do
            [ -f "$log" ] && { echo "--- last lines of $log"; tail -n 8 "$log"; }
        done
    fi
    [ $KEEP = yes ] && echo "kept $WORK" || rm -rf "$WORK"
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Runs a command in the background with its output in $WORK/<name>.log.
spawn() { local name=$1; shift; "$@" >"$WORK/$name.log" 2>&1 & PIDS+=($!); disown $!; }

step "work folder $WORK, ports $BASE-$((BASE + 47)), platform: $MODE"

# 1. etcd, three members.
started=$(now)
cluster="" hosts=""
for i in 0 1 2; do
    cluster+="${cluster:+,}e$i=http://127.0.0.1:${ETCD_PEER[$i]}" hosts+="${hosts:+,}127.0.0.1:${ETCD_CLIENT[$i]}"
done
for i in 0 1 2; do
    spawn etcd$i etcd --name e$i --data-dir "$WORK/etcd$i" \
        --listen-client-urls "http://127.0.0.1:${ETCD_CLIENT[$i]}" --advertise-client-urls "http://127.0.0.1:${ETCD_CLIENT[$i]}" \
        --listen-peer-urls "http://127.0.0.1:${ETCD_PEER[$i]}" --initial-advertise-peer-urls "http://127.0.0.1:${ETCD_PEER[$i]}" \
        --initial-cluster "$cluster" --initial-cluster-token drill --initial-cluster-state new \
        --heartbeat-interval 100 --election-timeout 1000
done
for i in 0 1 2; do
    wait_for "etcd member e$i" 30 sh -c "curl -fsS http://127.0.0.1:${ETCD_CLIENT[$i]}/health | grep -q '\"health\":\"true\"'"
done
step "etcd: 3 members healthy ($(since "$started") s)"

# 2. PostgreSQL under Patroni, as the postgres user.
start_patroni() {
    setpriv --reuid=postgres --regid=postgres --init-groups env HOME="$WORK/pg$1" \
        patroni "$WORK/pg$1/patroni.yml" >>"$WORK/pg$1/patroni.log" 2>&1 &
    PATRONI[$1]=$!
    disown "${PATRONI[$1]}" # no job notice when it is killed; bash still reaps it
}
rest() { curl -fsS --max-time 2 "http://127.0.0.1:${REST[$1]}/$2"; }
primary() { for i in 0 1 2; do rest $i primary >/dev/null 2>&1 && { echo $i; return; }; done; return 1; }
healthy() { python3 "$HERE/drill.py" cluster --rest "${REST[0]},${REST[1]},${REST[2]}"; }
started=$(now)
for i in 0 1 2; do
    install -d -o postgres -g postgres -m 700 "$WORK/pg$i"
    sed -e "s|@NAME@|pg$i|; s|@REST_PORT@|${REST[$i]}|g; s|@PG_PORT@|${PG[$i]}|g; s|@ETCD_HOSTS@|$hosts|" \
        -e "s|@DATA_DIR@|$WORK/pg$i/data|; s|@DIR@|$WORK/pg$i|g" "$HERE/patroni.yml" >"$WORK/pg$i/patroni.yml"
    chown postgres:postgres "$WORK/pg$i/patroni.yml"
    start_patroni $i
    [ $i -gt 0 ] || wait_for "the first node's bootstrap" 60 primary
done
wait_for "three running members, one synchronous" 90 healthy
step "patroni: pg$(primary) primary, 2 replicas streaming, 1 synchronous ($(since "$started") s)"

# 3. HAProxy: one port that always reaches the primary.
sed -e "s|@HAPROXY_PORT@|$HAPROXY|; s|@PG0@|${PG[0]}|; s|@PG1@|${PG[1]}|; s|@PG2@|${PG[2]}|" \
    -e "s|@REST0@|${REST[0]}|; s|@REST1@|${REST[1]}|; s|@REST2@|${REST[2]}|" "$HERE/haproxy.cfg" >"$WORK/haproxy.cfg"
spawn haproxy haproxy -db -f "$WORK/haproxy.cfg"
# In the connection string, not PGPASSWORD: a Patroni started later would pass that on to its walreceiver.
SUPER="host=127.0.0.1 port=$HAPROXY user=postgres password=drill-superuser dbname=postgres connect_timeout=3"
# HAProxy counts every server up until its checks say otherwise: wait until three connections in a row (its
# round robin) all reach the primary.
on_primary() { for _ in 1 2 3; do [ "$(psql -XqAt -c "SELECT pg_is_in_recovery()" "$SUPER")" = f ] || return 1; done; }
wait_for "HAProxy reaching only the primary" 30 on_primary
# CREATEDB: LocalStack creates its services' databases itself (platform_<service>); --split's are made here.
psql -Xq -v ON_ERROR_STOP=1 "$SUPER" >/dev/null <<'SQL'
CREATE ROLE platform LOGIN CREATEDB PASSWORD 'drill-platform';
CREATE DATABASE drill OWNER platform;
SQL
if [ $MODE = split ]; then
    psql -Xq -v ON_ERROR_STOP=1 "$SUPER" -c "CREATE DATABASE platform_identity OWNER platform" \
        -c "CREATE DATABASE platform_household OWNER platform" >/dev/null
fi
URL="postgres://platform:drill-platform@127.0.0.1:$HAPROXY"
# The stand-in's table: no unique index on the key, so a duplicate would show instead of failing.
psql -Xq -v ON_ERROR_STOP=1 "$URL/drill" -c "CREATE TABLE bills (id bigserial PRIMARY KEY, key text NOT NULL)" \
    -c "CREATE INDEX ON bills (key)"
step "haproxy: 127.0.0.1:$HAPROXY reaches the primary; databases created"

# 4. The platform. LocalStack: every service and the gateway in one process, each service of its
# postgresServices in its own database (platform_<service>) on HAProxy's server, the others on SQLite in the work
# folder. --split: identity, household and the gateway, the two services on PostgreSQL through HAProxy.
# The last process spawned answers ready on port $1 within 60 s; 1 as soon as it has ended.
ready() {
    local end=$((SECONDS + 60))
    while kill -0 "${PIDS[-1]}" 2>/dev/null && [ $SECONDS -lt $end ]; do
        curl -fsS "http://127.0.0.1:$1/health/ready" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}
if [ $MODE = stack ]; then
    started=$(now)
    spawn stack env GATEWAY_PORT=$GATEWAY SERVICE_PORT_BASE=$SERVICE_BASE DATA_DIR="$WORK/stack" LOG_LEVEL=warning \
        DATABASE_URL="$URL?sslmode=disable" RATE_LIMIT_PER_MINUTE=1000000 LOGIN_RATE_LIMIT_PER_MINUTE=1000000 \
        "$BINARIES/LocalStack"
    for port in "${PLATFORM[@]}"; do
        ready "$port" || die "LocalStack did not start (port $port not ready): $(tail -n 3 "$WORK/stack.log")"
    done
    # Which services are on PostgreSQL: the databases LocalStack created (none of them made by the drill).
    ON_POSTGRES=$(psql -XqAt -c "SELECT string_agg(substr(datname, 10), ',' ORDER BY datname) FROM pg_database
        WHERE datname LIKE 'platform\_%'" "$SUPER")
    [ -n "$ON_POSTGRES" ] || die "LocalStack created no platform_* database: no service is on PostgreSQL"
    step "platform: LocalStack ready from $BINARIES, gateway :$GATEWAY, services :$SERVICE_BASE-$((SERVICE_BASE + 6)) ($(since "$started") s)"
    step "platform: on PostgreSQL (through HAProxy): ${ON_POSTGRES//,/, }; the others on SQLite"
elif [ $MODE = split ]; then
    started=$(now)
    TOKEN=$(head -c 32 /dev/urandom | base64 | tr -d '=+/\n')
    mkdir -p "$WORK/identity" "$WORK/household"
    common=(INTERNAL_TOKEN="$TOKEN" IDENTITY_URL="http://127.0.0.1:$IDENTITY" SOCIAL_URL="http://127.0.0.1:$SOCIAL" LOG_LEVEL=warning)
    spawn identity env "${common[@]}" PORT=$IDENTITY DATA_DIR="$WORK/identity" \
        DATABASE_URL="$URL/platform_identity?sslmode=disable" "$BINARIES/Identity"
    identity_db=PostgreSQL
    if ! ready $IDENTITY; then
        # A build whose identity keeps to SQLite says so and stops; the drill needs only its sign-up.
        grep -q "SQLite only" "$WORK/identity.log" || die "identity did not start: $(tail -n 3 "$WORK/identity.log")"
        identity_db=SQLite
        spawn identity env "${common[@]}" PORT=$IDENTITY DATA_DIR="$WORK/identity" "$BINARIES/Identity"
        ready $IDENTITY || die "identity did not start: $(tail -n 3 "$WORK/identity.log")"
    fi
    spawn household env "${common[@]}" PORT=$HOUSEHOLD DATA_DIR="$WORK/household" \
        DATABASE_URL="$URL/platform_household?sslmode=disable" "$BINARIES/Household"
    ready $HOUSEHOLD || die "household did not start: $(tail -n 3 "$WORK/household.log")"
    spawn gateway env "${common[@]}" PORT=$GATEWAY HOUSEHOLD_URL="http://127.0.0.1:$HOUSEHOLD" \
        RATE_LIMIT_PER_MINUTE=1000000 "$BINARIES/Gateway"
    ready $GATEWAY || die "the gateway did not start: $(tail -n 3 "$WORK/gateway.log")"
    step "platform: household (PostgreSQL), identity ($identity_db), gateway ready from $BINARIES ($(since "$started") s)"
fi

# 5-8. One scenario: the writers (and readers) for ~5 s, the fault, writes until ~5 s after they are accepted
# again, the checks, and the old primary started again until it streams as a replica.
FIGURES=()
scenario() {
    local name=$1 signal=$2 victim pid writer target acks="$WORK/$1.acks" fault promoted again rejoin
    local token household conversation mixed=() messages="- - - -" reads="- - - -"
    target=(--dsn "$URL/drill")
    if [ $MODE != sql ]; then
        [ $MODE = stack ] && mixed=(--mixed)
        read -r token household conversation < <(python3 "$HERE/drill.py" setup --gateway "http://127.0.0.1:$GATEWAY" \
            "${mixed[@]}" 2>"$WORK/$name-setup.log") || true
        [ -n "${household:-}" ] || die "$name: could not set up a user and a household: $(tail -n 1 "$WORK/$name-setup.log")"
        target=(--gateway "http://127.0.0.1:$GATEWAY" --token "$token" --household "$household")
    fi
    mixed=()
    if [ $MODE = stack ]; then
        [ -n "${conversation:-}" ] || die "$name: could not set up the mixed workload: $(tail -n 1 "$WORK/$name-setup.log")"
        : >"$WORK/$name.messages" && : >"$WORK/$name.reads"
        mixed=(--conversation "$conversation" --messages-out "$WORK/$name.messages" --reads-out "$WORK/$name.reads")
    fi
    : >"$acks"
    python3 "$HERE/drill.py" write "${target[@]}" "${mixed[@]}" --prefix "$name" --out "$acks" --stop "$WORK/$name.stop" \
        >"$WORK/$name-writers.log" 2>&1 &
    writer=$!
    PIDS+=($writer)
    sleep 5
    victim=$(primary) || die "$name: no primary before the fault"
    pid=$(head -1 "$WORK/pg$victim/data/postmaster.pid")
    fault=$(now)
    if [ "$signal" = KILL ]; then
        # A machine lost: Patroni, the postmaster and its children, all at once.
        kill -9 "${PATRONI[$victim]}" "$pid" $(pgrep -P "$pid") 2>/dev/null || true
    else
        kill -TERM "${PATRONI[$victim]}"
    fi
    step "$name: $(wc -l <"$acks") bills acknowledged, then kill -$signal pg$victim (the primary)"
    new_primary() { local i; i=$(primary) && [ "$i" != "$victim" ]; }
    wait_for "$name: a new primary" 60 new_primary
    promoted=$(now)
    wait_for "$name: a write accepted again" 60 awk -v t="$promoted" '$3 >= t { found = 1 } END { exit !found }' "$acks"
    step "$name: pg$(primary) is the primary; writes acknowledged again"
    sleep 5
    touch "$WORK/$name.stop"
    wait "$writer" || die "$name: the writers failed: $(tail -n 3 "$WORK/$name-writers.log")"
    again=$(python3 "$HERE/drill.py" verify "${target[@]}" --acks "$acks" --fault-at "$fault")
    if [ $MODE = stack ]; then
        messages=$(python3 "$HERE/drill.py" verify-messages "${target[@]}" --conversation "$conversation" \
            --acks "$WORK/$name.messages")
        reads=$(python3 "$HERE/drill.py" reads --reads "$WORK/$name.reads" --fault-at "$fault")
    fi
    wait_for "$name: the old primary's Patroni to end" 60 sh -c "! kill -0 ${PATRONI[$victim]}"
    started=$(now)
    start_patroni "$victim"
    rejoin=never
    poll 120 healthy && rejoin=$(since "$started")
    step "$name: pg$victim started again: $(healthy || true)"
    FIGURES+=("$name $again $messages $reads $rejoin")
}
scenario kill-9 KILL
scenario clean-stop TERM

# 9. The figures, and whether each must-show holds: writes again within 15 s, every acknowledged bill (and
# message) stored exactly once, reads answered again within 15 s, the old primary streaming again (within 120 s).
echo
columns='%-11s %6s %6s | %6s %6s %4s %5s | %6s %6s %4s %5s | %6s %6s %8s %6s | %8s\n'
printf '%-25s | %-24s | %-24s | %-29s |\n' "            writes" "bills" "messages" "reads"
printf "$columns" scenario again pause acked found dup miss acked found dup miss reads failed longest again rejoined
failed=0
within15() { awk -v a="$1" 'BEGIN { exit !(a != "never" && a + 0 <= 15) }'; }
for row in "${FIGURES[@]}"; do
    read -r name again pause acked found duplicates missing m_acked m_found m_duplicates m_missing \
        reads reads_failed longest reads_again rejoin <<<"$row"
    printf "$columns" "$name" "$again" "$pause" "$acked" "$found" "$duplicates" "$missing" "$m_acked" "$m_found" \
        "$m_duplicates" "$m_missing" "$reads" "$reads_failed" "$longest" "$reads_again" "$rejoin"
    within15 "$again" || { echo "FAIL $name: writes not accepted again within 15 s"; failed=1; }
    [ "$duplicates" = 0 ] && [ "$missing" = 0 ] && [ "$found" = "$acked" ] || { echo "FAIL $name: acknowledged bills lost or doubled"; failed=1; }
    if [ $MODE = stack ]; then
        [ "$m_duplicates" = 0 ] && [ "$m_missing" = 0 ] && [ "$m_found" = "$m_acked" ] ||
            { echo "FAIL $name: acknowledged messages lost or doubled"; failed=1; }
        within15 "$reads_again" || { echo "FAIL $name: reads not answered again within 15 s of the fault"; failed=1; }
    fi
    [ "$rejoin" != never ] || { echo "FAIL $name: the old primary did not rejoin as a replica"; failed=1; }
done
[ $MODE != stack ] || echo "on PostgreSQL: ${ON_POSTGRES//,/, } (the other services on SQLite)"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), $(. /etc/os-release; echo "$PRETTY_NAME");" \
    "PostgreSQL $(/usr/lib/postgresql/15/bin/postgres -V | awk '{ print $3 }'), $(patroni --version), etcd $(etcd --version | awk 'NR == 1 { print $3 }')," \
    "HAProxy $(haproxy -v | awk 'NR == 1 { print $3 }')"
[ $failed = 0 ] && step "drill passed" || step "drill FAILED"
exit $failed
