#!/usr/bin/env bash
# Idle memory of a release binary, as the process sees it (VmRSS and VmHWM of
# /proc/PID/status): after start, then after 41 requests (20 cover questions in JSON, 20 as
# SVG, the catalog). Loopback only; the server it starts is stopped on exit.
#
#   scripts/idle-rss.sh [BIN] [PORT]     (defaults: target/release/arbiter, 18731)
set -euo pipefail
bin=${1:-target/release/arbiter}
port=${2:-18731}
"$bin" --addr "127.0.0.1:$port" >/dev/null 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
mem() { grep -E '^(VmRSS|VmHWM|RssAnon|RssFile|Threads)' "/proc/$pid/status" | tr -s ' \t\n' ' '; echo; }
for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
sleep 1
echo "after start:        $(mem)"
body='{"encounter":{"ruleset":"pf1e","grid":{"width":12,"height":8},"creatures":[{"id":"a","side":"x","at":{"x":1,"y":2}},{"id":"b","side":"y","at":{"x":9,"y":2}}]},"attacker":"a","target":"b"}'
for _ in $(seq 20); do
  curl -fs -o /dev/null -H 'content-type: application/json' -d "$body" "http://127.0.0.1:$port/v1/cover"
  curl -fs -o /dev/null -H 'accept: image/svg+xml' -H 'content-type: application/json' -d "$body" "http://127.0.0.1:$port/v1/cover"
done
curl -fs -o /dev/null "http://127.0.0.1:$port/v1/rules"
sleep 1
echo "after 41 requests:  $(mem)"
