#!/usr/bin/env python3
"""A day of users: the product's hot reads and a share of writes, with live streams open, through the gateway.

One command, from the repository root:

    Benchmarks/day-of-users.py [--users N] [--writes 0.2] [--streams 1000] [--seconds 30] [--connections 32]
                               [--stack-url URL]

Without `--stack-url` it starts the release LocalStack on a temporary data directory and a separate Gateway
process (port 8099) in front of its services, as `hot-paths.py` does (`LOCAL_STACK_BIN` / `GATEWAY_BIN` name given
release binaries instead of building this tree's); with `--stack-url http://host:port` it uses that running
gateway for everything (seeding, load and streams; give it rate limits high enough for the load).

It seeds `--users` users (1,000 by default; an even number) through the gateway, on a thread pool: users in pairs
of friends with a direct conversation (one message in it), each with a household, a daily habit with three events
and a pin in Paris. Then it refreshes every token (the seed of 1,000 users takes minutes of bcrypt, and a token
lives 15 minutes), opens `--streams` live streams (`GET /v1/notifications/stream`, 1,000 by default, spread round
robin over the users: every user is a recipient in a direct conversation) held by one thread of this process on
non-blocking sockets, and runs wrk (-t2, `--connections`, `--seconds`) with a Lua script: each request a random
user and, with probability `--writes` (0.2 by default), one of four writes in turn at random (a message in the
user's direct conversation, a grocery item added to the household, a comment on one of the habit's events, a read
of the household's activity), else one of `hot-paths.py`'s ten hot reads. A message's text carries the time wrk
sent it (CLOCK_REALTIME milliseconds, through LuaJIT's FFI), which is what the delivery latency is measured from.

After the load it lists, through the messaging API, every message each direct conversation gained during the run
(the server's count, robust to wrk's timeouts and retries), waits up to `--drain` seconds (5) for the streams, and
prints:

1. the load (wrk): req/s, p50, p99, requests, non-2xx (every write is one the API accepts: a non-2xx is a fault);
2. the stack's and the gateway's CPU per request (their utime + stime from /proc), when it started them, and the
   stream holder's own CPU over the run;
3. the streams: how many opened (and reconnected, with `Last-Event-ID`, after a drop or `reauthenticate`),
   expected `message.created` events (each stream: the messages its user's conversation gained while it was
   open, sent by either member), received, missing, duplicated (the same event id or the same message twice on
   one stream), unexpected (a message not in the server's list), and the delivery latency p50/p99/max (arrival on
   the stream minus the send time in the message text: the event's `createdAt` has whole seconds only, too coarse
   for a 1 s goal, so it is not used).

Only the smoke scale suits a shared machine (e.g. `--users 20 --streams 50 --seconds 10`); the defaults seed for
about three minutes (bcrypt) and are meant for a quiet one. Identity takes at most 20 registrations per client
address and hour, so the seed registers each ten users from another loopback address (127.x.y.z): with a remote
`--stack-url` it cannot, and more than 20 users need that stack's own arrangement. The gateway takes at most
256 connections per client address, so the streams too come from a loopback address per hundred.

Needs wrk (apt-get install wrk).
"""

import argparse
import concurrent.futures
import http.client
import importlib.util
import json
import os
import random
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_hot_paths():
    """`hot-paths.py` as a module (its name has a hyphen): its processes, seeding call, hot reads and wrk."""
    spec = importlib.util.spec_from_file_location("hot_paths", os.path.join(HERE, "hot-paths.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hot_paths = _load_hot_paths()
call = hot_paths.call
PASSWORD = hot_paths.PASSWORD
WRITES = ("message", "grocery", "habit-comment", "activity")


# --- seeding -----------------------------------------------------------------------------------------------

def register(name, source):
    """Registers `name` from the loopback address `source` (None: the default one); returns its tokens.

    Identity takes at most 20 registrations per client address and hour (not configurable), and the gateway names
    the peer as the client: every loopback address is this machine, so each ten users come from another one."""
    host, port = urllib.parse.urlsplit(hot_paths.STACK_GATEWAY).netloc.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30,
                                            source_address=(source, 0) if source else None)
    try:
        connection.request("POST", "/v1/auth/register", json.dumps(
            {"email": f"{name}@example.com", "username": name, "password": PASSWORD}),
            {"content-type": "application/json"})
        response = connection.getresponse()
        text = response.read()
    finally:
        connection.close()
    if response.status != 201:
        sys.exit(f"seeding: POST /v1/auth/register answered {response.status}: {text[:300]!r}")
    return json.loads(text)


def source_address(k, run):
    """A loopback address for user k of this run (127.0.0.1 is left out: whatever else this machine sends)."""
    if urllib.parse.urlsplit(hot_paths.STACK_GATEWAY).hostname not in ("127.0.0.1", "localhost"):
        return None
    block = k // 10
    return f"127.{2 + run % 250}.{block // 250 % 250}.{block % 250 + 1}"


def seed_pair(n, prefix, run):
    """Users 2n and 2n+1: friends with a direct conversation; each a household, a habit with events and a pin."""
    pair = []
    for k in (2 * n, 2 * n + 1):
        name = f"{prefix}{k:05d}"
        tokens = register(name, source_address(k, run))
        pair.append({"index": k, "name": name, "id": tokens["user"]["id"], "token": tokens["accessToken"],
                     "refresh": tokens["refreshToken"]})
    first, second = pair
    request = call("POST", "/v1/social/friend-requests", first["token"], {"username": second["name"]},
                   expect=(200, 201))
    if request and request.get("status") == "pending":
        call("POST", f"/v1/social/friend-requests/{request['id']}/accept", second["token"])
    conversation = call("POST", "/v1/messaging/conversations/direct", first["token"],
                        {"userId": second["id"], "product": "wegroup"})
    # One message, so that the conversation is in both lists (a direct chat enters the other's list once written in).
    message = call("POST", f"/v1/messaging/conversations/{conversation['id']}/messages", first["token"],
                   {"text": "hello"})
    for user in pair:
        token, k = user["token"], user["index"]
        user["conversation"] = conversation["id"]
        user["baseline"] = message["id"]
        user["household"] = call("POST", "/v1/households", token, {"name": f"Flat {k}", "timeZone": "UTC"})["id"]
        habit = call("POST", "/v1/habits", token, {"title": "Run", "startDate": "2026-01-01", "weekdays": [
            "mon", "tue", "wed", "thu", "fri", "sat", "sun"]})
        user["events"] = []
        for days_ago in range(3):
            day = time.strftime("%Y-%m-%d", time.gmtime(time.time() - days_ago * 86400))
            event = call("POST", f"/v1/habits/{habit['id']}/events", token,
                         {"date": day, "location": {"latitude": 48.85, "longitude": 2.35}})
            user["events"].append(event["id"])
        call("POST", "/v1/geo/pins", token, {"placeName": f"Paris {k}", "latitude": 48.8566 + (k % 100) / 1000,
                                              "longitude": 2.3522 + (k // 100 % 100) / 1000})
    return pair


def seed(count, workers):
    run = random.randrange(100000)  # another run on the same --stack-url gets new names and addresses
    prefix = f"day{run:05d}u"
    users = []
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for pair in pool.map(lambda n: seed_pair(n, prefix, run), range(count // 2)):
            users.extend(pair)
    return users


def refresh_tokens(users, workers):
    def refresh(user):
        tokens = call("POST", "/v1/auth/refresh", body={"refreshToken": user["refresh"]})
        user["token"], user["refresh"] = tokens["accessToken"], tokens["refreshToken"]
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(refresh, users))


def new_messages(conversation, token, baseline):
    """{message id: text} of the messages after `baseline` in the conversation, from the newest page back."""
    found = {}
    path = f"/v1/messaging/conversations/{conversation}/messages?anchor=newest&limit=100"
    while True:
        page = call("GET", path, token)
        older = [item for item in page["items"] if item["id"] > baseline]
        found.update((item["id"], item["text"]) for item in older)
        if len(older) < len(page["items"]) or not page.get("olderCursor"):
            return found
        path = (f"/v1/messaging/conversations/{conversation}/messages?limit=100"
                f"&cursor={urllib.parse.quote(page['olderCursor'])}")


# --- the load ----------------------------------------------------------------------------------------------

def write_day_script(path, users, writes):
    """The wrk script: a random user per request; a write with probability `writes`, else a hot read."""
    def lua(text):
        return json.dumps(text)  # a JSON string of ASCII is a valid Lua string literal
    rows = []
    for user in users:
        reads = ", ".join(lua(read) for read in hot_paths.hot_reads(user))
        events = ", ".join(lua(event) for event in user["events"])
        rows.append(f"  {{t = {lua(user['token'])}, c = {lua(user['conversation'])}, h = {lua(user['household'])}, "
                    f"e = {{{events}}}, r = {{{reads}}}}}")
    with open(path, "w") as file:
        file.write(f"""local ffi = require("ffi")
ffi.cdef[[
typedef struct {{ long tv_sec; long tv_nsec; }} day_timespec;
int clock_gettime(int clock, day_timespec *time);
]]
local now = ffi.new("day_timespec")
local function milliseconds()
  ffi.C.clock_gettime(0, now)  -- CLOCK_REALTIME, the clock the stream holder reads
  return string.format("%d", tonumber(now.tv_sec) * 1000 + math.floor(tonumber(now.tv_nsec) / 1000000))
end
local users = {{
{(","+chr(10)).join(rows)}
}}
local writes = {writes}
local groceries = {{"Milk", "Eggs", "Bread", "Apples", "Rice", "Coffee", "Butter", "Tomatoes"}}
local thread_number = 0
setup = function(thread)
  thread_number = thread_number + 1
  thread:set("number", thread_number)
end
init = function(args)
  math.randomseed(os.time() * 100 + (number or 0))  -- another sequence in each thread
end
request = function()
  local user = users[math.random(#users)]
  local headers = {{["Authorization"] = "Bearer " .. user.t}}
  if math.random() < writes then
    local kind = math.random(4)
    headers["Content-Type"] = "application/json"
    if kind == 1 then
      return wrk.format("POST", "/v1/messaging/conversations/" .. user.c .. "/messages", headers,
        '{{"text":"day ' .. milliseconds() .. '"}}')
    elseif kind == 2 then
      return wrk.format("POST", "/v1/households/" .. user.h .. "/groceries", headers,
        '{{"name":"' .. groceries[math.random(#groceries)] .. '","quantity":' .. math.random(3) .. '}}')
    elseif kind == 3 then
      return wrk.format("PATCH", "/v1/habits/events/" .. user.e[math.random(#user.e)], headers,
        '{{"comment":"felt good ' .. math.random(999) .. '"}}')
    else
      return wrk.format("GET", "/v1/households/" .. user.h .. "/activity", headers)
    end
  end
  return wrk.format("GET", user.r[math.random(#user.r)], headers)
end
""")


# --- the streams -------------------------------------------------------------------------------------------

class Stream:
    """One SSE connection's state: an incremental HTTP/1.1 response parser (chunked or not) and its counts."""

    def __init__(self, number, user):
        self.number, self.user = number, user
        self.sock = None
        self.opened = False  # answered 200 at least once
        self.failed = None
        self.reconnects = 0
        self.last_event_id = None
        self.event_ids = set()
        self.messages = {}  # message id -> times received
        self.duplicates = 0
        self.latencies = []  # ms
        self.unparsed = 0
        self.reset()

    def reset(self):
        self.raw = b""
        self.head_done = False
        self.chunked = False
        self.chunk_left = 0
        self.body = b""

    def request(self, host):
        resume = f"Last-Event-ID: {self.last_event_id}\r\n" if self.last_event_id else ""
        return (f"GET /v1/notifications/stream HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
                f"Authorization: Bearer {self.user['token']}\r\n{resume}\r\n").encode()

    def feed(self, data, now):
        """Takes bytes from the socket; returns False when the response ended (or is not a stream)."""
        self.raw += data
        if not self.head_done:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return True
            head, self.raw = self.raw[:end].decode("latin-1"), self.raw[end + 4:]
            status = head.split(" ", 2)[1] if " " in head else "?"
            if status != "200":
                self.failed = f"status {status}"
                return False
            self.head_done, self.opened = True, True
            self.chunked = "transfer-encoding: chunked" in head.lower()
        ended = False
        if self.chunked:
            while self.raw:
                if self.chunk_left == 0:  # at a chunk's size line (after the previous chunk's CRLF)
                    line_end = self.raw.find(b"\r\n")
                    if line_end < 0:
                        break
                    size = int(self.raw[:line_end].split(b";")[0].strip() or b"0", 16)
                    if size == 0:  # the response's last chunk
                        ended = True
                        break
                    self.raw = self.raw[line_end + 2:]
                    self.chunk_left = size + 2  # the chunk's bytes and its CRLF
                take = self.raw[:self.chunk_left]
                self.raw = self.raw[len(take):]
                self.chunk_left -= len(take)
                # Drop whatever part of the trailing CRLF this piece holds.
                self.body += take[:len(take) - max(0, 2 - self.chunk_left)]
        else:
            self.body, self.raw = self.body + self.raw, b""
        while True:
            end = self.body.find(b"\n\n")
            if end < 0:
                break
            block, self.body = self.body[:end].decode("utf-8", "replace"), self.body[end + 2:]
            if self.event(block, now) is False:
                ended = True
        return not ended

    def event(self, block, now):
        fields = {}
        for line in block.split("\n"):
            if line.startswith(":") or ":" not in line:
                continue
            name, value = line.split(":", 1)
            fields[name] = value[1:] if value.startswith(" ") else value
        if "id" in fields:
            if fields["id"] in self.event_ids:
                self.duplicates += 1
                return True
            self.event_ids.add(fields["id"])
            self.last_event_id = fields["id"]
        kind = fields.get("event")
        if kind == "reauthenticate":
            return False
        if kind != "message.created":
            return True
        try:
            message = json.loads(fields.get("data", ""))
        except ValueError:
            self.unparsed += 1
            return True
        if message.get("conversationId") != self.user["conversation"]:
            self.unparsed += 1
            return True
        times = self.messages.get(message["id"], 0)
        self.messages[message["id"]] = times + 1
        if times:
            self.duplicates += 1
            return True
        text = message.get("text", "")
        if text.startswith("day "):
            self.latencies.append(now * 1000 - int(text[4:]))
        return True


class StreamHolder:
    """Holds every stream on one thread with `selectors`; reconnects a dropped stream with `Last-Event-ID`."""

    def __init__(self, url, users, count):
        parts = urllib.parse.urlsplit(url)
        self.address = (parts.hostname, parts.port or 80)
        self.host = parts.netloc
        self.loopback = parts.hostname in ("127.0.0.1", "localhost")
        self.streams = [Stream(n, users[n % len(users)]) for n in range(count)]
        self.selector = selectors.DefaultSelector()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.cpu_start = None

    def connect(self, stream):
        stream.reset()
        sock = socket.socket()
        if self.loopback:
            # The gateway takes at most 256 connections per client address (MAX_CONNECTIONS_PER_ADDRESS): each
            # hundred streams come from another loopback address, as from another client.
            block = stream.number // 100
            sock.bind((f"127.1.{block // 250 % 250}.{block % 250 + 1}", 0))
        sock.setblocking(False)
        sock.connect_ex(self.address)
        stream.sock = sock
        stream.sent = False
        self.selector.register(sock, selectors.EVENT_WRITE, stream)

    def close(self, stream):
        if stream.sock:
            self.selector.unregister(stream.sock)
            stream.sock.close()
            stream.sock = None

    def start(self, seconds=60):
        """Opens every stream (in batches of 100) and returns once each answered 200 or failed."""
        self.thread.start()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if all(stream.opened or stream.failed for stream in self.streams):
                return
            time.sleep(0.1)

    def run(self):
        pending = list(self.streams)
        while not self.stopping.is_set():
            # Connect in batches, so that the listen backlog is never the limit.
            while pending and sum(1 for s in self.streams if s.sock and not s.opened and not s.failed) < 100:
                self.connect(pending.pop(0))
            for key, mask in self.selector.select(timeout=0.2):
                stream = key.data
                if mask & selectors.EVENT_WRITE:
                    error = stream.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if error:
                        self.close(stream)
                        stream.failed = os.strerror(error)
                        continue
                    stream.sock.sendall(stream.request(self.host))
                    self.selector.modify(stream.sock, selectors.EVENT_READ, stream)
                    continue
                try:
                    data = stream.sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if data and stream.feed(data, time.time()):
                    continue
                # The stream ended: resume it, unless it never opened or its resumption was refused.
                self.close(stream)
                if stream.opened and not stream.failed and not self.stopping.is_set():
                    stream.reconnects += 1
                    self.connect(stream)
                elif not stream.failed:
                    stream.failed = "closed before answering"
        for stream in self.streams:
            self.close(stream)

    def stop(self):
        self.stopping.set()
        self.thread.join()


# --- the run -----------------------------------------------------------------------------------------------

def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=1000, help="users, in pairs (default 1000)")
    parser.add_argument("--writes", type=float, default=0.2, help="share of requests that write (default 0.2)")
    parser.add_argument("--streams", type=int, default=1000, help="open live streams (default 1000)")
    parser.add_argument("--seconds", type=int, default=30, help="seconds of load (default 30)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (default 32)")
    parser.add_argument("--stack-url", help="a running gateway to use instead of starting LocalStack + Gateway")
    parser.add_argument("--seed-workers", type=int, default=8, help="seeding threads (default 8)")
    parser.add_argument("--drain", type=float, default=5, help="seconds to wait for the streams after (default 5)")
    arguments = parser.parse_args()
    if arguments.users < 2 or arguments.users % 2:
        sys.exit("--users must be an even number of at least 2 (users come in pairs)")
    if not 0 <= arguments.writes <= 1:
        sys.exit("--writes is a share between 0 and 1")
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = arguments.streams + 1024
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
        except (ValueError, OSError):
            pass
        if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < wanted:
            print(f"! open-file limit {resource.getrlimit(resource.RLIMIT_NOFILE)[0]} < {wanted}", file=sys.stderr)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("terminated"))

    processes = []
    data = None
    try:
        if arguments.stack_url:
            url = arguments.stack_url.rstrip("/")
            hot_paths.STACK_GATEWAY = url
            hot_paths.wait_until_up(url + "/health/live")
            groups = {}
        else:
            url, groups, data = start_stack(processes)
        started = time.monotonic()
        print(f"seeding {arguments.users} users through {hot_paths.STACK_GATEWAY} ...", flush=True)
        users = seed(arguments.users, arguments.seed_workers)
        refresh_tokens(users, arguments.seed_workers)
        print(f"  seeded in {time.monotonic() - started:.0f} s", flush=True)

        script = os.path.join(data or tempfile.gettempdir(), "day-of-users.lua")
        write_day_script(script, users, arguments.writes)
        holder = StreamHolder(url, users, arguments.streams)
        started = time.monotonic()
        holder.start()
        opened = sum(1 for stream in holder.streams if stream.opened)
        print(f"  {opened} of {arguments.streams} streams open in {time.monotonic() - started:.1f} s", flush=True)

        cpu_model = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                         if line.startswith("model name"))
        print(f"machine: {os.cpu_count()} cores, {cpu_model}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        print(f"load: {arguments.users} users, {arguments.writes:.0%} writes, {arguments.streams} streams, "
              f"wrk -t2 -c{arguments.connections} {arguments.seconds} s through {url}")
        before = {name: hot_paths.cpu_seconds(pids) for name, pids in groups.items()}
        holder_cpu = process_cpu()
        rps, p50, p99, requests, errors = hot_paths.wrk(url, arguments.seconds, arguments.connections,
                                                       script=script)
        cpu = {name: (hot_paths.cpu_seconds(pids) - before[name]) * 1e6 / max(requests, 1)
               for name, pids in groups.items()}
        holder_cpu = process_cpu() - holder_cpu

        # What each conversation gained, from the server, then a last wait for the streams.
        conversations = {}
        for user in users:
            conversations.setdefault(user["conversation"], user)
        with concurrent.futures.ThreadPoolExecutor(arguments.seed_workers) as pool:
            gained = dict(zip(conversations, pool.map(
                lambda user: new_messages(user["conversation"], user["token"], user["baseline"]),
                conversations.values())))
        deadline = time.monotonic() + arguments.drain
        while time.monotonic() < deadline:
            if all(set(gained[s.user["conversation"]]) <= set(s.messages) for s in holder.streams if s.opened):
                break
            time.sleep(0.1)
        holder.stop()
        report(arguments, holder, gained, rps, p50, p99, requests, errors, cpu, holder_cpu)
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if data:
            shutil.rmtree(data, ignore_errors=True)


def process_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def start_stack(processes):
    """LocalStack on a temporary data directory and a separate Gateway in front of its services, as hot-paths.py
    starts them; returns the Gateway's URL, the CPU groups to measure and the data directory."""
    stack_bin = hot_paths.release_binary("LocalStack", os.environ.get("LOCAL_STACK_BIN"))
    gateway_bin = hot_paths.release_binary("Gateway", os.environ.get("GATEWAY_BIN"))
    ports = [8080, hot_paths.GATEWAY_PORT, *hot_paths.SERVICE_PORTS.values()]
    busy = [port for port in ports if hot_paths.port_in_use(port)]
    if busy:
        sys.exit(f"ports {busy} are taken: is another stack running? (or pass --stack-url)")
    data = tempfile.mkdtemp(prefix="day-of-users-")
    quiet = {"LOG_LEVEL": "error", "RATE_LIMIT_PER_MINUTE": "100000000", "LOGIN_RATE_LIMIT_PER_MINUTE": "100000000"}
    stack = subprocess.Popen([stack_bin], env={**os.environ, **quiet, "DATA_DIR": data},
                             stdout=subprocess.DEVNULL, stderr=open(os.path.join(data, "stack.log"), "w"))
    processes.append(stack)
    hot_paths.wait_until_up(hot_paths.STACK_GATEWAY + "/health/ready", seconds=120)
    with open(os.path.join(data, "development-secrets", "internal-token")) as file:
        internal_token = file.read().strip()
    upstreams = {f"{service.upper()}_URL": f"http://127.0.0.1:{port}"
                 for service, port in hot_paths.SERVICE_PORTS.items()}
    gateway = subprocess.Popen([gateway_bin], env={**os.environ, **quiet, **upstreams,
                                                   "PORT": str(hot_paths.GATEWAY_PORT),
                                                   "INTERNAL_TOKEN": internal_token},
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(data, "gateway.log"), "w"))
    processes.append(gateway)
    url = f"http://127.0.0.1:{hot_paths.GATEWAY_PORT}"
    hot_paths.wait_until_up(url + "/health/live")
    return url, {"gateway": [gateway.pid], "stack": [stack.pid]}, data


def report(arguments, holder, gained, rps, p50, p99, requests, errors, cpu, holder_cpu):
    print(f"\nload (wrk): {rps:,.0f} req/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms, {requests:,} requests, "
          f"{errors} non-2xx")
    if cpu:
        print("CPU per request: " + ", ".join(f"{name} {value:.0f} µs" for name, value in cpu.items()))
    print(f"stream holder: {holder_cpu:.1f} s CPU over the run ({holder_cpu / arguments.seconds:.0%} of a core)")
    streams = holder.streams
    opened = [stream for stream in streams if stream.opened]
    failed = [stream for stream in streams if not stream.opened]
    sent = sum(len(messages) for messages in gained.values())
    expected = received = missing = duplicates = unexpected = 0
    latencies = []
    for stream in opened:
        want = gained[stream.user["conversation"]]
        got = stream.messages
        expected += len(want)
        received += sum(1 for message in got if message in want)
        missing += sum(1 for message in want if message not in got)
        unexpected += sum(1 for message in got if message not in want)
        duplicates += stream.duplicates
        latencies += stream.latencies
    reasons = {}
    for stream in failed:
        reasons[stream.failed or "not answered"] = reasons.get(stream.failed or "not answered", 0) + 1
    print(f"\nstreams: {len(opened)} of {len(streams)} opened"
          + (f" (not: {', '.join(f'{n} {why}' for why, n in reasons.items())})" if failed else "")
          + f", {sum(s.reconnects for s in streams)} reconnects with Last-Event-ID"
          + "".join(f", 1 dropped for good ({s.failed})" for s in opened if s.failed))
    print(f"  messages the conversations gained during the run: {sent:,} "
          f"({sum(1 for m in gained.values() if m)} of {len(gained)} conversations)")
    print(f"  message.created events: expected {expected:,}, received {received:,}, missing {missing:,}, "
          f"duplicated {duplicates:,}, unexpected {unexpected:,}")
    if latencies:
        print(f"  delivery latency (stream arrival - wrk's send time): p50 {percentile(latencies, 0.5):.0f} ms, "
              f"p99 {percentile(latencies, 0.99):.0f} ms, max {max(latencies):.0f} ms, "
              f"within 1 s {sum(1 for value in latencies if value <= 1000) / len(latencies):.1%}")
    else:
        print("  delivery latency: not measured (no message events arrived)")


if __name__ == "__main__":
    main()
