#!/usr/bin/env python3
"""The drill's writers, its check and the cluster's state (stdlib only); drill.sh calls it.

  drill.py setup   --gateway URL [--mixed]             -> prints "<token> <household id> [<conversation id>]"
  drill.py write   --out ACKS --stop FILE (--gateway URL --token T --household H | --dsn DSN)
                   [--conversation C --messages-out ACKS2] [--reads-out READS]
  drill.py verify  --acks ACKS --fault-at EPOCH (--gateway ... | --dsn ...)
                                                       -> prints "accepted_again pause acked found duplicates missing"
  drill.py verify-messages --acks ACKS2 --gateway URL --token T --conversation C
                                                       -> prints "acked found duplicates missing"
  drill.py reads   --reads READS --fault-at EPOCH      -> prints "reads failed longest_failed_stretch answered_again"
  drill.py cluster --rest PORT,PORT,PORT               -> prints the members; exit 0 only when all is well

Four writers post bills, each with its own Idempotency-Key; a failed attempt (5xx, 429, connection error,
timeout) is retried with the same key until it is acknowledged. Every acknowledgement is one line of ACKS:
key, bill id, start of the attempt that succeeded, time of the acknowledgement. With --dsn the writers insert
rows straight into PostgreSQL through psql instead (the stand-in before the platform's binaries exist).

The mixed workload (--conversation, --reads-out; the whole platform, set up with `setup --mixed`): two more
writers post messages into a group conversation the same way (a key per message, retried until acknowledged),
and four readers send the ten hot reads of every product through the gateway (the mixed load of
Benchmarks/hot-paths.py), one line of READS per read: path, start, end, 1 if answered 200 else 0.
"""
import argparse, json, os, subprocess, sys, threading, time, urllib.error, urllib.request, uuid
from http.client import HTTPException

WRITERS = 4
MESSAGE_WRITERS = 2
READERS = 4
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
    if not args.mixed:
        print(token, household["id"])
        return
    print(token, household["id"], seed_mixed(args.gateway, name, token, household["id"]))


def seed_mixed(gateway, name, token, household):
    """What the ten hot reads show (as Benchmarks/hot-paths.py seeds it, smaller): two friends, a chore, a habit
    done today, two pins, a group conversation; returns the conversation's id."""
    def must(method, path, body=None, as_token=token, expect=(200, 201, 204)):
        status, answer = http(method, gateway + path, body, as_token)
        if status not in expect:
            sys.exit(f"seeding: {method} {path} answered {status}")
        return answer
    me = must("GET", "/v1/users/me")["id"]
    friends = []
    for n in (1, 2):
        friend = f"{name}f{n}"
        pair = must("POST", "/v1/auth/register", {"username": friend, "email": friend + "@example.com",
                                                  "password": uuid.uuid4().hex}, as_token=None)
        request = must("POST", "/v1/social/friend-requests", {"username": friend})
        if request and request.get("status") == "pending":
            must("POST", f"/v1/social/friend-requests/{request['id']}/accept", as_token=pair["accessToken"])
        friends.append(must("GET", "/v1/users/me", as_token=pair["accessToken"])["id"])
    must("POST", f"/v1/households/{household}/chores", {"name": "Dishes", "assignment": {"kind": "fixed", "assignee": me},
                                                        "schedule": {"kind": "everyDays", "every": 3}})
    habit = must("POST", "/v1/habits", {"title": "Run", "startDate": "2026-01-01",
                                        "weekdays": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]})
    must("POST", f"/v1/habits/{habit['id']}/events", {"date": time.strftime("%Y-%m-%d", time.gmtime()),
                                                      "location": {"latitude": 48.85, "longitude": 2.35}})
    for place, latitude, longitude in (("Paris", 48.8566, 2.3522), ("Lyon", 45.764, 4.8357)):
        must("POST", "/v1/geo/pins", {"placeName": f"{place} drill", "latitude": latitude, "longitude": longitude})
    group = must("POST", "/v1/messaging/conversations/groups", {"name": "Drill", "memberIds": friends,
                                                                "product": "wegroup"})
    return group["id"]


def hot_reads(household):
    """The ten reads of Benchmarks/hot-paths.py's mixed load (its hot_reads), as paths."""
    return [
        "/v1/users/me",
        f"/v1/households/{household}/chores",
        f"/v1/households/{household}/balances",
        "/v1/habits/today",
        "/v1/habits/history",
        "/v1/geo/map?bbox=2.2,48.8,2.5,48.9",
        "/v1/geo/places?query=Paris",
        "/v1/messaging/conversations",
        "/v1/notifications",
        "/v1/social/friends",
    ]


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


def post_message(args, key, n):
    """The message's id once acknowledged, None to try again; as post_bill."""
    url = f"{args.gateway}/v1/messaging/conversations/{args.conversation}/messages"
    try:
        status, message = http("POST", url, {"text": key}, args.token, key)
    except (OSError, HTTPException, ValueError):
        return None
    if status in (200, 201):
        return message["id"]
    if status >= 500 or status == 429:
        return None
    raise RuntimeError(f"{key}: answered {status}")


def write(args):
    lock, failures = threading.Lock(), []
    out = open(args.out, "a", buffering=1)
    deadline = time.time() + HARD_LIMIT

    def writer(w, post=post_bill, out=out, tag="w"):
        n = 0
        while not os.path.exists(args.stop) and time.time() < deadline:
            n += 1
            key = f"{args.prefix}-{tag}{w}-{n:06d}"
            while time.time() < deadline:
                started = time.time()
                try:
                    posted = post(args, key, n)
                except RuntimeError as error:
                    failures.append(str(error))
                    return
                if posted:
                    with lock:
                        out.write(f"{key}\t{posted}\t{started:.3f}\t{time.time():.3f}\n")
                    break
                time.sleep(0.1)

    def reader(r, out):
        paths = hot_reads(args.household)
        n = r  # each reader starts at another route
        while not os.path.exists(args.stop) and time.time() < deadline:
            path = paths[n % len(paths)]
            n += 1
            started = time.time()
            try:
                status, _ = http("GET", args.gateway + path, token=args.token)
            except (OSError, HTTPException, ValueError):
                status = 0
            with lock:
                out.write(f"{path}\t{started:.3f}\t{time.time():.3f}\t{int(status == 200)}\n")
            if status != 200:
                time.sleep(0.1)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    if args.conversation:
        messages = open(args.messages_out, "a", buffering=1)
        threads += [threading.Thread(target=writer, args=(w, post_message, messages, "m")) for w in range(MESSAGE_WRITERS)]
    if args.reads_out:
        reads = open(args.reads_out, "a", buffering=1)
        threads += [threading.Thread(target=reader, args=(r, reads)) for r in range(READERS)]
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


def verify_messages(args):
    acks = [line.rstrip("\n").split("\t") for line in open(args.acks) if line.strip()]
    stored, cursor = {}, None
    base = f"{args.gateway}/v1/messaging/conversations/{args.conversation}/messages?limit=100"
    for _ in range(10000):  # pages of 100, oldest first
        status, page = http("GET", base + (f"&cursor={cursor}" if cursor else "&anchor=oldest"), token=args.token)
        if status != 200:
            sys.exit(f"listing messages answered {status}")
        for message in page["items"]:
            stored.setdefault(message["text"], []).append(str(message["id"]))
        cursor = page.get("newerCursor")
        if not cursor:
            break
    else:
        sys.exit("listing messages did not end")
    duplicates = sum(len(stored.get(key, [])) > 1 for key, *_ in acks)
    missing = sum(message not in stored.get(key, []) for key, message, *_ in acks)
    found = sum(message in stored.get(key, []) for key, message, *_ in acks)
    print(len(acks), found, duplicates, missing)


def reads(args):
    """Per route (services fail alone: the ones on SQLite keep answering). Printed: reads, failed reads (an error
    status, no answer, or none within 5 s), the longest stretch of failed reads (from the start of a failed read
    to the end of the next answered one), and reads answered again: as for writes, per route the end of the
    longest pause in answered reads after the fault (the first pause starts at the fault), counted from the
    fault; the slowest route's. "never" if a route is not answered after the fault."""
    rows = [line.rstrip("\n").split("\t") for line in open(args.reads) if line.strip()]
    by_path = {}
    for path, started, ended, ok in rows:
        by_path.setdefault(path, []).append((float(started), float(ended), ok == "1"))
    longest, again, never = 0.0, 0.0, False
    for items in by_path.values():
        items.sort()
        first_failed = None
        for started, ended, ok in items:
            if not ok:
                first_failed = started if first_failed is None else first_failed
            elif first_failed is not None:
                longest = max(longest, ended - first_failed)
                first_failed = None
        if first_failed is not None:  # the route's last reads failed
            longest = max(longest, items[-1][1] - first_failed)
        answered = [args.fault_at] + sorted(ended for _, ended, ok in items if ok and ended > args.fault_at)
        if len(answered) == 1:
            never = True
            continue
        _, resumed = max((b - a, b) for a, b in zip(answered, answered[1:]))
        again = max(again, resumed - args.fault_at)
    failed = sum(ok != "1" for *_, ok in rows)
    print(len(rows), failed, f"{longest:.1f}", "never" if never else f"{again:.1f}")


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
    parser.add_argument("command", choices=["setup", "write", "verify", "verify-messages", "reads", "cluster"])
    for option in ("--gateway", "--token", "--household", "--dsn", "--out", "--stop", "--acks", "--rest",
                   "--conversation", "--messages-out", "--reads-out", "--reads"):
        parser.add_argument(option)
    parser.add_argument("--prefix", default="drill")
    parser.add_argument("--fault-at", type=float)
    parser.add_argument("--mixed", action="store_true")
    args = parser.parse_args()
    {"setup": setup, "write": write, "verify": verify, "verify-messages": verify_messages, "reads": reads,
     "cluster": cluster}[args.command](args)


if __name__ == "__main__":
    main()
