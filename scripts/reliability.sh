#!/usr/bin/env bash
# Reliability suite: overload, stalls, slow clients, memory, shutdown and metrics cardinality,
# against a real `arbiter` binary on loopback (scripts/reliability.py, Python standard library
# only). Every check is bounded in time; every server it starts is stopped on exit.
#
#   scripts/reliability.sh [--only saturation,memory,connections,slow-bodies,shutdown,metrics,
#                                  conn-memory,probe-at-cap,imports,cpu]
#
# Groups and what they assert:
#   saturation   with 2 rules workers + 2 queued kept busy by 8 heavy /v1/analyze loaders (the
#                PRODUCT.md scene: 50 creatures, 200x200, 1,000 walls), GET /healthz, /readyz
#                and /metrics keep a p99 under REL_PROBE_P99_MS, and extra questions answer 503
#                problem+json with Retry-After with a p99 under REL_SHED_P99_MS
#   memory       peak VmRSS/VmHWM under REL_RSS_MIB during amplification requests (every
#                pair's trace with 500 repeated attackers; traces of ~10 MB and ~7.4 MB; SVG
#                of a dense 1000x1000 map from /v1/cover and /v1/movement) and 6 clients that
#                send the trace requests and never read their answers
#   connections  a header trickled at 1 byte/s and a silent connection are closed within
#                ARBITER_HEADER_READ_TIMEOUT_SECS (2) + slack; an idle keep-alive connection
#                within ARBITER_IDLE_TIMEOUT_SECS (3) + slack
#   slow-bodies  4 bodies trickled at 1 byte/s (= workers + queue) do not make other POSTs 503;
#                they are cut off within ARBITER_BODY_READ_TIMEOUT_SECS (6) + slack
#   shutdown     after SIGTERM /readyz answers 503 on accepted connections during
#                ARBITER_UNREADY_SECS (3); the process exits within unready + grace (3) + slack
#                with a many-second request in flight
#   metrics      3,000 requests with random HTTP methods grow /metrics by at most 64 KiB and
#                leave at most 10 method label values
#   conn-memory  with deploy/k8s/deployment.yaml's settings, 250 clients sending 0.80-0.95 MB
#                question bodies, then 200 sending 1.2 KB gzip bodies of 1 MiB decoded: VmHWM
#                under the manifest's memory limit (512 MiB)
#   probe-at-cap with ARBITER_MAX_CONNECTIONS=50, 50 idle connections and 150 silent ones beyond
#                the cap, GET /healthz on ARBITER_PROBE_ADDR answers 200 every time; /readyz there
#                turns 503 after SIGTERM
#   imports      gzip import bombs (~32 KB decoding to 32 MiB of Foundry tokens, lights, walls,
#                Universal VTT line_of_sight) each answer 422 with VmHWM under REL_IMPORT_BOMB_MIB;
#                two bomb senders at once leave /v1/cover 200 within 2 s; SIGTERM during a slow
#                Foundry import answers it 503 shutting-down and exits within 1 + 1 + slack s
#   cpu          the worst cases at the caps, one request at a time (analyze of 500 creatures
#                packed on 25x25, with reach 1,000 ft too; cover of the largest creatures across
#                10,000 low walls; 1,000 steps and a charge past 498-499 enemies of reach
#                1,000 ft; initiative of 500) each cost the server under REL_CPU_MS of CPU
#                (utime+stime from /proc/PID/stat, median of 3), and two refused bodies (800 KB
#                inline Universal VTT + 50 unknown fields, 1 MiB of creatures + 50 unknown
#                fields) under REL_CPU_PARSE_MS; judged on a release binary only (one without
#                .debug_info; REL_RELEASE_BIN=1 vouches for another), so it runs only when
#                named with --only
#
# Settings (environment):
#   ARBITER_BIN        binary to test; default target/release/arbiter if it exists, else
#                      target/debug/arbiter (built with `cargo build --locked` when missing)
#   REL_PROBE_P99_MS   default 100
#   REL_SHED_P99_MS    default 100
#   REL_RSS_MIB        default 256
#   REL_SLACK_SECS     slack on timeout-based closes, default 2
#   REL_IMPORT_BOMB_MIB default 200
#   REL_CPU_MS         default 120; REL_CPU_PARSE_MS default 150
#   REL_KEEP_LOGS=1    keep the server logs (always kept when a check fails)
#
# Last line: `reliability: N passed, M failed`; exit status 0 only if M is 0. About 2 min.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

if [ -n "${ARBITER_BIN:-}" ]; then
  BIN=$ARBITER_BIN
elif [ -x target/release/arbiter ]; then
  BIN=$ROOT/target/release/arbiter
else
  BIN=$ROOT/target/debug/arbiter
  if [ ! -x "$BIN" ]; then
    echo "reliability: cargo build --locked --bin arbiter" >&2
    timeout 1800 cargo build --locked --bin arbiter
  fi
fi
if [ ! -x "$BIN" ]; then
  echo "reliability: no executable at $BIN" >&2
  echo "reliability: 0 passed, 1 failed"
  exit 1
fi
command -v python3 >/dev/null || { echo "reliability: python3 is required" >&2; exit 2; }

# The Python driver stops every server it starts (also on SIGINT/SIGTERM); the whole run is
# capped here as a last resort.
exec timeout --signal=TERM --kill-after=30 900 python3 "$ROOT/scripts/reliability.py" --bin "$BIN" "$@"
