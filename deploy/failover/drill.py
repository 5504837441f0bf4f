#!/usr/bin/env python3
"""The drill's writers, its check and the cluster's state (stdlib only); drill.sh calls it.

  drill.py setup   --gateway URL                       -> prints "<token> <household id>"
  drill.py write   --out ACKS --stop FILE (--gateway URL --token T --household H | --dsn DSN)
  drill.py verify  --acks ACKS --fault-at EPOCH (--gateway ... | --dsn ...)
                                                       -> prints "accepted_again pause acked found duplicates missing"
  drill.py cluster --rest PORT,PORT,PORT               -> prints the members; exit 0 only when all is well

Four writers post bills, each with its own Idempotency-Key; a failed attempt (5xx, 429, connection error,
timeout) is retried with the same key until it is acknowledged. Every acknowledgement is one line of ACKS:
key, bill id, start of the attempt that succeeded, time of the acknowledgement. With --dsn the writers insert
rows straight into PostgreSQL through psql instead (the stand-in before the platform's binaries exist).
"""
import argparse, json, os, subprocess, sys, threading, time, urllib.error, urllib.request, uuid
from http.client import HTTPException

WRITERS = 4
HARD_LIMIT = 120  # seconds: a writer never runs longer than this, whatever happens to the stop file
TIMEOUT = 5       # seconds per attempt


def http(method, url, body=None, token=None, key=None):
    """(status, parsed JSON or None); a connection error or timeout raises OSError."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    if key:
        headers["Idempotency-Key"] = key
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def setup(args):
    # A fresh user and household per scenario, so each scenario's check sees only its own bills.
    name = "drill" + uuid.uuid4().hex[:12]
    account = {"username": name, "email": name + "@example.com", "password": uuid.uuid4().hex}
    status, pair = http("POST", args.gateway + "/v1/auth/register", account)
    if status != 201:
        sys.exit(f"register answered {status}")
    token = pair["accessToken"]
    status, household = http("POST", args.gateway + "/v1/households", {"name": "Drill", "timeZone": "UTC"}, token)
    if status != 201:
        sys.exit(f"create household answered {status}")
    print(token, household["id"])


def post_bill(args, key, n):
    """The bill's id once acknowledged, None to try again; a refusal that a retry cannot fix stops the drill."""
    if args.dsn:
        # The same rule the service keeps: one row per key, an existing row answered again.
        sql = (f"WITH ins AS (INSERT INTO bills (key) SELECT '{key}' WHERE NOT EXISTS "
               f"(SELECT 1 FROM bills WHERE key = '{key}') RETURNING id) "
               f"SELECT id FROM ins UNION ALL SELECT id FROM bills WHERE key = '{key}' LIMIT 1")
        try:
            done = subprocess.run(["psql", "-XqAt", "-v", "ON_ERROR_STOP=1", "-c", sql, args.dsn],
                                  capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return None
        return (done.stdout.strip() or None) if done.returncode == 0 else None
    body = {"description": key, "amount": 100 + n % 900, "currency": "EUR", "split": {"kind": "equal"}}
    try:
        status, bill = http("POST", f"{args.gateway}/v1/households/{args.household}/bills", body, args.token, key)
    except (OSError, HTTPException, ValueError):  # no answer, a cut one, or one that is not JSON
        return None
    if status in (200, 201):
        return bill["id"]
    if status >= 500 or status == 429:
        return None
    raise RuntimeError(f"{key}: answered {status}")


def write(args):
    lock, failures = threading.Lock(), []
    out = open(args.out, "a", buffering=1)
    deadline = time.time() + HARD_LIMIT

    def writer(w):
        n = 0
        while not os.path.exists(args.stop) and time.time() < deadline:
            n += 1
            key = f"{args.prefix}-w{w}-{n:06d}"
            while time.time() < deadline:
                started = time.time()
                try:
                    bill = post_bill(args, key, n)
                except RuntimeError as error:
                    failures.append(str(error))
                    return
                if bill:
                    with lock:
                        out.write(f"{key}\t{bill}\t{started:.3f}\t{time.time():.3f}\n")
                    break
                time.sleep(0.1)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit("writer stopped: " + failures[0])


def stored_bills(args):
    """Every stored bill as (key, id)."""
    if args.dsn:
        out = subprocess.run(["psql", "-XqAt", "-F", "\t", "-c", "SELECT key, id FROM bills", args.dsn],
                             capture_output=True, text=True, check=True, timeout=30).stdout
        return [tuple(line.split("\t")) for line in out.splitlines() if line]
    bills, cursor = [], None
    for _ in range(10000):  # pages of 100: far more than a drill writes
        url = f"{args.gateway}/v1/households/{args.household}/bills?limit=100"
        status, page = http("GET", url + (f"&cursor={cursor}" if cursor else ""), token=args.token)
        if status != 200:
            sys.exit(f"listing bills answered {status}")
        bills += [(bill.get("description"), bill["id"]) for bill in page["items"]]
        cursor = page.get("nextCursor")
        if not cursor:
            return bills
    sys.exit("listing bills did not end")


def verify(args):
    acks = [line.rstrip("\n").split("\t") for line in open(args.acks) if line.strip()]
    stored = {}
    for key, bill in stored_bills(args):
        stored.setdefault(key, []).append(bill)
    duplicates = sum(len(stored.get(key, [])) > 1 for key, *_ in acks)
    missing = sum(bill not in stored.get(key, []) for key, bill, *_ in acks)
    found = sum(bill in stored.get(key, []) for key, bill, *_ in acks)
    # Accepted again: the end of the longest pause in acknowledgements after the fault (the first pause starts at
    # the fault), counted from the fault. A clean stop lets writes go on for a moment before the pause starts.
    times = [args.fault_at] + sorted(float(acked) for *_, acked in acks if float(acked) > args.fault_at)
    pause, resumed = max(((b - a, b) for a, b in zip(times, times[1:])), default=(None, None))
    again = f"{resumed - args.fault_at:.1f} {pause:.1f}" if pause else "never never"
    print(again, len(acks), found, duplicates, missing)


def cluster(args):
    """Healthy: three members on one timeline, one primary, each replica streaming from it, one synchronous."""
    def get(port, path):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=2) as response:
            return json.loads(response.read())
    members = None
    for port in args.rest.split(","):
        try:
            members = get(port, "cluster")["members"]
            break
        except (OSError, ValueError):
            continue
    if not members:
        sys.exit("no Patroni answers")
    leaders = [m for m in members if m["role"] == "leader"]
    streaming = {}
    if len(leaders) == 1:
        try:
            streaming = {r["application_name"]: r for r in get(leaders[0]["api_url"].split(":")[-1].split("/")[0],
                                                                "patroni").get("replication", [])}
        except (OSError, ValueError):
            pass
    print(", ".join(f"{m['name']} {m['role']} {m['state']} tl {m.get('timeline', '?')}" +
                    (" streaming" if streaming.get(m["name"], {}).get("state") == "streaming" else "")
                    for m in sorted(members, key=lambda m: m["name"])))
    timelines = {m.get("timeline") for m in members}
    replicas = [m for m in members if m["role"] != "leader"]
    well = (len(members) == 3 and len(leaders) == 1 and len(timelines) == 1
            and all(m["state"] == "running" for m in members)
            and all(streaming.get(m["name"], {}).get("state") == "streaming" for m in replicas)
            and sum(m["role"] == "sync_standby" for m in members) == 1)
    sys.exit(0 if well else 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["setup", "write", "verify", "cluster"])
    for option in ("--gateway", "--token", "--household", "--dsn", "--out", "--stop", "--acks", "--rest"):
        parser.add_argument(option)
    parser.add_argument("--prefix", default="drill")
    parser.add_argument("--fault-at", type=float)
    args = parser.parse_args()
    {"setup": setup, "write": write, "verify": verify, "cluster": cluster}[args.command](args)


if __name__ == "__main__":
    main()
