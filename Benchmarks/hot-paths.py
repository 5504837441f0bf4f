#!/usr/bin/env python3
"""Hot paths: what a request costs in each service, through the gateway, and under a mixed product load.

One command, from the repository root:

    Benchmarks/hot-paths.py [--seconds N] [--rounds N] [--only services,gateway,mixed] [--database sqlite|postgres|both]
                            [--replicas N] [--postgres-services LIST] [--pool-max-conns N]

It builds the release LocalStack and Gateway, starts the local stack on a temporary data directory, seeds 20
users through its gateway (each with a household, three chores and a bill, a daily habit with three events, two
pins, six friends, a group conversation with a topic and 60 messages, and the notifications all that sends), then
prints, from one run on this machine:

1. per service: `/health/live` req/s, its hottest signed-in read req/s, their ratio and the stack's CPU per
   request (wrk -t2 -c64, straight at the service's port): `--rounds` rounds of the two, in turn first, medians
   shown and each round's ratio listed;
2. the gateway: identity directly, through a separate Gateway process and through a throwaway nginx with
   keep-alive upstreams, on a light route (`/v1/auth/jwks`) and a heavy one (`/v1/users/me`), with each
   process's CPU per request (its utime + stime from /proc over the run): `--rounds` rounds of the three (3 by
   default), each round in another order, medians shown and each round's gateway/nginx ratios listed, since a
   slow minute on shared cores moves one run by more than the ratios' targets;
3. the mixed read load: each request a random seeded user and one of ten hot reads, through a separate Gateway
   process (wrk -t2 with a Lua script, 16, 32 and 64 connections): req/s, p50, p99 and the CPU per request of
   gateway and stack, `--rounds` runs at each load, medians shown and each run's req/s listed.

`--database both` runs all of it twice in one run, first with every service on SQLite, then with every service the
local stack puts on PostgreSQL on a throwaway PostgreSQL 15 (started from Debian's binaries as the `postgres` user,
default settings, durable), and ends with the runs side by side: each service's hot read and the mixed load, req/s,
p99 and the throughput against the first run. `--replicas N` adds a PostgreSQL run with N local stacks on the same
databases (the second on ports +100, and so on), the measured gateway spreading every service over them.

Needs wrk and nginx (apt-get install wrk nginx-light). LOCAL_STACK_BIN / GATEWAY_BIN measure given release
binaries instead of building this tree's (to compare two versions on one machine).
"""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from statistics import median

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STACK_GATEWAY = "http://127.0.0.1:8080"
GATEWAY_PORT = 8099
NGINX_PORT = 8090
SERVICE_PORTS = {
    "identity": 8081, "social": 8082, "messaging": 8083, "geo": 8084,
    "habits": 8085, "household": 8086, "notifications": 8087,
}
USERS = 20
PASSWORD = "correct horse battery staple"
HZ = os.sysconf("SC_CLK_TCK")


# --- processes ---------------------------------------------------------------------------------------------

def release_binary(product, override):
    if override:
        return override
    build = subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT,
                           capture_output=True, text=True)
    if build.returncode != 0:
        sys.exit(build.stdout + build.stderr)
    bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_path, product)


def wait_until_up(url, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.1)
    sys.exit(f"{url} did not come up")


def port_in_use(port):
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def cpu_seconds(pids):
    """User + system CPU time of these processes so far."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of the whole line)
    return total / HZ


def nginx_pids(master):
    children = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    return [master] + [int(pid) for pid in children]


# --- seeding, through the stack's own gateway --------------------------------------------------------------

def call(method, path, token=None, body=None, expect=(200, 201, 204)):
    request = urllib.request.Request(STACK_GATEWAY + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    if status not in expect:
        sys.exit(f"seeding: {method} {path} answered {status}: {text[:300]!r}")
    return json.loads(text) if text else None


def seed():
    """20 users with everything the ten hot reads show; returns one dict per user (token, ids)."""
    users = []
    for n in range(USERS):
        name = f"bench{n:02d}"
        call("POST", "/v1/auth/register", body={"email": f"{name}@example.com", "username": name, "password": PASSWORD})
        token = call("POST", "/v1/auth/login", body={"identifier": name, "password": PASSWORD})["accessToken"]
        me = call("GET", "/v1/users/me", token)
        users.append({"name": name, "token": token, "id": me["id"]})
    # Each user befriends the next three (a ring), so everyone has friends and a group to share.
    for n, user in enumerate(users):
        for step in (1, 2, 3):
            friend = users[(n + step) % USERS]
            request = call("POST", "/v1/social/friend-requests", user["token"], {"username": friend["name"]},
                           expect=(200, 201, 409))
            if request and request.get("status") == "pending":
                call("POST", f"/v1/social/friend-requests/{request['id']}/accept", friend["token"])
    for n, user in enumerate(users):
        token = user["token"]
        household = call("POST", "/v1/households", token, {"name": f"Flat {n}", "timeZone": "UTC"})
        user["household"] = household["id"]
        for chore in ("Dishes", "Bins", "Water the plants"):
            call("POST", f"/v1/households/{household['id']}/chores", token, {
                "name": chore, "assignment": {"kind": "fixed", "assignee": user["id"]},
                "schedule": {"kind": "everyDays", "every": 3}})
        call("POST", f"/v1/households/{household['id']}/bills", token,
             {"currency": "EUR", "description": "Groceries", "amount": 1000 + n, "split": {"kind": "equal"}})
        habit = call("POST", "/v1/habits", token, {"title": "Run", "startDate": "2026-01-01", "weekdays": [
            "mon", "tue", "wed", "thu", "fri", "sat", "sun"]})
        for days_ago in range(3):
            day = time.strftime("%Y-%m-%d", time.gmtime(time.time() - days_ago * 86400))
            call("POST", f"/v1/habits/{habit['id']}/events", token,
                 {"date": day, "location": {"latitude": 48.85, "longitude": 2.35}})
        for place, (latitude, longitude) in (("Paris", (48.8566, 2.3522)), ("Lyon", (45.764, 4.8357))):
            call("POST", "/v1/geo/pins", token, {"placeName": f"{place} {n}", "latitude": latitude + n / 1000,
                                                  "longitude": longitude + n / 1000})
        friends = [users[(n + step) % USERS]["id"] for step in (1, 2)]
        group = call("POST", "/v1/messaging/conversations/groups", token,
                     {"name": f"Weekend {n}", "memberIds": friends, "product": "wegroup"})
        topic = call("POST", f"/v1/messaging/conversations/{group['id']}/topics", token, {"name": "plans"})
        for m in range(60):
            call("POST", f"/v1/messaging/conversations/{group['id']}/messages", token,
                 {"text": f"message {m}", "topicId": topic["id"]})
        user["conversation"], user["topic"] = group["id"], topic["id"]
    return users


def hot_reads(user):
    """The ten reads of the mixed load, as paths for this user."""
    return [
        "/v1/users/me",
        f"/v1/households/{user['household']}/chores",
        f"/v1/households/{user['household']}/balances",
        "/v1/habits/today",
        "/v1/habits/history",
        "/v1/geo/map?bbox=2.2,48.8,2.5,48.9",
        "/v1/geo/places?query=Paris",
        "/v1/messaging/conversations",
        "/v1/notifications",
        "/v1/social/friends",
    ]


def hottest_reads(user):
    """Each service's hottest signed-in read, as a path for this user."""
    return {
        "identity": "/v1/users/me",
        "social": "/v1/social/friends",
        "messaging": f"/v1/messaging/conversations/{user['conversation']}/messages?topicId={user['topic']}&limit=50",
        "geo": "/v1/geo/map?bbox=2.2,48.8,2.5,48.9",
        "habits": "/v1/habits/today",
        "household": f"/v1/households/{user['household']}/chores",
        "notifications": "/v1/notifications",
    }


# --- load --------------------------------------------------------------------------------------------------

def wrk(url, seconds, connections=64, token=None, script=None):
    """Runs wrk; returns (req/s, p50 ms, p99 ms, requests, non-2xx)."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if token:
        command += ["-H", f"Authorization: Bearer {token}"]
    if script:
        command += ["-s", script]
    output = subprocess.run(command + [url], check=True, capture_output=True, text=True).stdout
    rps = p50 = p99 = 0.0
    requests = errors = 0
    for line in output.splitlines():
        words = line.split()
        if line.startswith("Requests/sec"):
            rps = float(words[1])
        elif "requests in" in line:
            requests = int(words[0])
        elif words[:1] == ["50%"]:
            p50 = milliseconds(words[1])
        elif words[:1] == ["99%"]:
            p99 = milliseconds(words[1])
        elif line.startswith("  Non-2xx"):
            errors = int(words[-1])
    return rps, p50, p99, requests, errors


def milliseconds(text):
    for unit, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    return float(text)


def measure(url, seconds, pids, connections=64, token=None, script=None):
    """wrk after a one-second warm-up; adds each named process group's CPU µs per request."""
    wrk(url, 1, connections, token, script)
    before = {name: cpu_seconds(group) for name, group in pids.items()}
    rps, p50, p99, requests, errors = wrk(url, seconds, connections, token, script)
    cpu = {name: (cpu_seconds(group) - before[name]) * 1e6 / max(requests, 1) for name, group in pids.items()}
    if errors:
        print(f"    ! {errors} non-2xx answers from {url}", file=sys.stderr)
    return rps, p50, p99, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=5, help="seconds per wrk run (default 5)")
    parser.add_argument("--only", default="services,gateway,mixed")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of live and hot read per service, and of direct, gateway, nginx (default 3)")
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="sqlite",
                        help="where the services keep their data (default sqlite)")
    parser.add_argument("--replicas", type=int, default=1,
                        help="with PostgreSQL: run this many local stacks on the same databases, the measured gateway "
                             "spreading each service's requests over them (default 1)")
    parser.add_argument("--postgres-services", default="",
                        help="with PostgreSQL: also run with only these services (comma-separated) on it, the others "
                             "on SQLite (LocalStack's POSTGRES_SERVICES)")
    parser.add_argument("--pool-max-conns", type=int,
                        help="with PostgreSQL: connections each service holds at most (DATABASE_URL's pool_max_conns)")
    parser.add_argument("--hold", action="store_true",
                        help="seed, start the gateway, print a token and the hot paths, then wait (for perf)")
    arguments = parser.parse_args()
    parts = set(arguments.only.split(","))
    if arguments.replicas > 1 and arguments.database == "sqlite":
        sys.exit("--replicas needs --database postgres or both (replicas share a PostgreSQL database)")
    for tool in ("wrk", "nginx"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is needed: apt-get install wrk nginx-light")
    stack_bin = release_binary("LocalStack", os.environ.get("LOCAL_STACK_BIN"))
    gateway_bin = release_binary("Gateway", os.environ.get("GATEWAY_BIN"))
    # A plain `kill` ends the run through the `finally` blocks, which stop what they started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))
    # The runs, one after the other: (label, database, replicas, services on PostgreSQL). With --replicas N,
    # PostgreSQL runs once with one stack and once with N, so that the comparison shows what the replicas add on this
    # machine; with --postgres-services, once more with only those services on it.
    runs = [("sqlite", "sqlite", 1, "")] if arguments.database in ("sqlite", "both") else []
    if arguments.database in ("postgres", "both"):
        runs.append(("postgres", "postgres", 1, ""))
        if arguments.postgres_services:
            runs.append((f"pg: {arguments.postgres_services}"[:27], "postgres", 1, arguments.postgres_services))
        if arguments.replicas > 1:
            runs.append((f"postgres x{arguments.replicas}", "postgres", arguments.replicas, ""))
    results = {}
    for label, database, replicas, services in runs:
        if len(runs) > 1:
            print(f"\n=== {label} ===", flush=True)
        if database == "postgres":
            with throwaway_postgres() as server_url:
                if arguments.pool_max_conns:
                    server_url += f"&pool_max_conns={arguments.pool_max_conns}"
                results[label] = run(arguments, parts, stack_bin, gateway_bin, server_url, replicas, services)
        else:
            results[label] = run(arguments, parts, stack_bin, gateway_bin, None, 1)
    if len(runs) > 1:
        compare(results)


def run(arguments, parts, stack_bin, gateway_bin, database_url, replicas, postgres_services=""):
    """Starts the stack (its PostgreSQL services on `database_url`'s server when given), seeds it, measures `parts`,
    and returns the figures the comparison needs: {(kind, name): (req/s, p99 ms)}."""
    # Replica n (from 0) of the stack: its gateway on 8080 + 100 n, its services on their ports + 100 n.
    ports = [port + 100 * n for n in range(replicas) for port in [8080, *SERVICE_PORTS.values()]]
    busy = [port for port in [GATEWAY_PORT, NGINX_PORT, *ports] if port_in_use(port)]
    if busy:
        sys.exit(f"ports {busy} are taken: is another stack running?")
    figures = {}
    data = tempfile.mkdtemp()
    processes = []
    quiet = {"LOG_LEVEL": "error", "RATE_LIMIT_PER_MINUTE": "100000000", "LOGIN_RATE_LIMIT_PER_MINUTE": "100000000"}
    try:
        database = {"DATABASE_URL": database_url} if database_url else {}
        if database_url and postgres_services:
            database["POSTGRES_SERVICES"] = postgres_services
        stack = subprocess.Popen([stack_bin], env={**os.environ, **quiet, **database, "DATA_DIR": data},
                                 stdout=subprocess.DEVNULL, stderr=open(os.path.join(data, "stack.log"), "w"))
        processes.append(stack)
        wait_until_up(STACK_GATEWAY + "/health/ready")
        users = seed()
        with open(os.path.join(data, "development-secrets", "internal-token")) as file:
            internal_token = file.read().strip()
        # The other replicas share the first's data folder for its development secrets (one signing key, one
        # internal token); their data is in the same PostgreSQL databases.
        for n in range(1, replicas):
            replica = subprocess.Popen([stack_bin], env={**os.environ, **quiet, **database, "DATA_DIR": data,
                                                         "GATEWAY_PORT": str(8080 + 100 * n),
                                                         "SERVICE_PORT_BASE": str(8081 + 100 * n)},
                                       stdout=subprocess.DEVNULL, stderr=open(os.path.join(data, f"stack-{n}.log"), "w"))
            processes.append(replica)
            wait_until_up(f"http://127.0.0.1:{8080 + 100 * n}/health/ready")
        upstreams = {f"{service.upper()}_URL": ",".join(f"http://127.0.0.1:{port + 100 * n}" for n in range(replicas))
                     for service, port in SERVICE_PORTS.items()}
        gateway = subprocess.Popen([gateway_bin], env={**os.environ, **quiet, **upstreams, "PORT": str(GATEWAY_PORT),
                                                       "INTERNAL_TOKEN": internal_token},
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(gateway)
        wait_until_up(f"http://127.0.0.1:{GATEWAY_PORT}/health/live")

        if arguments.hold:
            user = users[0]
            print(f"stack pid {stack.pid}, gateway pid {gateway.pid} on :{GATEWAY_PORT}; token of {user['name']}:", flush=True)
            print(user["token"])
            for service, path in hottest_reads(user).items():
                print(f"  {service}: http://127.0.0.1:{SERVICE_PORTS[service]}{path}")
            print("\n".join(hot_reads(user)), flush=True)
            write_mixed_script(os.path.join(ROOT, ".build", "mixed.lua"), users)
            print("mixed-load script: .build/mixed.lua; Ctrl-C ends", flush=True)
            while True:
                time.sleep(3600)
        cpu_model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
        print(f"machine: {os.cpu_count()} cores, {cpu_model}, {time.strftime('%Y-%m-%d')}; "
              f"wrk -t2, {arguments.seconds} s per run, release builds")
        seconds = arguments.seconds
        first = users[0]
        stacks = [process.pid for process in processes if process is not gateway]
        stack_only = {"stack": stacks}

        if "services" in parts:
            hottest = hottest_reads(first)
            print("\nper service, straight at its port (-c64): /health/live vs its hottest signed-in read;"
                  f"\n{arguments.rounds} rounds of the two, each round in another order, medians shown, each round's ratio listed")
            print(f"  {'service':<14}{'live req/s':>11}{'CPU/req':>9}   {'hot read':<34}{'req/s':>8}{'CPU/req':>9}{'p99':>9}{'ratio':>7}")
            for service, path in hottest.items():
                base = f"http://127.0.0.1:{SERVICE_PORTS[service]}"
                # As for the gateway: the ratio is taken within each round (live and the hot read one after the
                # other, in turn first), so a slow minute on shared cores moves one round's ratio, not the median.
                rounds = []
                for round_number in range(arguments.rounds):
                    runs = [("live", base + "/health/live", None), ("hot", base + path, first["token"])]
                    measured = {label: measure(url, seconds, stack_only, token=token)
                                for label, url, token in (runs if round_number % 2 == 0 else runs[::-1])}
                    rounds.append((measured["live"], measured["hot"]))
                live_rps = median(live[0] for live, _ in rounds)
                live_cpu = median(live[3]["stack"] for live, _ in rounds)
                hot_rps = median(hot[0] for _, hot in rounds)
                hot_cpu = median(hot[3]["stack"] for _, hot in rounds)
                hot_p99 = median(hot[2] for _, hot in rounds)
                ratios = [hot[0] / live[0] for live, hot in rounds]
                figures[("hot read", service)] = (hot_rps, hot_p99)
                shown = path.split("?")[0].replace(first.get("conversation", "-"), "{id}").replace(first["household"], "{id}")
                print(f"  {service:<14}{live_rps:>11,.0f}{live_cpu:>7.0f}µs   {shown:<34}{hot_rps:>8,.0f}"
                      f"{hot_cpu:>7.0f}µs{hot_p99:>7.1f}ms{median(ratios):>6.2f}x  "
                      f"({', '.join(f'{ratio:.2f}' for ratio in ratios)})")

        if "gateway" in parts:
            nginx = start_nginx(data)
            processes.append(nginx)
            rounds = arguments.rounds
            print("\ngateway (-c64): identity directly, through the Gateway process, through nginx (keep-alive upstream);"
                  f"\n{rounds} rounds of the three, each round in another order, medians shown")
            print(f"  {'route':<16}{'path':<10}{'req/s':>9}{'p99':>9}{'proxy CPU/req':>15}{'identity CPU/req':>18}")
            paths = [("direct", 8081, None), ("gateway", GATEWAY_PORT, [gateway.pid]),
                     ("nginx", NGINX_PORT, nginx_pids(nginx.pid))]
            for route, token in (("/v1/auth/jwks", None), ("/v1/users/me", first["token"])):
                # On shared cores one minute can be slower than the next: the ratios are taken within each round,
                # whose three runs follow each other, so a slow minute moves one round's ratios, not the median.
                runs = {label: [] for label, _, _ in paths}
                for round_number in range(rounds):
                    for label, port, proxy in paths[round_number % 3:] + paths[:round_number % 3]:
                        groups = dict(stack_only)
                        if proxy:
                            groups["proxy"] = proxy
                        rps, _, p99, cpu = measure(f"http://127.0.0.1:{port}{route}", seconds, groups, token=token)
                        runs[label].append((rps, p99, cpu.get("proxy"), cpu["stack"]))
                for label, _, proxy in paths:
                    def column(index):
                        return median(run[index] for run in runs[label])
                    shown_cpu = f"{column(2):.0f}µs" if proxy else "-"
                    print(f"  {route:<16}{label:<10}{column(0):>9,.0f}{column(1):>7.1f}ms{shown_cpu:>15}"
                          f"{column(3):>16.0f}µs")
                throughput = [g[0] / n[0] for g, n in zip(runs["gateway"], runs["nginx"])]
                cpu_ratio = [g[2] / n[2] for g, n in zip(runs["gateway"], runs["nginx"])]
                direct = [g[0] / d[0] for g, d in zip(runs["gateway"], runs["direct"])]
                listed = lambda ratios: ", ".join(f"{ratio:.2f}" for ratio in ratios)
                print(f"  {'':<16}gateway/nginx {median(throughput):.2f}x throughput ({listed(throughput)}), "
                      f"{median(cpu_ratio):.2f}x CPU ({listed(cpu_ratio)}); "
                      f"gateway/direct {median(direct):.2f}x ({listed(direct)})")

        if "mixed" in parts:
            script = os.path.join(data, "mixed.lua")
            write_mixed_script(script, users)
            print(f"\nmixed read load through the Gateway process: {USERS} users x 10 hot reads, a random one per request;"
                  f" {arguments.rounds} rounds at each load, medians shown, each round's req/s listed")
            print(f"  {'connections':<12}{'req/s':>9}{'p50':>9}{'p99':>9}{'gateway CPU/req':>17}{'stack CPU/req':>15}")
            for connections in (16, 32, 64):
                runs = [measure(f"http://127.0.0.1:{GATEWAY_PORT}", seconds,
                                {"gateway": [gateway.pid], "stack": stacks},
                                connections=connections, script=script) for _ in range(arguments.rounds)]
                rps, p50, p99 = (median(run[i] for run in runs) for i in range(3))
                cpu = {name: median(run[3][name] for run in runs) for name in ("gateway", "stack")}
                print(f"  {connections:<12}{rps:>9,.0f}{p50:>7.1f}ms{p99:>7.1f}ms{cpu['gateway']:>15.0f}µs{cpu['stack']:>13.0f}µs"
                      f"  ({', '.join(f'{run[0]:,.0f}' for run in runs)})")
                figures[("mixed", f"-c{connections}")] = (rps, p99)
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(data, ignore_errors=True)
    return figures


def compare(results):
    """The runs side by side (on PostgreSQL: every service LocalStack puts there): req/s and p99 of each load, and
    each run's throughput against the first's."""
    labels = list(results)
    first = results[labels[0]]
    print(f"\nthe runs side by side, same machine: req/s, p99 and throughput against {labels[0]}")
    print(f"  {'load':<24}" + "".join(f"{label:>28}" for label in labels))
    for key in first:
        cells = []
        for label in labels:
            if key not in results[label]:
                cells.append(f"{'-':>28}")
                continue
            rps, p99 = results[label][key]
            cells.append(f"{rps:>10,.0f}{p99:>9.1f}ms{rps / first[key][0]:>7.2f}x")
        print(f"  {key[0] + ' ' + key[1]:<24}" + "".join(cells))


class throwaway_postgres:
    """A PostgreSQL 15 server in a temporary folder on port 5499, run as the `postgres` user when this runs as
    root (PostgreSQL refuses root), with its default (durable) settings; yields the server's URL, no database."""

    port = 5499

    def __enter__(self):
        binaries = "/usr/lib/postgresql/15/bin"
        if not os.path.exists(f"{binaries}/postgres"):
            sys.exit("PostgreSQL 15 is needed for --database postgres|both: apt-get install postgresql-15")
        if port_in_use(self.port):
            sys.exit(f"port {self.port} is taken")
        self.folder = tempfile.mkdtemp(prefix="bench-postgres-")
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        subprocess.run(as_postgres + [f"{binaries}/initdb", "-D", f"{self.folder}/data", "-A", "trust",
                                      "-U", "postgres", "-E", "UTF8", "--locale=C"],
                       check=True, stdout=subprocess.DEVNULL)
        self.server = subprocess.Popen(
            as_postgres + [f"{binaries}/postgres", "-D", f"{self.folder}/data", "-p", str(self.port),
                           "-k", self.folder, "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=300"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):
            if subprocess.run([f"{binaries}/pg_isready", "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode == 0:
                return f"postgres://postgres@127.0.0.1:{self.port}?sslmode=disable"
            time.sleep(0.1)
        sys.exit("the throwaway PostgreSQL did not start")

    def __exit__(self, *_):
        self.server.terminate()
        try:
            self.server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.server.kill()
        shutil.rmtree(self.folder, ignore_errors=True)




def start_nginx(data):
    config = os.path.join(data, "nginx.conf")
    with open(config, "w") as file:
        file.write(f"""daemon off; worker_processes 2; pid {data}/nginx.pid; error_log {data}/nginx.err;
events {{ worker_connections 1024; }}
http {{ access_log off;
  upstream identity {{ server 127.0.0.1:8081; keepalive 64; }}
  server {{ listen 127.0.0.1:{NGINX_PORT};
    location / {{ proxy_pass http://identity; proxy_http_version 1.1; proxy_set_header Connection ""; }} }} }}
""")
    nginx = subprocess.Popen(["nginx", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until_up(f"http://127.0.0.1:{NGINX_PORT}/health/live")
    return nginx


def write_mixed_script(path, users):
    """A wrk script whose every request is a random (user, read) pair from the seeded users."""
    pairs = [(user["token"], read) for user in users for read in hot_reads(user)]
    entries = ",\n".join(f'  {{"{token}", "{read}"}}' for token, read in pairs)
    with open(path, "w") as file:
        file.write(f"""local pairs = {{
{entries}
}}
math.randomseed(os.time())
request = function()
  local pair = pairs[math.random(#pairs)]
  return wrk.format("GET", pair[2], {{["Authorization"] = "Bearer " .. pair[1]}})
end
""")


if __name__ == "__main__":
    main()
