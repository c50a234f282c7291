#!/usr/bin/env python3
"""Asks two builds of the server the same questions and compares the answers byte for byte.

For a change that must not change behaviour (a refactoring): every fixture request of
tests/fixtures/ (sent to every question route, so the refusals are compared too), every curl
example of README.md, the map imports of tests/fixtures/import, the catalog, the OpenAPI
document and a few malformed bodies, each in English and French, as JSON and, on the routes
that draw, as SVG.

    scripts/compare-answers.py OLD_BINARY NEW_BINARY

Prints the number of answers compared and every difference (route, case, language, media type,
the first differing bytes); exits 1 if any. Answers made with unseeded random dice differ by
nature: requests whose dice are `{"mode": "random"}` without a seed are skipped.
"""

import concurrent.futures
import glob
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUESTIONS = ["range", "cover", "flanking", "concealment", "attack", "maneuvers", "movement",
             "initiative", "analyze"]
DRAWN = {"cover", "movement", "flanking", "concealment", "analyze"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary):
    port = free_port()
    env = dict(os.environ, ARBITER_ADDR=f"127.0.0.1:{port}", ARBITER_INSTANCE_ID="compare",
               ARBITER_RULES_QUEUE="4096", ARBITER_QUEUE_WAIT_MS="60000", RUST_LOG="error")
    proc = subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    sys.exit(f"{binary} did not start")


def ask(port, method, path, body, headers):
    # A 503 is load (the imports' gate admits one body per worker), not an answer: retried.
    for _ in range(50):
        answer = ask_once(port, method, path, body, headers)
        if answer[0] != 503:
            break
        time.sleep(0.1)
    return answer


def ask_once(port, method, path, body, headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, body=body, headers=headers)
    res = conn.getresponse()
    data = res.read()
    # Headers that differ from one request to the next by design.
    kept = sorted((k.lower(), v) for k, v in res.getheaders()
                  if k.lower() not in ("date", "x-request-id", "content-length"))
    conn.close()
    return res.status, kept, data


def unseeded(request):
    dice = request.get("dice") if isinstance(request, dict) else None
    return isinstance(dice, dict) and dice.get("mode") == "random" and "seed" not in dice


def fixture_requests():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/*/*.json"))):
        cases = json.load(open(path, encoding="utf-8"))
        if not isinstance(cases, list):
            continue
        for i, case in enumerate(cases):
            req = case.get("request")
            if req is None or unseeded(req):
                continue
            body = json.dumps(req).encode()
            name = f"{os.path.relpath(path, ROOT)}#{i}"
            for q in QUESTIONS:
                yield name, "POST", f"/v1/{q}", body, q in DRAWN


def readme_requests():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    for n, block in enumerate(re.findall(r"```(?:bash|sh)\n(.*?)```", text, re.S)):
        for m in re.finditer(r"curl (.*?)(?=\ncurl |\Z)", block, re.S):
            cmd = m.group(1)
            url = re.search(r"http://localhost:8080(/[^\s']*)", cmd)
            body = re.search(r"-d '(.*?)'", cmd, re.S)
            if not url or "@" in cmd.split("-d")[-1][:3]:
                continue
            route = url.group(1)
            if route == "/metrics":
                continue  # counts and durations of this very run
            data = body.group(1).encode() if body else None
            try:
                if data and unseeded(json.loads(data)):
                    continue
            except ValueError:
                pass  # an example of a malformed body
            yield f"README block {n}", "POST" if data else "GET", route, data, False


def other_requests():
    imports = {"uvtt": ["uvtt-room.dd2vtt", "uvtt-warnings.uvtt"],
               "foundry": ["foundry-old.json", "foundry-scene.json"]}
    for kind, files in imports.items():
        for f in files:
            raw = open(os.path.join(ROOT, "tests/fixtures/import", f), "rb").read()
            body = raw if kind == "uvtt" else json.dumps({"scene": json.loads(raw), "ruleset": "dnd5e2014"}).encode()
            yield f"import {f}", "POST", f"/v1/import/{kind}", body, False
    for path in ["/v1/rules", "/v1/rulesets", "/openapi.json", "/healthz", "/", "/nowhere",
                 "/playground"]:
        yield path, "GET", path, None, False
    # Wrong values of the closed sets (conditions, sizes, wall kinds, gravity, weapon
    # properties), every wrong type of each: their refusals' texts are compared too.
    base = json.load(open(os.path.join(ROOT, "tests/fixtures/cover/cases.json"), encoding="utf-8"))[0]["request"]
    for field, values in [("conditions", ["invisble", 3, None, {"prone": 1}, ["prone"]]),
                          ("size", ["hughe", 7, None, {"large": None}]),
                          ("kind", ["wall", 1, {"solid": None}]),
                          ("gravity", ["none", 0, {"low": 1}]),
                          ("properties", ["sharp", 1, [2]]),
                          ("ruleset", ["dnd5e", 5, None, {"pf1e": None}, ["pf1e"]])]:
        for v in values:
            req = json.loads(json.dumps(base))
            c = req["encounter"]["creatures"][0]
            if field == "conditions":
                c["conditions"] = [v]
            elif field == "size":
                c["size"] = v
            elif field == "kind":
                req["encounter"]["grid"]["walls"] = [{"from": {"x": 1, "y": 0}, "to": {"x": 1, "y": 1}, "kind": v}]
            elif field == "ruleset":
                req["encounter"]["ruleset"] = v
            elif field == "gravity":
                req["encounter"]["environment"] = {"gravity": v}
            else:
                req["weapon"] = {"properties": [v]}
            for q in ("cover", "attack"):
                yield f"closed set {field}={v!r}", "POST", f"/v1/{q}", json.dumps(req).encode(), False
    for bad in [b"{", b"[]", b'{"encounter": 3}', b'{"encounter": {"ruleset": "nope"}}', b"x" * 2000]:
        for q in QUESTIONS:
            yield f"bad {bad[:20]!r}", "POST", f"/v1/{q}", bad, False


def variants(item):
    name, method, path, body, drawn = item
    for lang in ("en", "fr"):
        headers = {"Accept-Language": lang}
        if body is not None:
            headers["Content-Type"] = "application/json"
        yield name, method, path, body, dict(headers, Accept="application/json"), f"{lang} json"
        if drawn:
            yield name, method, path, body, dict(headers, Accept="image/svg+xml"), f"{lang} svg"


def main():
    old_bin, new_bin = sys.argv[1:3]
    (old, old_port), (new, new_port) = start(old_bin), start(new_bin)
    items = [v for src in (fixture_requests(), readme_requests(), other_requests())
             for item in src for v in variants(item)]
    diffs = []

    def compare(v):
        name, method, path, body, headers, how = v
        a = ask(old_port, method, path, body, headers)
        b = ask(new_port, method, path, body, headers)
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a[2], b[2])) if x != y), min(len(a[2]), len(b[2])))
            return (f"{method} {path} [{name}] {how}: status {a[0]} vs {b[0]}; headers equal: {a[1] == b[1]}; "
                    f"body differs at byte {at}: {a[2][max(0, at - 60):at + 60]!r} vs {b[2][max(0, at - 60):at + 60]!r}")
        return None

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            for d in pool.map(compare, items):
                if d:
                    diffs.append(d)
    finally:
        old.kill()
        new.kill()
    for d in diffs[:50]:
        print(d)
    print(f"{len(items)} answers compared, {len(diffs)} differ")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
