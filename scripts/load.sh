#!/usr/bin/env bash
# Load test of a release `arbiter` on loopback with wrk: POST /v1/range and
# GET /healthz side by side in one run, server pinned to one CPU and wrk to
# another, then the server's peak RSS.
#
#   scripts/load.sh [--body FILE] [--duration 10s] [--warmup 2s] [--connections 64] [--threads 1]
#
# The same settings as environment variables: LOAD_BODY, LOAD_DURATION,
# LOAD_WARMUP, LOAD_CONNECTIONS, LOAD_THREADS; also LOAD_SERVER_CPU (0),
# LOAD_WRK_CPU (1), LOAD_RUST_LOG (warn: request logging off, so the figures
# measure the service rather than its log), ARBITER_BIN (default: cargo build
# --release --locked, then target/release/arbiter). The default body is the
# /v1/range example (pf1e, 21 squares = 105 ft). Installs wrk with apt-get when
# missing. Every wrk run is bounded by `timeout`.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

BODY_FILE=${LOAD_BODY:-}
DURATION=${LOAD_DURATION:-10s}
WARMUP=${LOAD_WARMUP:-2s}
CONNECTIONS=${LOAD_CONNECTIONS:-64}
THREADS=${LOAD_THREADS:-1}
SERVER_CPU=${LOAD_SERVER_CPU:-0}
WRK_CPU=${LOAD_WRK_CPU:-1}

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
while [ "$#" -gt 0 ]; do
  case $1 in
    --body) BODY_FILE=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "load: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done

log() { printf 'load: %s\n' "$*"; }
die() { printf 'load: error: %s\n' "$*" >&2; exit 1; }

# wrk duration (e.g. 10, 10s, 2m, 1h) in seconds.
secs_of() {
  case $1 in
    *h) echo $((${1%h} * 3600)) ;;
    *m) echo $((${1%m} * 60)) ;;
    *s) echo "${1%s}" ;;
    *) echo "$1" ;;
  esac
}
for d in "$DURATION" "$WARMUP"; do
  [[ $d =~ ^[0-9]+[smh]?$ ]] || die "bad duration '$d' (want e.g. 10s, 2m)"
done
[[ $CONNECTIONS =~ ^[1-9][0-9]*$ && $THREADS =~ ^[1-9][0-9]*$ ]] || die "bad --connections/--threads"

TMP=
SERVER_PID=
cleanup() {
  local rc=$? i
  set +e
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID"
    for ((i = 0; i < 100; i++)); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  if [ "$rc" -ne 0 ] && [ -n "$TMP" ] && [ -s "$TMP/server.log" ]; then
    echo "----- tail server.log" >&2
    tail -n 20 "$TMP/server.log" >&2
  fi
  [ -n "$TMP" ] && [ "${LOAD_KEEP_TMP:-0}" != 1 ] && rm -rf "$TMP"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- tools
need=()
command -v wrk >/dev/null || need+=(wrk)
command -v curl >/dev/null || need+=(curl)
command -v taskset >/dev/null || need+=(util-linux)
if [ "${#need[@]}" -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || die "missing ${need[*]}: install them or run as root"
  log "installing ${need[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq
  timeout 600 apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ -n "${ARBITER_BIN:-}" ]; then
  BIN=$ARBITER_BIN
else
  log "cargo build --release --locked --bin arbiter"
  timeout 3000 cargo build --release --locked --bin arbiter || die "cargo build --release --locked failed"
  BIN=$ROOT/target/release/arbiter
fi
[ -x "$BIN" ] || die "no executable at $BIN"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-load.XXXXXX")
if [ -z "$BODY_FILE" ]; then
  BODY_FILE=$TMP/range.json
  cat >"$BODY_FILE" <<'JSON'
{"encounter":{"ruleset":"pf1e","grid":{"width":40,"height":10},"creatures":[{"id":"archer","side":"party","at":{"x":0,"y":0}},{"id":"orc","side":"monsters","at":{"x":21,"y":0}}]},"attacker":"archer","target":"orc","weapon":{"kind":"ranged","increment_ft":100}}
JSON
fi
[ -r "$BODY_FILE" ] || die "cannot read body file $BODY_FILE"
BODY_FILE=$(cd "$(dirname "$BODY_FILE")" && pwd)/$(basename "$BODY_FILE")

# wrk script: POST the body file named after `--`. wrk calls init() in each
# thread before it formats the (then fixed) request.
cat >"$TMP/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
function init(args)
  local f = assert(io.open(args[1], "rb"))
  wrk.body = f:read("*a")
  f:close()
end
LUA

# ---------------------------------------------------------------- pinning
pin_server=()
pin_wrk=()
if [ "$(nproc)" -ge 2 ]; then
  pin_server=(taskset -c "$SERVER_CPU")
  pin_wrk=(taskset -c "$WRK_CPU")
  pinning="server on CPU $SERVER_CPU, wrk on CPU $WRK_CPU"
else
  pinning="not pinned (fewer than 2 CPUs)"
fi

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); print(p)')
BASE=http://127.0.0.1:$PORT

# The server execs through taskset, so $! is the server's own pid.
ARBITER_ADDR=127.0.0.1:$PORT ARBITER_INSTANCE_ID=load RUST_LOG=${LOAD_RUST_LOG:-warn} LOG_FORMAT=json \
  "${pin_server[@]}" "$BIN" >"$TMP/server.log" 2>&1 &
SERVER_PID=$!
for ((i = 0; i < 150; i++)); do
  kill -0 "$SERVER_PID" 2>/dev/null || die "server exited during start-up"
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$BASE/readyz" || true)" = 200 ] && break
  sleep 0.1
done
[ "$i" -lt 150 ] || die "server not ready after 15s"

code=$(curl -s -o "$TMP/probe.json" -w '%{http_code}' --max-time 5 -H 'content-type: application/json' \
  --data-binary @"$BODY_FILE" "$BASE/v1/range" || true)
[ "$code" = 200 ] || die "POST /v1/range with $BODY_FILE answered $code: $(head -c 300 "$TMP/probe.json")"

log "server pid $SERVER_PID on $BASE, $pinning; wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency (warm-up $WARMUP)"

# run_wrk NAME DURATION URL [LUA_SCRIPT SCRIPT_ARG]: output in $TMP/NAME.txt
run_wrk() {
  local name=$1 dur=$2 url=$3 script=() script_args=()
  if [ "$#" -ge 5 ]; then
    script=(-s "$4")
    script_args=(-- "$5")
  fi
  timeout "$(($(secs_of "$dur") + 30))" "${pin_wrk[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$dur" \
    --timeout 5s --latency "${script[@]}" "$url" "${script_args[@]}" >"$TMP/$name.txt" 2>&1 ||
    { cat "$TMP/$name.txt" >&2; die "wrk $name failed"; }
}

# summarize NAME LABEL: one line from wrk's report.
summarize() {
  local f=$TMP/$2.txt rps p50 p99 non2xx errors
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$f")
  p50=$(awk '$1 == "50%" { print $2 }' "$f")
  p99=$(awk '$1 == "99%" { print $2 }' "$f")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ { print $2 }' "$f")
  errors=$(awk '/Socket errors:/ { sub(/.*Socket errors: /, ""); print }' "$f")
  printf 'load: %-16s %10s req/s  p50 %8s  p99 %8s  non-2xx %s  socket errors: %s\n' \
    "$1" "${rps:-?}" "${p50:-?}" "${p99:-?}" "${non2xx:-0}" "${errors:-none}"
  [ -z "$non2xx" ] || echo "load: warning: $1 had $non2xx non-2xx responses" >&2
}

if [ "$(secs_of "$WARMUP")" -gt 0 ]; then
  run_wrk warmup "$WARMUP" "$BASE/v1/range" "$TMP/post.lua" "$BODY_FILE"
fi
run_wrk range "$DURATION" "$BASE/v1/range" "$TMP/post.lua" "$BODY_FILE"
run_wrk healthz "$DURATION" "$BASE/healthz"

if [ "${LOAD_VERBOSE:-0}" = 1 ]; then cat "$TMP/range.txt" "$TMP/healthz.txt"; fi

kill -0 "$SERVER_PID" 2>/dev/null || die "server died under load"
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SERVER_PID/status")
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER_PID/status")
threads=$(awk '/^Threads:/ { print $2 }' "/proc/$SERVER_PID/status")

summarize "POST /v1/range" range
summarize "GET /healthz" healthz
printf 'load: server peak RSS (VmHWM) %d KiB (%.1f MiB); RSS now %d KiB; %d threads\n' \
  "$hwm" "$(awk -v k="$hwm" 'BEGIN { print k / 1024 }')" "$rss" "$threads"
