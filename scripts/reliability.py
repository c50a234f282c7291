#!/usr/bin/env python3
"""Reliability checks against a real `arbiter` binary: overload, stalls, slow clients, memory,
shutdown, metrics cardinality, memory and probes at the connection cap, import bombs and CPU per
request. Loopback only, every wait bounded, standard library only.

    python3 scripts/reliability.py --bin target/release/arbiter [--only saturation,memory,...]

Each group starts its own server on a free 127.0.0.1 port with the settings it needs and stops
it afterwards (SIGTERM, then SIGKILL); every process and socket is released on exit, also on
SIGINT/SIGTERM. The last line is `reliability: N passed, M failed`; exit status 1 if M > 0.

Bounds (override with the environment; see scripts/reliability.sh for the list):
  REL_PROBE_P99_MS   /healthz, /readyz, /metrics p99 while every rules worker is busy (100)
  REL_SHED_P99_MS    p99 latency of the 503 answers while the pool and queue are full (100)
  REL_RSS_MIB        peak resident memory during the amplification requests (256)
  REL_SLACK_SECS     slack on every timeout-based close (2)
  REL_IMPORT_BOMB_MIB peak resident memory while an import bomb is refused (200)
  REL_CPU_MS         server CPU of each worst-case question at the caps (120)
  REL_CPU_PARSE_MS   server CPU of each refused large body (150)
"""

import argparse
import http.client
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

PROBE_P99_MS = float(os.environ.get("REL_PROBE_P99_MS", "100"))
SHED_P99_MS = float(os.environ.get("REL_SHED_P99_MS", "100"))
RSS_MIB = float(os.environ.get("REL_RSS_MIB", "256"))
SLACK = float(os.environ.get("REL_SLACK_SECS", "2"))

PASSED = 0
FAILED = 0
SERVERS = []
SOCKETS = []


def check(ok, what):
    """One counted check, printed TAP-style."""
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print(f"ok   {PASSED + FAILED:2d} - {what}", flush=True)
    else:
        FAILED += 1
        print(f"FAIL {PASSED + FAILED:2d} - {what}", flush=True)
    return ok


def note(text):
    print(f"#    {text}", flush=True)


def pct(values, p):
    """The p-th percentile (nearest rank) of a non-empty list."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(p / 100.0 * len(s)) - 1))
    return s[k]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# ------------------------------------------------------------------------------------ server
class Server:
    """One arbiter process on a free loopback port."""

    def __init__(self, binary, logdir, name, env):
        self.port = free_port()
        self.name = name
        self.log_path = os.path.join(logdir, f"{name}.log")
        full = dict(os.environ)
        full.update({
            "ARBITER_ADDR": f"127.0.0.1:{self.port}",
            "ARBITER_INSTANCE_ID": f"reliability-{name}",
            "LOG_FORMAT": "json",
            "RUST_LOG": os.environ.get("RUST_LOG", "warn"),
        })
        full.update({k: str(v) for k, v in env.items()})
        self.env = env
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([binary], env=full, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        SERVERS.append(self)
        settings = " ".join(f"{k}={v}" for k, v in env.items())
        note(f"server {name}: pid {self.proc.pid}, port {self.port} {settings}")

    def alive(self):
        return self.proc.poll() is None

    def wait_healthy(self, secs=30):
        deadline = time.monotonic() + secs
        while time.monotonic() < deadline:
            if not self.alive():
                return False
            try:
                status, _, _, _ = request(self.port, "GET", "/healthz", timeout=1)
                if status == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.05)
        return False

    def status_kib(self, field):
        """VmRSS / VmHWM of the process in KiB (None once it is gone)."""
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith(field + ":"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def reset_peak(self):
        """Reset VmHWM to the current RSS (Linux >= 4.0, own process); False if refused."""
        try:
            with open(f"/proc/{self.proc.pid}/clear_refs", "w") as f:
                f.write("5")
            return True
        except OSError:
            return False

    def stop(self, secs=30):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=secs)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()
        if self in SERVERS:
            SERVERS.remove(self)

    def tail(self, n=15):
        try:
            with open(self.log_path, "rb") as f:
                lines = f.read().decode("utf-8", "replace").splitlines()[-n:]
            for line in lines:
                note(f"  {self.name}.log: {line[:300]}")
        except OSError:
            pass


def cleanup():
    for s in list(SOCKETS):
        try:
            s.close()
        except OSError:
            pass
    SOCKETS.clear()
    for server in list(SERVERS):
        try:
            server.proc.kill()
            server.proc.wait(timeout=10)
        except Exception:
            pass
        SERVERS.remove(server)


def on_signal(signum, _frame):
    # Servers first, so that no thread stays blocked on one of them.
    for server in list(SERVERS):
        try:
            server.proc.kill()
        except OSError:
            pass
    raise SystemExit(128 + signum)


# ------------------------------------------------------------------------------------ clients
def request(port, method, path, body=None, headers=None, timeout=10.0):
    """One request on a fresh connection: (status, headers, body, seconds)."""
    hdrs = {"Connection": "close"}
    if body is not None:
        hdrs["Content-Type"] = "application/json"
    hdrs.update(headers or {})
    t0 = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=hdrs)
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data, time.monotonic() - t0
    finally:
        conn.close()


def timed_get(port, path, timeout=5.0):
    """(status or None, milliseconds); a failure or timeout costs the whole timeout."""
    t0 = time.monotonic()
    try:
        status, _, _, _ = request(port, "GET", path, timeout=timeout)
    except OSError:
        return None, timeout * 1000.0
    return status, (time.monotonic() - t0) * 1000.0


def raw_connect(port, timeout=15.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    SOCKETS.append(s)
    return s


def raw_close(s):
    try:
        s.close()
    except OSError:
        pass
    if s in SOCKETS:
        SOCKETS.remove(s)


def closed_by_peer(s, wait):
    """True when the peer closes (EOF or reset) within `wait` seconds; any bytes it sends first
    (an error response) are read and ignored."""
    deadline = time.monotonic() + wait
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        s.settimeout(left)
        try:
            data = s.recv(65536)
        except socket.timeout:
            return False
        except (ConnectionResetError, BrokenPipeError):
            return True
        except OSError:
            return True
        if not data:
            return True


def trickle_until_closed(s, data, limit):
    """Send `data` one byte per second; seconds until the server closes (None if it never
    does within `limit`)."""
    t0 = time.monotonic()
    i = 0
    while time.monotonic() - t0 < limit:
        if i < len(data):
            try:
                s.sendall(data[i:i + 1])
            except OSError:
                return time.monotonic() - t0
            i += 1
        # Between bytes, watch for the close.
        if closed_by_peer(s, 1.0):
            return time.monotonic() - t0
    return None


# ------------------------------------------------------------------------------------ bodies
class Lcg:
    """The rules bench's generator (crates/rules/benches/rules.rs), so the scene is the same."""

    def __init__(self, seed):
        self.state = seed

    def next(self, n):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % n


def scene(side, creatures, walls, seed=11, ruleset="pf1e"):
    """A `side`×`side` map with scattered solid / low squares and short walls, and `creatures`
    on two sides, as the bench's `analyze/…/50-creatures-200x200-1000-walls` builds it."""
    rng = Lcg(seed)
    terrain = [["."] * side for _ in range(side)]
    for _ in range(side * side * 3 // 100):
        x, y = rng.next(side), rng.next(side)
        terrain[y][x] = "#" if rng.next(2) == 0 else "="
    wall_list = []
    for _ in range(walls):
        x, y = rng.next(side - 4), rng.next(side)
        length = 1 + rng.next(4)
        if rng.next(2) == 0:
            to = {"x": min(x + length, side), "y": y}
        else:
            to = {"x": x, "y": min(y + length, side)}
        wall_list.append({"from": {"x": x, "y": y}, "to": to, "kind": "solid"})
    margin = side // 10
    used = set()
    people = []
    for i in range(creatures):
        while True:
            x, y = margin + rng.next(side - 2 * margin), margin + rng.next(side - 2 * margin)
            if (x, y) not in used:
                break
        used.add((x, y))
        terrain[y][x] = "."
        people.append({"id": f"c{i}", "side": "party" if i % 2 == 0 else "monsters",
                       "at": {"x": x, "y": y}})
    return {"ruleset": ruleset,
            "grid": {"width": side, "height": side, "map": ["".join(r) for r in terrain],
                     "walls": wall_list},
            "creatures": people}


def heavy_analyze():
    """The PRODUCT.md reference scene: 50 creatures, 200×200, 1,000 walls, two sides."""
    return json.dumps({"encounter": scene(200, 50, 1000)}).encode()


def long_analyze():
    """The largest scene the default caps allow (500 creatures, 1000x1000 open map, 10,000
    walls; 0.8 MB): with the work budget raised, 125,000 pairs of long lines run for many
    seconds (194 s on a debug build, several seconds on a release one)."""
    enc = scene(1000, 500, 10000, seed=5)
    del enc["grid"]["map"]
    return json.dumps({"encounter": enc}).encode()


RANGE_BODY = json.dumps({
    "encounter": {"ruleset": "pf1e", "grid": {"width": 40, "height": 10},
                  "creatures": [{"id": "archer", "side": "party", "at": {"x": 0, "y": 0}},
                                {"id": "orc", "side": "monsters", "at": {"x": 21, "y": 0}}]},
    "attacker": "archer", "target": "orc", "weapon": {"kind": "ranged", "increment_ft": 100},
}).encode()


def amplification_bodies():
    """Requests whose answers are far larger than their bodies (on the server before issue 10:
    a 6 KB analyze with repeated attackers answered 20 MB, a 1 MB map drawn as SVG 51 MB)."""
    out = []
    # 1. /v1/analyze with every pair's trace and 500 attackers, ids repeated (40 creatures on
    #    an open 20x20 map): 10,000 pairs of traces unless repeats are refused.
    enc = scene(20, 40, 0, seed=3)
    ids = [c["id"] for c in enc["creatures"]]
    attackers = [ids[i % len(ids)] for i in range(500)]
    out.append(("analyze traces, 500 attackers (ids repeated)", "/v1/analyze", {},
                json.dumps({"encounter": enc, "traces": True, "attackers": attackers}).encode()))
    # 2. Every pair's trace of 100 creatures on an open 30x30 map: 5,000 pairs, an answer of
    #    about 10 MB, past the default ARBITER_MAX_ANSWER_BYTES (8 MiB).
    out.append(("analyze traces, 100 creatures (~10 MB answer)", "/v1/analyze", {},
                json.dumps({"encounter": scene(30, 100, 0, seed=3), "traces": True}).encode()))
    # 3. The same with 86 creatures: about 7.4 MB, just under the default limit.
    out.append(("analyze traces, 86 creatures (~7.4 MB answer)", "/v1/analyze", {},
                json.dumps({"encounter": scene(30, 86, 0, seed=3), "traces": True}).encode()))
    # 4. SVG of a 1000x1000 map (1 MB) where every square but one row is drawn.
    rng = Lcg(1)
    side, row = 1000, 500
    kinds = "#=~%:w."
    rows = ["".join(kinds[rng.next(len(kinds))] for _ in range(side)) for _ in range(side)]
    rows[row] = rows[row][:100] + "." * 801 + rows[row][901:]
    big = {"ruleset": "dnd5e2024", "grid": {"width": side, "height": side, "map": rows},
           "creatures": [{"id": "a", "side": "x", "at": {"x": 100, "y": row}},
                         {"id": "b", "side": "y", "at": {"x": 900, "y": row}}]}
    out.append(("cover SVG of a dense 1000x1000 map", "/v1/cover", {"Accept": "image/svg+xml"},
                json.dumps({"encounter": big, "attacker": "a", "target": "b"}).encode()))
    # 5. The same map drawn by /v1/movement: a 5-square walk along the open row.
    path = [{"x": 100 + i, "y": row} for i in range(1, 6)]
    out.append(("movement SVG of a dense 1000x1000 map", "/v1/movement", {"Accept": "image/svg+xml"},
                json.dumps({"encounter": big, "creature": "a", "path": path}).encode()))
    return out


# ------------------------------------------------------------------------------------ groups
class Loader:
    """Threads that POST a body in a loop and record (status, ms, has Retry-After)."""

    def __init__(self, port, path, body, threads, pause_after_503=0.01):
        self.port, self.path, self.body = port, path, body
        self.stop = threading.Event()
        self.results = []
        self.lock = threading.Lock()
        self.pause = pause_after_503
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(threads)]

    def run(self):
        while not self.stop.is_set():
            t0 = time.monotonic()
            try:
                status, headers, _, _ = request(self.port, "POST", self.path, self.body, timeout=30)
                item = (status, (time.monotonic() - t0) * 1000.0, "retry-after" in headers)
            except OSError:
                item = (None, (time.monotonic() - t0) * 1000.0, False)
            with self.lock:
                self.results.append(item)
            if item[0] != 200:
                time.sleep(self.pause)

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        deadline = time.monotonic() + 35
        for t in self.threads:
            t.join(timeout=max(0.1, deadline - time.monotonic()))


def group_saturation(binary, logdir):
    """(a) probes answer while every rules worker is busy; (b) 503 + Retry-After at once when
    workers + queue are full."""
    workers, queue = 2, 2
    server = Server(binary, logdir, "saturation", {
        "ARBITER_RULES_WORKERS": workers, "ARBITER_RULES_QUEUE": queue,
        # A raised budget so that each heavy request keeps its worker busy for a while.
        "ARBITER_WORK_BUDGET": 200_000_000, "ARBITER_REQUEST_TIMEOUT_SECS": 60,
    })
    try:
        if not check(server.wait_healthy(), "saturation: server answers /healthz"):
            server.tail()
            return
        body = heavy_analyze()
        status, _, _, secs = request(server.port, "POST", "/v1/analyze", body, timeout=30)
        note(f"one heavy /v1/analyze ({len(body)} bytes) alone: {status} in {secs * 1000:.0f} ms")
        loaders = workers + queue + 4
        with Loader(server.port, "/v1/analyze", body, loaders) as load:
            time.sleep(1.5)
            probes = {"/healthz": [], "/readyz": [], "/metrics": []}
            bad = []
            # 100 probes, 2 s timeout each, 30 s at most in all.
            phase_end = time.monotonic() + 30
            for i in range(100):
                if time.monotonic() > phase_end:
                    break
                status, ms = timed_get(server.port, "/healthz", timeout=2)
                probes["/healthz"].append(ms)
                if status != 200:
                    bad.append(("/healthz", status))
                if i % 5 == 0:
                    for path in ("/readyz", "/metrics"):
                        status, ms = timed_get(server.port, path, timeout=2)
                        probes[path].append(ms)
                        if status != 200:
                            bad.append((path, status))
                time.sleep(0.02)
            sheds = []
            shed_ok = True
            phase_end = time.monotonic() + 20
            for _ in range(30):
                if time.monotonic() > phase_end:
                    break
                t0 = time.monotonic()
                try:
                    status, headers, data, _ = request(server.port, "POST", "/v1/analyze", body, timeout=10)
                except OSError:
                    status, headers, data = None, {}, b""
                ms = (time.monotonic() - t0) * 1000.0
                if status == 503:
                    sheds.append(ms)
                    shed_ok &= ("retry-after" in headers
                                and headers.get("content-type", "").startswith("application/problem+json"))
                time.sleep(0.05)
        with load.lock:
            results = list(load.results)
        load_503 = [ms for st, ms, _ in results if st == 503]
        load_503_ra = all(ra for st, _, ra in results if st == 503)
        done = [ms for st, ms, _ in results if st == 200]
        other = sorted({st for st, _, _ in results if st not in (200, 503)}, key=str)
        note(f"{loaders} loaders: {len(done)} answered 200 (median {pct(done, 50) if done else 0:.0f} ms), "
             f"{len(load_503)} answered 503, other statuses {other}")
        saturated = len(load_503) > 0
        check(saturated, f"saturation: the {loaders} heavy loaders filled workers + queue "
                         f"({workers} + {queue}): {len(load_503)} of their requests answered 503")
        for path, values in probes.items():
            p99, worst = pct(values, 99), max(values)
            check(p99 <= PROBE_P99_MS and not [b for b in bad if b[0] == path],
                  f"saturation: GET {path} while saturated: p99 {p99:.1f} ms (max {worst:.1f} ms, "
                  f"{len(values)} probes) <= {PROBE_P99_MS:.0f} ms, all 200")
        all_sheds = sheds + load_503
        if all_sheds:
            p99 = pct(all_sheds, 99)
            check(p99 <= SHED_P99_MS,
                  f"saturation: 503 answers p99 {p99:.1f} ms (median {pct(all_sheds, 50):.1f} ms, "
                  f"{len(all_sheds)} answers) <= {SHED_P99_MS:.0f} ms")
        else:
            check(False, "saturation: no 503 at all while workers + queue were full")
        check(bool(sheds) and shed_ok and load_503_ra,
              f"saturation: extra questions answered 503 problem+json with Retry-After "
              f"({len(sheds)} probes answered 503)")
        check(server.alive(), "saturation: server still running")
    finally:
        server.stop()


def group_memory(binary, logdir):
    """(c) resident memory stays bounded under amplification and clients that do not read."""
    server = Server(binary, logdir, "memory", {
        "ARBITER_RULES_WORKERS": 2, "ARBITER_RULES_QUEUE": 4,
    })
    peak = [0]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            kib = server.status_kib("VmRSS")
            if kib:
                peak[0] = max(peak[0], kib)
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    try:
        if not check(server.wait_healthy(), "memory: server answers /healthz"):
            server.tail()
            return
        idle = server.status_kib("VmRSS") or 0
        sampler.start()
        bodies = amplification_bodies()
        for what, path, headers, body in bodies:
            # Each request's own peak, when the kernel lets us reset VmHWM.
            reset = server.reset_peak()
            before = server.status_kib("VmRSS") or 0
            try:
                status, hdrs, data, secs = request(server.port, "POST", path, body, headers, timeout=120)
                own = server.status_kib("VmHWM") or 0
                note(f"{what}: {len(body) / 1e6:.2f} MB body -> {status}, {len(data) / 1e6:.2f} MB "
                     f"{hdrs.get('content-type', '')} in {secs:.1f} s"
                     + (f", peak resident {own / 1024:.1f} MiB ({before / 1024:.1f} MiB before it)"
                        if reset else ""))
            except OSError as e:
                note(f"{what}: {len(body) / 1e6:.2f} MB body -> {type(e).__name__}")
        # Six clients send the largest answerable requests and never read the answers.
        stalled = []
        for i in range(6):
            _, path, headers, body = bodies[1 + i % 2]
            s = raw_connect(server.port)
            head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
                    f"Content-Length: {len(body)}"] + [f"{k}: {v}" for k, v in headers.items()]
            s.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
            stalled.append(s)
        time.sleep(8)
        status, ms = timed_get(server.port, "/healthz")
        note(f"/healthz with 6 unread answers pending: {status} in {ms:.1f} ms")
        for s in stalled:
            raw_close(s)
        time.sleep(1)
        stop.set()
        sampler.join(timeout=5)
        hwm = server.status_kib("VmHWM") or 0
        after = server.status_kib("VmRSS") or 0
        mib = max(peak[0], hwm) / 1024.0
        check(mib <= RSS_MIB,
              f"memory: peak resident {mib:.1f} MiB (VmHWM {hwm / 1024:.1f} MiB, idle {idle / 1024:.1f} MiB, "
              f"after {after / 1024:.1f} MiB) <= {RSS_MIB:.0f} MiB")
        check(server.alive() and status == 200, "memory: server alive and /healthz 200 with unread answers pending")
    finally:
        stop.set()
        server.stop()


def group_connections(binary, logdir):
    """(d) header trickle, silent and idle keep-alive connections are closed by their timeouts."""
    # The server keeps the idle timeout above the request timeout, hence the short request
    # timeout. A keep-alive connection waiting for its next request is closed by whichever of
    # the header timeout (counted from the previous answer) and the idle timeout comes first.
    header_to, idle_to = 2, 3
    server = Server(binary, logdir, "connections", {
        "ARBITER_HEADER_READ_TIMEOUT_SECS": header_to, "ARBITER_IDLE_TIMEOUT_SECS": idle_to,
        "ARBITER_REQUEST_TIMEOUT_SECS": 1,
    })
    try:
        if not check(server.wait_healthy(), "connections: server answers /healthz"):
            server.tail()
            return
        limit = 15
        # A request line and headers, one byte per second, never finished.
        s = raw_connect(server.port)
        secs = trickle_until_closed(s, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100, limit)
        raw_close(s)
        check(secs is not None and secs <= header_to + SLACK,
              f"connections: header trickled at 1 byte/s closed after "
              f"{'more than %d' % limit if secs is None else '%.1f' % secs} s "
              f"(ARBITER_HEADER_READ_TIMEOUT_SECS={header_to}, bound {header_to + SLACK:.0f} s)")
        # A connection that sends nothing at all.
        s = raw_connect(server.port)
        t0 = time.monotonic()
        closed = closed_by_peer(s, limit)
        secs = time.monotonic() - t0
        raw_close(s)
        check(closed and secs <= header_to + SLACK,
              f"connections: silent connection closed after "
              f"{'more than %d' % limit if not closed else '%.1f' % secs} s (bound {header_to + SLACK:.0f} s)")
        # An idle keep-alive connection after one complete request.
        s = raw_connect(server.port)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        buf = b""
        s.settimeout(5)
        while b"\r\n\r\n" not in buf:
            chunk = s.recv(4096)
            if not chunk:
                break
            buf += chunk
        head, _, rest = buf.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                length = int(v.strip())
        while len(rest) < length:
            chunk = s.recv(4096)
            if not chunk:
                break
            rest += chunk
        ok_first = head.startswith(b"HTTP/1.1 200")
        t0 = time.monotonic()
        closed = closed_by_peer(s, limit)
        secs = time.monotonic() - t0
        raw_close(s)
        bound = min(header_to, idle_to) + SLACK
        check(ok_first and closed and secs <= bound,
              f"connections: idle keep-alive connection closed after "
              f"{'more than %d' % limit if not closed else '%.1f' % secs} s "
              f"(header timeout {header_to} s, ARBITER_IDLE_TIMEOUT_SECS={idle_to}, bound {bound:.0f} s)")
        check(server.alive(), "connections: server still running")
    finally:
        server.stop()


def group_slow_bodies(binary, logdir):
    """(e) bodies trickled at 1 byte/s hold no rules permit and are cut off by the body timeout."""
    body_to = 6
    workers, queue = 2, 2
    server = Server(binary, logdir, "slow-bodies", {
        "ARBITER_RULES_WORKERS": workers, "ARBITER_RULES_QUEUE": queue,
        "ARBITER_BODY_READ_TIMEOUT_SECS": body_to,
    })
    try:
        if not check(server.wait_healthy(), "slow bodies: server answers /healthz"):
            server.tail()
            return
        tricklers = workers + queue
        socks, started, closed_at = [], [], [None] * tricklers

        def trickle(i, s):
            head = (f"POST /v1/range HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(RANGE_BODY)}\r\n\r\n").encode()
            s.sendall(head)
            t0 = time.monotonic()
            started.append(t0)
            closed_at[i] = trickle_until_closed(s, RANGE_BODY, body_to + 10)

        threads = []
        for i in range(tricklers):
            s = raw_connect(server.port)
            socks.append(s)
            t = threading.Thread(target=trickle, args=(i, s), daemon=True)
            t.start()
            threads.append(t)
        time.sleep(1.0)
        statuses = []
        t_end = time.monotonic() + body_to - 2.5
        while time.monotonic() < t_end and len(statuses) < 20:
            try:
                status, _, _, _ = request(server.port, "POST", "/v1/range", RANGE_BODY, timeout=10)
            except OSError:
                status = None
            statuses.append(status)
            time.sleep(0.1)
        check(statuses and all(st == 200 for st in statuses),
              f"slow bodies: with {tricklers} bodies trickling at 1 byte/s, {len(statuses)} other POSTs "
              f"answered {sorted(set(statuses), key=str)} (all 200 expected)")
        for t in threads:
            t.join(timeout=body_to + 15)
        for s in socks:
            raw_close(s)
        worst = None if any(c is None for c in closed_at) else max(closed_at)
        check(worst is not None and worst <= body_to + SLACK,
              f"slow bodies: trickled bodies cut off after "
              f"{'more than %d' % (body_to + 10) if worst is None else '%.1f' % worst} s "
              f"(ARBITER_BODY_READ_TIMEOUT_SECS={body_to}, bound {body_to + SLACK:.0f} s)")
        check(server.alive(), "slow bodies: server still running")
    finally:
        server.stop()


def group_shutdown(binary, logdir):
    """(f) SIGTERM: /readyz 503 while still accepting, exit within unready + grace + slack even
    with a long request in flight."""
    unready, grace = 3, 3
    server = Server(binary, logdir, "shutdown", {
        "ARBITER_UNREADY_SECS": unready, "ARBITER_SHUTDOWN_GRACE_SECS": grace,
        # A long request: a raised budget and timeout, so only the drain deadline can stop it.
        "ARBITER_WORK_BUDGET": 10**12, "ARBITER_REQUEST_TIMEOUT_SECS": 300,
        "ARBITER_MAX_ANSWER_BYTES": 1 << 30,
    })
    try:
        if not check(server.wait_healthy(), "shutdown: server answers /healthz"):
            server.tail()
            return
        status, _ = timed_get(server.port, "/readyz")
        check(status == 200, f"shutdown: /readyz answers {status} before SIGTERM (200 expected)")
        body = long_analyze()
        outcome = {}

        def long_request():
            t0 = time.monotonic()
            try:
                st, _, _, _ = request(server.port, "POST", "/v1/analyze", body, timeout=120)
                outcome["status"] = st
            except OSError as e:
                outcome["status"] = type(e).__name__
            outcome["secs"] = time.monotonic() - t0

        t = threading.Thread(target=long_request, daemon=True)
        t.start()
        time.sleep(1.5)
        in_flight = t.is_alive()
        check(in_flight, f"shutdown: the long request ({len(body) / 1e6:.1f} MB /v1/analyze) is still in "
                         f"flight 1.5 s after it was sent")
        t_term = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        # The signal is handled asynchronously: a probe sent right after it may still see 200.
        # /readyz must turn 503 within 0.5 s, then stay 503 (on accepted connections) until
        # shortly before the unready period ends.
        turned = None
        while time.monotonic() - t_term < 0.5:
            status, _ = timed_get(server.port, "/readyz", timeout=1)
            if status == 503:
                turned = time.monotonic() - t_term
                break
            time.sleep(0.02)
        check(turned is not None,
              f"shutdown: /readyz turned 503 "
              f"{'%.0f ms' % (turned * 1000) if turned is not None else 'not within 500 ms'} after SIGTERM")
        readyz = []
        while time.monotonic() - t_term < unready - 0.5:
            status, ms = timed_get(server.port, "/readyz", timeout=1)
            readyz.append(status)
            time.sleep(0.1)
        check(readyz and all(st == 503 for st in readyz),
              f"shutdown: then until {unready - 0.5:.1f} s after SIGTERM /readyz answered "
              f"{sorted(set(readyz), key=str)} ({len(readyz)} probes; 503 on an accepted connection expected)")
        bound = unready + grace + SLACK
        try:
            server.proc.wait(timeout=bound + 20)
        except subprocess.TimeoutExpired:
            pass
        exited = server.proc.poll() is not None
        secs = time.monotonic() - t_term
        t.join(timeout=5)
        if "status" in outcome:
            note(f"long request: {outcome['status']} after {outcome['secs']:.1f} s; "
                 f"exit status {server.proc.poll()}")
        else:
            note(f"long request: no answer yet; exit status {server.proc.poll()}")
        check(exited and secs <= bound,
              f"shutdown: exited {'%.1f' % secs if exited else 'not within %.0f' % (bound + 20)} s after SIGTERM "
              f"with a long request in flight (unready {unready} + grace {grace} + {SLACK:.0f} = {bound:.0f} s)")
    finally:
        server.stop()


def group_metrics(binary, logdir):
    """(g) random HTTP methods do not grow /metrics (method label restricted)."""
    server = Server(binary, logdir, "metrics", {})
    try:
        if not check(server.wait_healthy(), "metrics: server answers /healthz"):
            server.tail()
            return
        _, _, before, _ = request(server.port, "GET", "/metrics")
        rng = random.Random(7)
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        n = 3000
        conn = None
        sent = 0
        t0 = time.monotonic()
        for i in range(n):
            if time.monotonic() - t0 > 60:
                break
            method = "".join(rng.choice(letters) for _ in range(rng.randint(3, 12)))
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
                conn.request(method, "/metrics")
                conn.getresponse().read()
                sent += 1
            except (OSError, http.client.HTTPException):
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()
        status, _, after, _ = request(server.port, "GET", "/metrics")
        methods = set()
        for line in after.decode("utf-8", "replace").splitlines():
            if line.startswith("#"):
                continue
            idx = line.find('method="')
            if idx >= 0:
                methods.add(line[idx + 8:line.find('"', idx + 8)])
        note(f"{sent} requests with random methods in {time.monotonic() - t0:.1f} s")
        grown = len(after) - len(before)
        check(status == 200 and grown <= 64 * 1024,
              f"metrics: /metrics grew from {len(before)} to {len(after)} bytes (+{grown}; bound +65536)")
        check(len(methods) <= 10,
              f"metrics: {len(methods)} distinct method label values (<= 10 expected): "
              f"{sorted(methods)[:12]}{' ...' if len(methods) > 12 else ''}")
    finally:
        server.stop()



# ------------------------------------------------------------------------- connections at cap
DEPLOYMENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "deploy", "k8s", "deployment.yaml")


def deployment_env():
    """The `name: value` settings of deploy/k8s/deployment.yaml's container (standard library
    only: the manifest writes each as `- name: X` then `value: "Y"`; `valueFrom` ones are
    skipped), without the addresses, which the test chooses."""
    env, name = {}, None
    with open(DEPLOYMENT) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("- name:"):
                name = line.split(":", 1)[1].strip().strip('"')
            elif line.startswith("value:") and name:
                env[name] = line.split(":", 1)[1].strip().strip('"')
                name = None
    return {k: v for k, v in env.items() if k.startswith("ARBITER_") and not k.endswith("_ADDR")}


def memory_limit_mib():
    """The container's memory limit in deploy/k8s/deployment.yaml (`NNNMi`), MiB."""
    with open(DEPLOYMENT) as f:
        text = f.read()
    limits = text[text.index("limits:"):]
    for line in limits.splitlines():
        line = line.strip()
        if line.startswith("memory:"):
            return float(line.split(":", 1)[1].strip().strip('"').removesuffix("Mi"))
    raise ValueError("no memory limit in deployment.yaml")


def range_bodies():
    """Question bodies of 0.80–0.95 MB: 500 creatures, 10,000 walls (some low) and the map's
    squares (a third to half of the bytes) on grids of 300 to 400 squares a side, asking a
    range."""
    out = []
    for seed, side, walls in ((5, 300, 9000), (6, 300, 10000), (7, 350, 10000), (8, 400, 10000)):
        enc = scene(side, 500, walls, seed=seed)
        for w in enc["grid"]["walls"][: walls // 8]:
            w["kind"] = "low"
        out.append(json.dumps({"encounter": enc, "attacker": "c0", "target": "c1",
                               "weapon": {"kind": "ranged", "increment_ft": 100}}).encode())
    return out


def gzip_creatures_body():
    """3 KB of gzip that decodes to 1 MiB of minimal creatures (`{}` after `{}`)."""
    import gzip
    head = b'{"encounter":{"ruleset":"pf1e","grid":{"width":10,"height":10},"creatures":['
    tail = b']},"attacker":"a","target":"b","weapon":{"kind":"ranged","increment_ft":100}}'
    n = (1024 * 1024 - len(head) - len(tail)) // 3
    raw = head + b",".join([b"{}"] * n) + tail
    return gzip.compress(raw, 9), len(raw)


def load_clients(port, bodies, clients, rounds, secs, headers):
    """`clients` threads, each sending up to `rounds` bodies (cycling through `bodies`) one
    after another, for `secs` at most; returns the counts of statuses (and `reset`)."""
    counts = {}
    lock = threading.Lock()
    deadline = time.monotonic() + secs

    def client(i):
        for r in range(rounds):
            if time.monotonic() >= deadline:
                return
            body = bodies[(i + r) % len(bodies)]
            try:
                status, _, _, _ = request(port, "POST", "/v1/range", body, headers, timeout=60)
            except (OSError, http.client.HTTPException):
                status = "reset"
            with lock:
                counts[status] = counts.get(status, 0) + 1

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=secs + 90)
    return counts


def group_conn_memory(binary, logdir):
    """(h) the Kubernetes settings hold under the container's memory limit at the connection
    cap: 250 clients with ~1 MiB question bodies, then 200 with gzip bodies of 1 MiB decoded."""
    env = deployment_env()
    limit = memory_limit_mib()
    server = Server(binary, logdir, "conn-memory", env)
    try:
        if not check(server.wait_healthy(), "conn-memory: server answers /healthz"):
            server.tail()
            return
        idle = server.status_kib("VmRSS") or 0
        plain = range_bodies()
        sizes = sorted(len(b) / 1e6 for b in plain)
        counts = load_clients(server.port, plain, 250, 6, 40, {})
        plain_hwm = server.status_kib("VmHWM") or 0
        note(f"250 clients, {sizes[0]:.2f}-{sizes[-1]:.2f} MB bodies: {counts}; "
             f"VmHWM {plain_hwm / 1024:.1f} MiB")
        packed, decoded = gzip_creatures_body()
        counts = load_clients(server.port, [packed], 200, 6, 40, {"Content-Encoding": "gzip"})
        hwm = server.status_kib("VmHWM") or 0
        note(f"200 clients, {len(packed) / 1e3:.1f} KB gzip -> {decoded / 1e6:.2f} MB of creatures: {counts}; "
             f"VmHWM {hwm / 1024:.1f} MiB")
        time.sleep(2)
        after = server.status_kib("VmRSS") or 0
        check(hwm / 1024 < limit,
              f"conn-memory: peak resident VmHWM {hwm / 1024:.1f} MiB (after the ~1 MiB bodies "
              f"{plain_hwm / 1024:.1f} MiB; idle {idle / 1024:.1f} MiB, 2 s after the load {after / 1024:.1f} MiB) "
              f"< the deployment's limit {limit:.0f} MiB")
        status, _, _, _ = request(server.port, "POST", "/v1/range", RANGE_BODY)
        check(server.alive() and status == 200, f"conn-memory: server alive and answering after the load ({status})")
    finally:
        server.stop()


def group_probe_at_cap(binary, logdir):
    """(i) liveness at the connection cap: with 50 idle connections holding the cap of 50 and
    150 silent ones beyond it, the probe listener answers /healthz 200 every time; /readyz
    there still turns 503 during the unready period after SIGTERM."""
    probe_port = free_port()
    server = Server(binary, logdir, "probe-at-cap", {
        "ARBITER_MAX_CONNECTIONS": 50, "ARBITER_PROBE_ADDR": f"127.0.0.1:{probe_port}",
        "ARBITER_UNREADY_SECS": 3, "ARBITER_SHUTDOWN_GRACE_SECS": 1,
    })
    held = []
    try:
        if not check(server.wait_healthy(), "probe-at-cap: server answers /healthz"):
            server.tail()
            return
        for _ in range(50):
            held.append(raw_connect(server.port))
        time.sleep(0.5)
        for _ in range(150):
            try:
                held.append(raw_connect(server.port, timeout=2))
            except OSError:
                pass
        time.sleep(0.2)
        main = [timed_get(server.port, "/healthz", timeout=2)[0] for _ in range(5)]
        probes = []
        for _ in range(10):
            probes.append(timed_get(probe_port, "/healthz", timeout=2))
            time.sleep(0.3)
        statuses = [st for st, _ in probes]
        note(f"main port /healthz at the cap: {main}")
        check(statuses == [200] * len(probes),
              f"probe-at-cap: ARBITER_PROBE_ADDR /healthz at the cap: {statuses} "
              f"(max {max(ms for _, ms in probes):.1f} ms)")
        ready, _ = timed_get(probe_port, "/readyz", timeout=2)
        metrics, _ = timed_get(probe_port, "/metrics", timeout=2)
        check((ready, metrics) == (200, 200), f"probe-at-cap: /readyz {ready} and /metrics {metrics} on the probe listener")
        for s in held:
            raw_close(s)
        held = []
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        ready, _ = timed_get(probe_port, "/readyz", timeout=2)
        live, _ = timed_get(probe_port, "/healthz", timeout=2)
        check((ready, live) == (503, 200),
              f"probe-at-cap: during the unready period the probe listener answers /readyz {ready}, /healthz {live}")
    finally:
        for s in held:
            raw_close(s)
        server.stop()


# ------------------------------------------------------------------------------------ imports
IMPORT_BOMB_MIB = float(os.environ.get("REL_IMPORT_BOMB_MIB", "200"))


def import_bomb(head, item, tail, decoded=32 * 1024 * 1024 - 1024):
    """gzip of `head`, `item` repeated (comma-separated) and `tail`: `decoded` bytes of JSON (just
    under the 32 MiB import limit) in some 32 KB on the wire."""
    import zlib
    count = (decoded - len(head) - len(tail)) // (len(item) + 1)
    z = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: the gzip wrapper
    out = [z.compress(head.encode())]
    block = ((item + ",") * 65536).encode()
    left = count
    while left > 0:
        n = min(left, 65536)
        out.append(z.compress(block[:n * (len(item) + 1)]))
        left -= n
    out.append(z.compress(item.encode()))  # the last one, no comma after it
    out.append(z.compress(tail.encode()))
    out.append(z.flush())
    return b"".join(out)


IMPORT_BOMBS = [
    ("Foundry tokens", "/v1/import/foundry", '{"scene":{"width":1000,"height":1000,"tokens":[', "{}", "]}}"),
    ("Foundry lights", "/v1/import/foundry", '{"scene":{"width":1000,"height":1000,"lights":[', "{}", "]}}"),
    ("Foundry walls", "/v1/import/foundry", '{"scene":{"width":1000,"height":1000,"walls":[', '{"c":[]}', "]}}"),
    ("Universal VTT line_of_sight", "/v1/import/uvtt",
     '{"format":0.3,"resolution":{"map_size":{"x":10,"y":10}},"line_of_sight":[', "[]", "]}"),
]


def uvtt_points_bomb(decoded=32 * 1024 * 1024 - 1024):
    """gzip of a Universal VTT file of real points just under 32 MiB: polylines of 1,000 points
    along rows 0.5 squares apart, each segment distinct (about 1.6 million walls before the
    ARBITER_MAX_WALLS refusal)."""
    import zlib
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    head = '{"format":0.3,"resolution":{"map_size":{"x":1000,"y":1000}},"line_of_sight":['
    out, size, j = [z.compress(head.encode())], len(head), 0
    while True:
        y = j * 0.5
        line = "[" + ",".join('{"x":%d,"y":%s}' % (x, y) for x in range(1000)) + "]"
        if size + len(line) + 3 > decoded:
            break
        out.append(z.compress(((',' if j else '') + line).encode()))
        size += len(line) + 1
        j += 1
    out.append(z.compress(b"]}"))
    out.append(z.flush())
    return b"".join(out)


def cover_body():
    return json.dumps({
        "encounter": {
            "ruleset": "dnd5e2014",
            "grid": {"width": 6, "height": 3},
            "creatures": [
                {"id": "archer", "side": "party", "at": {"x": 0, "y": 1}},
                {"id": "orc", "side": "monsters", "at": {"x": 4, "y": 1}},
            ],
        },
        "attacker": "archer",
        "target": "orc",
    }).encode()


def group_imports(binary, logdir):
    """Import bombs (gzip bodies of ~32 KB decoding to 32 MiB of one long list) each keep the
    peak resident memory under REL_IMPORT_BOMB_MIB; two bomb senders at once leave /v1/cover
    answering 200 within 2 s; SIGTERM during a slow import answers it 503 shutting-down and the
    process exits within unready + grace + slack."""
    bombs = []
    for name, path, head, item, tail in IMPORT_BOMBS:
        bombs.append((name, path, import_bomb(head, item, tail)))
    # Real points: every list within its bound, the walls they make past ARBITER_MAX_WALLS.
    bombs.append(("Universal VTT real points", "/v1/import/uvtt", uvtt_points_bomb()))
    gz = {"Content-Encoding": "gzip"}
    server = Server(binary, logdir, "imports", {
        "ARBITER_RULES_WORKERS": 2, "ARBITER_REQUEST_TIMEOUT_SECS": 60, "ARBITER_BODY_READ_TIMEOUT_SECS": 60,
    })
    try:
        if not check(server.wait_healthy(), "imports: server answers /healthz"):
            server.tail()
            return
        for name, path, body in bombs:
            server.reset_peak()
            before = server.status_kib("VmHWM") or 0
            try:
                status, _, data, secs = request(server.port, "POST", path, body, headers=gz, timeout=120)
            except OSError as e:
                status, data, secs = type(e).__name__, b"", 0.0
            hwm = (server.status_kib("VmHWM") or 0) / 1024
            pointer = ""
            try:
                pointer = json.loads(data)["errors"][0]["pointer"]
            except (ValueError, KeyError, IndexError, TypeError):
                pass
            note(f"{name}: {len(body)} bytes on the wire; answer {status} {pointer} after {secs:.1f} s; "
                 f"VmHWM {before / 1024:.1f} -> {hwm:.1f} MiB")
            check(status == 422 and hwm < IMPORT_BOMB_MIB,
                  f"imports: the {name} bomb answers {status} (422 expected) with a peak of {hwm:.1f} MiB "
                  f"(under {IMPORT_BOMB_MIB:.0f} MiB)")
            if not server.alive():
                check(False, "imports: the server died")
                server.tail()
                return
        # Two senders of bombs at once for 4 s, /v1/cover probed meanwhile.
        server.reset_peak()
        stop = time.monotonic() + 4.0
        sent = []

        def sender():
            _, path, body = bombs[0]
            while time.monotonic() < stop:
                try:
                    st, _, _, _ = request(server.port, "POST", path, body, headers=gz, timeout=120)
                except OSError as e:
                    st = type(e).__name__
                sent.append(st)

        threads = [threading.Thread(target=sender, daemon=True) for _ in range(2)]
        for t in threads:
            t.start()
        probes = []
        cover = cover_body()
        while any(t.is_alive() for t in threads) and len(probes) < 200:
            try:
                st, _, _, secs = request(server.port, "POST", "/v1/cover", cover, timeout=30)
            except OSError as e:
                st, secs = type(e).__name__, 30.0
            probes.append((st, secs))
            time.sleep(0.1)
        for t in threads:
            t.join(timeout=130)
        hwm = (server.status_kib("VmHWM") or 0) / 1024
        slowest = max((s for _, s in probes), default=0.0)
        statuses = sorted({str(st) for st, _ in probes})
        note(f"two bomb senders: {len(sent)} bombs answered {sorted({str(st) for st in sent})}; "
             f"{len(probes)} /v1/cover probes answered {statuses}, slowest {slowest:.2f} s; VmHWM {hwm:.1f} MiB")
        check(probes and all(st == 200 and secs < 2.0 for st, secs in probes),
              f"imports: with two bomb senders every /v1/cover answers 200 within 2 s "
              f"({len(probes)} probes: {statuses}, slowest {slowest:.2f} s)")
        check(hwm < IMPORT_BOMB_MIB, f"imports: two bomb senders at once peak at {hwm:.1f} MiB "
                                     f"(under {IMPORT_BOMB_MIB:.0f} MiB)")
    finally:
        server.stop()
    import_shutdown(binary, logdir)


def import_shutdown(binary, logdir):
    """SIGTERM while a Foundry import's body is still arriving: its client gets 503
    shutting-down, and the process exits within unready + grace + slack."""
    unready, grace = 1, 1
    server = Server(binary, logdir, "imports-shutdown", {
        "ARBITER_UNREADY_SECS": unready, "ARBITER_SHUTDOWN_GRACE_SECS": grace,
        "ARBITER_BODY_READ_TIMEOUT_SECS": 60, "ARBITER_REQUEST_TIMEOUT_SECS": 60,
    })
    try:
        if not check(server.wait_healthy(), "imports: shutdown server answers /healthz"):
            server.tail()
            return
        s = raw_connect(server.port)
        head = (f"POST /v1/import/foundry HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {32 * 1024 * 1024 - 1024}\r\n\r\n").encode()
        s.sendall(head + b'{"scene":{"tokens":[{}')
        time.sleep(0.5)
        t_term = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        bound = unready + grace + SLACK
        answer = b""
        s.setblocking(False)
        while time.monotonic() - t_term < bound + 5:
            try:
                s.sendall(b",{}")
            except (BlockingIOError, OSError):
                pass
            try:
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
                if b"\r\n\r\n" in answer and b"}" in answer.split(b"\r\n\r\n", 1)[1]:
                    break
            except BlockingIOError:
                pass
            except OSError:
                break
            time.sleep(0.05)
        answered = time.monotonic() - t_term
        raw_close(s)
        status_line = answer.split(b"\r\n", 1)[0].decode("latin-1") if answer else "nothing"
        kind = b"shutting-down" in answer
        check(status_line.startswith("HTTP/1.1 503") and kind,
              f"imports: SIGTERM during a slow Foundry import answers it {status_line!r} "
              f"{'(shutting-down)' if kind else ''} after {answered:.1f} s (503 shutting-down expected)")
        try:
            server.proc.wait(timeout=bound + 20)
        except subprocess.TimeoutExpired:
            pass
        exited = server.proc.poll() is not None
        secs = time.monotonic() - t_term
        check(exited and secs <= bound,
              f"imports: exited {'%.1f' % secs if exited else 'not within %.0f' % (bound + 20)} s after SIGTERM "
              f"with an import arriving (unready {unready} + grace {grace} + {SLACK:.0f} = {bound:.0f} s)")
    finally:
        server.stop()


# ------------------------------------------------------------------------------------ cpu
def elf_has_debug_info(path):
    """Whether the ELF file at `path` has a `.debug_info` section: a debug build has one, a
    release build (Cargo strips debug info from release binaries) none. None if not ELF."""
    import struct
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2:
            return None
        end = "<" if head[5] == 1 else ">"
        shoff, = struct.unpack(end + "Q", head[0x28:0x30])
        shentsize, shnum, shstrndx = struct.unpack(end + "HHH", head[0x3A:0x40])
        f.seek(shoff)
        table = f.read(shentsize * shnum)

        def section(i):
            name, _, _, _, offset, size = struct.unpack(end + "IIQQQQ", table[i * shentsize:i * shentsize + 40])
            return name, offset, size

        _, str_off, str_size = section(shstrndx)
        f.seek(str_off)
        names = f.read(str_size)
    for i in range(shnum):
        name_at = section(i)[0]
        if names[name_at:names.index(b"\0", name_at)] == b".debug_info":
            return True
    return False


def process_cpu_ms(pid):
    """utime + stime of process `pid` (every thread), milliseconds, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # After the command: state is field 3, utime and stime fields 14 and 15 (1-based).
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def fighter(cid, side, x, y, **extra):
    c = {"id": cid, "side": side, "at": {"x": x, "y": y}}
    c.update(extra)
    return c


def packed_analyze(ruleset, reach_ft=None):
    """500 creatures on 500 of a 25x25 map's 625 squares, two alternating sides."""
    extra = {} if reach_ft is None else {"reach_ft": reach_ft}
    people = [fighter(f"c{i}", "a" if i % 2 == 0 else "b", i % 25, i // 25, **extra) for i in range(500)]
    return {"encounter": {"ruleset": ruleset, "grid": {"width": 25, "height": 25}, "creatures": people}}


def low_wall_cover(ruleset, size):
    """Two of the largest creatures 990 squares apart across 10,000 low walls 40 squares long,
    0.098 squares apart: every line between them crosses all of them."""
    walls = [{"from": {"x": round(7 + 0.098 * i, 3), "y": 480}, "to": {"x": round(7 + 0.098 * i, 3), "y": 520},
              "kind": "low"} for i in range(10000)]
    return {"encounter": {"ruleset": ruleset, "grid": {"width": 1000, "height": 1000, "walls": walls},
                          "creatures": [fighter("a", "party", 0, 497, size=size),
                                        fighter("t", "monsters", 990, 497, size=size)]},
            "attacker": "a", "target": "t", "attack": "ranged"}


def long_move(ruleset):
    """1,000 steps zigzagging east past 499 enemies of 1,000 ft reach along the path."""
    people = [fighter("m", "party", 0, 500, speed_ft=10000)]
    people += [fighter(f"e{i}", "monsters", 2 + 2 * i, 492 if i % 2 == 0 else 508, reach_ft=1000)
               for i in range(499)]
    path = [{"x": i, "y": 500 + i % 2} for i in range(1, 991)] + [{"x": 990, "y": 500 + k} for k in range(1, 11)]
    return {"encounter": {"ruleset": ruleset, "grid": {"width": 1000, "height": 1000}, "creatures": people},
            "creature": "m", "mode": "walk", "path": path}


def long_charge(ruleset):
    """A charge 995 squares east (the path the engine picks: a given one holds at most 256
    steps) past 498 enemies of 1,000 ft reach beside it."""
    people = [fighter("a", "party", 0, 500, speed_ft=5000, stats={"cmb": 8, "attack_bonus": 5}),
              fighter("t", "monsters", 995, 500, stats={"cmd": 20, "ac": 15})]
    people += [fighter(f"e{i}", "monsters", 2 + 2 * i, 495 if i % 2 == 0 else 505, reach_ft=1000)
               for i in range(498)]
    return {"encounter": {"ruleset": ruleset, "grid": {"width": 1000, "height": 1000}, "creatures": people},
            "attacker": "a", "target": "t", "kind": "charge",
            "dice": {"mode": "odds"}}


def big_initiative(ruleset):
    """500 creatures of distinct-ish bonuses (37 values), the exact odds of acting first."""
    people = [fighter(f"c{i}", "a", i % 100, i // 100, stats={"initiative_bonus": i % 37}) for i in range(500)]
    return {"encounter": {"ruleset": ruleset, "grid": {"width": 100, "height": 100}, "creatures": people},
            "dice": {"mode": "odds"}}


def unknown_fields(body, n=50):
    """`body` with `n` unknown top-level fields after its own."""
    body = dict(body)
    for i in range(n):
        body[f"unknown_{i}"] = i
    return body


def inline_uvtt_body():
    """About 800 KB: a cover question whose grid is an inline Universal VTT file of 45,000
    points (45 polylines of 1,000), then 50 unknown top-level fields."""
    rng = Lcg(7)
    lines = [[{"x": rng.next(1000), "y": rng.next(1000)} for _ in range(1000)] for _ in range(45)]
    uvtt = {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 1000, "y": 1000},
                                         "pixels_per_grid": 100},
            "line_of_sight": lines}
    return unknown_fields({"encounter": {"ruleset": "pf1e", "grid": {"uvtt": uvtt},
                                         "creatures": [fighter("a", "party", 1, 1), fighter("t", "monsters", 5, 5)]},
                           "attacker": "a", "target": "t"})


def many_creatures_body(limit=1024 * 1024):
    """Just under 1 MiB of minimal creatures in an analyze question, then 50 unknown fields."""
    people = []
    size = 200
    while size < limit - 1200:
        c = fighter(f"c{len(people)}", "a" if len(people) % 2 else "b", len(people) % 100, len(people) % 97)
        size += len(json.dumps(c)) + 2
        people.append(c)
    return unknown_fields({"encounter": {"ruleset": "pf1e", "grid": {"width": 100, "height": 100},
                                         "creatures": people}})


CPU_MS = float(os.environ.get("REL_CPU_MS", "120"))
CPU_PARSE_MS = float(os.environ.get("REL_CPU_PARSE_MS", "150"))


def cpu_cases():
    """(name, path, body, CPU bound in ms, statuses accepted)."""
    ok_or_budget = (200, 422)
    cases = [
        ("parse: 800 KB inline uvtt of 45k points + 50 unknown fields", "/v1/cover", inline_uvtt_body(),
         CPU_PARSE_MS, (422,)),
        ("parse: 1 MiB of creatures + 50 unknown fields", "/v1/analyze", many_creatures_body(), CPU_PARSE_MS,
         (422,)),
    ]
    for ruleset in ("pf1e", "dnd5e2024", "sf1e"):
        cases.append((f"analyze: {ruleset} 500 packed on 25x25", "/v1/analyze", packed_analyze(ruleset), CPU_MS,
                      ok_or_budget))
        cases.append((f"analyze: {ruleset} 500 packed on 25x25, reach 1000 ft", "/v1/analyze",
                      packed_analyze(ruleset, 1000), CPU_MS, ok_or_budget))
    cases += [
        ("cover: pf1e colossal vs colossal across 10k low walls", "/v1/cover",
         low_wall_cover("pf1e", "colossal"), CPU_MS, ok_or_budget),
        ("cover: dnd5e2024 gargantuan vs gargantuan across 10k low walls", "/v1/cover",
         low_wall_cover("dnd5e2024", "gargantuan"), CPU_MS, ok_or_budget),
        ("movement: pf1e 1000 steps past 499 enemies of reach 1000 ft", "/v1/movement", long_move("pf1e"),
         CPU_MS, ok_or_budget),
        ("movement: dnd5e2024 1000 steps past 499 enemies of reach 1000 ft", "/v1/movement",
         long_move("dnd5e2024"), CPU_MS, ok_or_budget),
        ("maneuvers: pf1e charge past 498 enemies of reach 1000 ft", "/v1/maneuvers", long_charge("pf1e"),
         CPU_MS, ok_or_budget),
        ("initiative: pf1e 500 creatures, odds", "/v1/initiative", big_initiative("pf1e"), CPU_MS, ok_or_budget),
        ("initiative: dnd5e2024 500 creatures, odds", "/v1/initiative", big_initiative("dnd5e2024"), CPU_MS,
         ok_or_budget),
    ]
    return cases


def group_cpu(binary, logdir):
    """Each worst case, one request at a time, costs the server process under its CPU bound."""
    debug = elf_has_debug_info(binary)
    if debug is not False and os.environ.get("REL_RELEASE_BIN") != "1":
        check(False, f"cpu: {binary} is {'a debug build' if debug else 'not an ELF file'}: CPU bounds "
                     "are judged on a release binary only (cargo build --release --locked), or set "
                     "REL_RELEASE_BIN=1 for an ELF release binary built with debug info")
        return
    server = Server(binary, logdir, "cpu", {"ARBITER_RULES_WORKERS": 1})
    try:
        if not check(server.wait_healthy(), "cpu: server healthy"):
            server.tail()
            return
        # Warm up: the first request pays for lazily built tables.
        request(server.port, "POST", "/v1/analyze", json.dumps(packed_analyze("pf1e")).encode(), timeout=30)
        for name, path, body, bound, accepted in cpu_cases():
            data = json.dumps(body).encode()
            spent, statuses, kinds = [], set(), set()
            for _ in range(3):
                before = process_cpu_ms(server.proc.pid)
                status, _, answer, _ = request(server.port, "POST", path, data, timeout=30)
                spent.append(process_cpu_ms(server.proc.pid) - before)
                statuses.add(status)
                if status != 200:
                    try:
                        kinds.add(json.loads(answer).get("type", "?").rsplit(":", 1)[-1])
                    except ValueError:
                        kinds.add("?")
            median = sorted(spent)[1]
            what = "/".join(str(s) for s in sorted(statuses)) + (f" {','.join(sorted(kinds))}" if kinds else "")
            check(statuses <= set(accepted) and median < bound,
                  f"cpu: {name} ({len(data) / 1024:.0f} KiB): {what}, CPU {median:.0f} ms "
                  f"(runs {', '.join(f'{s:.0f}' for s in spent)}; bound {bound:.0f} ms)")
    finally:
        server.stop()


GROUPS = {
    "saturation": group_saturation,
    "memory": group_memory,
    "connections": group_connections,
    "slow-bodies": group_slow_bodies,
    "shutdown": group_shutdown,
    "metrics": group_metrics,
    "conn-memory": group_conn_memory,
    "probe-at-cap": group_probe_at_cap,
    "imports": group_imports,
    "cpu": group_cpu,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the arbiter binary")
    parser.add_argument("--only", default="", help="comma-separated groups: " + ",".join(GROUPS))
    args = parser.parse_args()
    # The CPU bounds hold for a release build only: that group runs when named.
    groups = [g for g in args.only.split(",") if g] or [g for g in GROUPS if g != "cpu"]
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        parser.error(f"unknown groups {unknown}")
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    keep = os.environ.get("REL_KEEP_LOGS") == "1"
    logdir = tempfile.mkdtemp(prefix="reliability.")
    note(f"binary {args.bin}; server logs in {logdir}")
    completed = False
    try:
        for g in groups:
            t0 = time.monotonic()
            print(f"# --- {g}", flush=True)
            try:
                GROUPS[g](args.bin, logdir)
            except (OSError, http.client.HTTPException, ValueError) as e:
                check(False, f"{g}: aborted by {type(e).__name__}: {e}")
            note(f"{g}: {time.monotonic() - t0:.1f} s")
        completed = True
    finally:
        cleanup()
        if not completed:
            check(False, "aborted before every group ran")
        if FAILED:
            keep = True
        if not keep:
            for name in os.listdir(logdir):
                os.remove(os.path.join(logdir, name))
            os.rmdir(logdir)
        else:
            print(f"#    server logs kept in {logdir}", flush=True)
        print(f"reliability: {PASSED} passed, {FAILED} failed", flush=True)
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
