#!/usr/bin/env bash
# Load test of a release `arbiter` on loopback with wrk: POST a question and
# GET /healthz side by side in one run, server pinned to one CPU and wrk to
# another, then the server's peak RSS. With --baseline, also the bare axum
# handler of examples/echo_baseline.rs (parses the same body into the same
# typed request, answers a small JSON), measured in alternation with the
# question, and the ratio of their requests per second (PRODUCT.md: /v1/cover
# ≥ 80 % of the baseline).
#
#   scripts/load.sh [--path /v1/range] [--body FILE] [--baseline] [--rounds 2]
#                   [--duration 10s] [--warmup 2s] [--connections 64] [--threads 1]
#
# The same settings as environment variables: LOAD_PATH, LOAD_BODY,
# LOAD_BASELINE (1), LOAD_ROUNDS, LOAD_DURATION, LOAD_WARMUP, LOAD_CONNECTIONS,
# LOAD_THREADS; also LOAD_SERVER_CPU (0), LOAD_WRK_CPU (1), LOAD_RUST_LOG (warn:
# request logging off, so the figures measure the service rather than its
# log), ARBITER_BIN (default: cargo build --release --locked, then
# target/release/arbiter), ECHO_BIN (default: cargo build --release --locked
# --example echo_baseline). The default body is the /v1/range example (pf1e,
# 21 squares = 105 ft); scripts/bodies/cover.json is a 4 KB /v1/cover body.
# Installs wrk with apt-get when missing. Every wrk run is bounded by `timeout`.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

QPATH=${LOAD_PATH:-/v1/range}
BASELINE=${LOAD_BASELINE:-0}
ROUNDS=${LOAD_ROUNDS:-2}
BODY_FILE=${LOAD_BODY:-}
DURATION=${LOAD_DURATION:-10s}
WARMUP=${LOAD_WARMUP:-2s}
CONNECTIONS=${LOAD_CONNECTIONS:-64}
THREADS=${LOAD_THREADS:-1}
SERVER_CPU=${LOAD_SERVER_CPUS:-${LOAD_SERVER_CPU:-0}}
WRK_CPU=${LOAD_WRK_CPUS:-${LOAD_WRK_CPU:-1}}

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }
while [ "$#" -gt 0 ]; do
  case $1 in
    --body) BODY_FILE=$2; shift 2 ;;
    --path) QPATH=$2; shift 2 ;;
    --baseline) BASELINE=1; shift ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --server-cpus) SERVER_CPU=$2; shift 2 ;;
    --wrk-cpus) WRK_CPU=$2; shift 2 ;;
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
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "bad --rounds"
[[ $QPATH =~ ^/v1/[a-z]+$ ]] || die "bad --path '$QPATH' (want e.g. /v1/cover)"
for c in "$SERVER_CPU" "$WRK_CPU"; do
  [[ $c =~ ^[0-9]+([,-][0-9]+)*$ ]] || die "bad CPU list '$c' (want e.g. 0 or 0,1)"
done

TMP=
SERVER_PID=
ECHO_PID=
stop() {
  local pid=$1 i
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
cleanup() {
  local rc=$?
  set +e
  stop "$SERVER_PID"
  stop "$ECHO_PID"
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
if [ "$BASELINE" = 1 ]; then
  if [ -n "${ECHO_BIN:-}" ]; then
    EBIN=$ECHO_BIN
  else
    log "cargo build --release --locked --example echo_baseline"
    timeout 3000 cargo build --release --locked --example echo_baseline || die "building the baseline failed"
    EBIN=$ROOT/target/release/examples/echo_baseline
  fi
  [ -x "$EBIN" ] || die "no executable at $EBIN"
fi

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
  pinning="server on CPUs $SERVER_CPU, wrk on CPUs $WRK_CPU"
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
  --data-binary @"$BODY_FILE" "$BASE$QPATH" || true)
[ "$code" = 200 ] || die "POST $QPATH with $BODY_FILE answered $code: $(head -c 300 "$TMP/probe.json")"

if [ "$BASELINE" = 1 ]; then
  EPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); print(p)')
  EBASE=http://127.0.0.1:$EPORT
  ECHO_ADDR=127.0.0.1:$EPORT "${pin_server[@]}" "$EBIN" >"$TMP/echo.log" 2>&1 &
  ECHO_PID=$!
  for ((i = 0; i < 150; i++)); do
    kill -0 "$ECHO_PID" 2>/dev/null || die "baseline exited during start-up"
    code=$(curl -s -o "$TMP/echo.json" -w '%{http_code}' --max-time 1 -H 'content-type: application/json' \
      --data-binary @"$BODY_FILE" "$EBASE/echo" || true)
    [ "$code" = 200 ] && break
    sleep 0.1
  done
  [ "$code" = 200 ] || die "baseline POST /echo answered $code: $(head -c 300 "$TMP/echo.json")"
fi

log "server pid $SERVER_PID on $BASE, $pinning; wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency (warm-up $WARMUP)"

# CPU time (user + system, clock ticks) a process has used.
ticks_of() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# run_wrk NAME DURATION URL PID [LUA_SCRIPT SCRIPT_ARG]: output in $TMP/NAME.txt, and the
# CPU ticks the server PID used meanwhile in $TMP/NAME.cpu (CPU per request is steadier
# than requests per second on a machine shared with other work).
run_wrk() {
  local name=$1 dur=$2 url=$3 pid=$4 script=() script_args=() t0
  if [ "$#" -ge 6 ]; then
    script=(-s "$5")
    script_args=(-- "$6")
  fi
  t0=$(ticks_of "$pid")
  timeout "$(($(secs_of "$dur") + 30))" "${pin_wrk[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$dur" \
    --timeout 5s --latency "${script[@]}" "$url" "${script_args[@]}" >"$TMP/$name.txt" 2>&1 ||
    { cat "$TMP/$name.txt" >&2; die "wrk $name failed"; }
  echo $(($(ticks_of "$pid") - t0)) >"$TMP/$name.cpu"
}
HZ=$(getconf CLK_TCK)

# summarize NAME LABEL: one line from wrk's report.
summarize() {
  local f=$TMP/$2.txt rps p50 p99 non2xx errors cpu
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$f")
  cpu=$(awk -v t="$(cat "$TMP/$2.cpu")" -v hz="$HZ" '/ requests in / { n = $1 } END { if (n > 0) printf "%.1f", t / hz * 1e6 / n; else print "?" }' "$f")
  p50=$(awk '$1 == "50%" { print $2 }' "$f")
  p99=$(awk '$1 == "99%" { print $2 }' "$f")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ { print $2 }' "$f")
  errors=$(awk '/Socket errors:/ { sub(/.*Socket errors: /, ""); print }' "$f")
  printf 'load: %-16s %10s req/s  p50 %8s  p99 %8s  server CPU %6s us/req  non-2xx %s  socket errors: %s\n' \
    "$1" "${rps:-?}" "${p50:-?}" "${p99:-?}" "$cpu" "${non2xx:-0}" "${errors:-none}"
  [ -z "$non2xx" ] || echo "load: warning: $1 had $non2xx non-2xx responses" >&2
}

if [ "$(secs_of "$WARMUP")" -gt 0 ]; then
  run_wrk warmup "$WARMUP" "$BASE$QPATH" "$SERVER_PID" "$TMP/post.lua" "$BODY_FILE"
  if [ "$BASELINE" = 1 ]; then run_wrk warmup-echo "$WARMUP" "$EBASE/echo" "$ECHO_PID" "$TMP/post.lua" "$BODY_FILE"; fi
fi
# With a baseline the two alternate, so that drift on a shared machine hits both alike.
for ((r = 1; r <= ROUNDS; r++)); do
  run_wrk "question-$r" "$DURATION" "$BASE$QPATH" "$SERVER_PID" "$TMP/post.lua" "$BODY_FILE"
  if [ "$BASELINE" != 1 ]; then break; fi
  run_wrk "echo-$r" "$DURATION" "$EBASE/echo" "$ECHO_PID" "$TMP/post.lua" "$BODY_FILE"
done
run_wrk healthz "$DURATION" "$BASE/healthz" "$SERVER_PID"

if [ "${LOAD_VERBOSE:-0}" = 1 ]; then cat "$TMP"/question-*.txt "$TMP/healthz.txt"; fi

kill -0 "$SERVER_PID" 2>/dev/null || die "server died under load"
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SERVER_PID/status")
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER_PID/status")
threads=$(awk '/^Threads:/ { print $2 }' "/proc/$SERVER_PID/status")

rps_of() { awk '/^Requests\/sec:/ { print $2 }' "$TMP/$1.txt"; }
# stats V...: "min X  median Y  max Z" of the numbers given.
stats() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "min %.0f  median %.0f  max %.0f", v[1], m, v[NR] }'
}
q_rps=()
e_rps=()
for ((r = 1; r <= ROUNDS; r++)); do
  [ -f "$TMP/question-$r.txt" ] || break
  summarize "POST $QPATH" "question-$r"
  q_rps+=("$(rps_of "question-$r")")
done
if [ "$BASELINE" = 1 ]; then
  for ((r = 1; r <= ROUNDS; r++)); do
    summarize "POST /echo" "echo-$r"
    e_rps+=("$(rps_of "echo-$r")")
  done
  ratios=()
  for ((r = 0; r < ROUNDS; r++)); do
    ratios+=("$(awk -v q="${q_rps[$r]}" -v e="${e_rps[$r]}" 'BEGIN { printf "%.1f", (e > 0 ? 100 * q / e : 0) }')")
  done
  log "POST $QPATH req/s over $ROUNDS rounds: $(stats "${q_rps[@]}")"
  log "POST /echo req/s over $ROUNDS rounds: $(stats "${e_rps[@]}")"
  log "$QPATH / baseline per round: ${ratios[*]} %"
  q_sum=$(printf '%s\n' "${q_rps[@]}" | awk '{ s += $1 } END { print s }')
  e_sum=$(printf '%s\n' "${e_rps[@]}" | awk '{ s += $1 } END { print s }')
  awk -v q="$q_sum" -v e="$e_sum" -v p="$QPATH" \
    'BEGIN { printf "load: %s / baseline = %.1f %% of the requests per second (summed over the rounds)\n", p, (e > 0 ? 100 * q / e : 0) }'
fi
summarize "GET /healthz" healthz
printf 'load: server peak RSS (VmHWM) %d KiB (%.1f MiB); RSS now %d KiB; %d threads\n' \
  "$hwm" "$(awk -v k="$hwm" 'BEGIN { print k / 1024 }')" "$rss" "$threads"
