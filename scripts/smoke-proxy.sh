#!/usr/bin/env bash
# Proxy smoke test: nginx, configured from deploy/nginx/nginx.conf.template exactly
# as docker-compose.yml renders it, in front of two `arbiter` replicas, all on
# loopback. Run from anywhere, as root in CI (installs nginx, gettext-base and curl
# with apt-get when missing):
#
#   scripts/smoke-proxy.sh
#
# Settings (environment):
#   ARBITER_BIN          binary to test; default: `cargo build --release --locked`
#                        then target/release/arbiter
#   SMOKE_REQUESTS       POSTs in the round-robin check (default 40)
#   SMOKE_LOAD_SECS      length of the load during the SIGTERM (default 5)
#   SMOKE_LOAD_WORKERS   concurrent curl clients during that load (default 4)
#   SMOKE_GRACE_SECS     ARBITER_SHUTDOWN_GRACE_SECS given to the replicas (default 10)
#   SMOKE_UNREADY_SECS   ARBITER_UNREADY_SECS given to the replicas (default 2)
#   SMOKE_KEEP_TMP=1     keep the temp dir (logs, rendered nginx.conf)
#
# Last line: `smoke-proxy: N passed, M failed`; exit status 0 only if M is 0.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

TEMPLATE=deploy/nginx/nginx.conf.template
COMPOSE_FILE=docker-compose.yml
# The explicit envsubst list; docker-compose.yml must use the same (checked below).
# shellcheck disable=SC2016 # literal ${NAME}s for envsubst
NGINX_VARS='${NGINX_LISTEN} ${ARBITER_UPSTREAM_1} ${ARBITER_UPSTREAM_2} ${NGINX_PID_FILE} ${NGINX_ERROR_LOG} ${NGINX_ACCESS_LOG} ${NGINX_TEMP_DIR}'

REQUESTS=${SMOKE_REQUESTS:-40}
LOAD_SECS=${SMOKE_LOAD_SECS:-5}
LOAD_WORKERS=${SMOKE_LOAD_WORKERS:-4}
GRACE=${SMOKE_GRACE_SECS:-10}
UNREADY=${SMOKE_UNREADY_SECS:-2}
CURL_MAX=10 # seconds, per curl transfer

PASSED=0
FAILED=0
SUMMARY_DONE=0
TMP=
NGINX_PID=
R1_PID=
R2_PID=
LOAD_PIDS=()
POLICY_RC_CREATED=0

NAME=smoke-proxy
# shellcheck source=scripts/lib/checks.sh
. "$ROOT/scripts/lib/checks.sh"

show_logs() {
  [ -n "$TMP" ] && [ -d "$TMP" ] || return 0
  local f
  for f in "$TMP/replica-1.log" "$TMP/replica-2.log" "$TMP/nginx/error.log" "$TMP/nginx/stderr.log"; do
    [ -s "$f" ] || continue
    printf -- '----- tail %s\n' "${f#"$TMP"/}" >&2
    tail -n 25 "$f" >&2 || true
  done
  f=$TMP/nginx/access.log
  if [ -s "$f" ]; then
    printf -- '----- nginx/access.log: last non-200 lines\n' >&2
    grep -v '"status":200,' "$f" | tail -n 15 >&2 || true
  fi
  printf -- '----- logs kept in %s\n' "$TMP" >&2
}

summary() {
  SUMMARY_DONE=1
  if [ "$FAILED" -ne 0 ]; then
    show_logs
    SMOKE_KEEP_TMP=1
  fi
  echo "smoke-proxy: $PASSED passed, $FAILED failed"
}

# stop_pid PID SECS: TERM, then KILL after SECS seconds; never waits longer.
# shellcheck source=scripts/lib/server.sh
. "$ROOT/scripts/lib/server.sh"

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  local pid
  for pid in "${LOAD_PIDS[@]}"; do stop_pid "$pid" 2; done
  stop_pid "$NGINX_PID" 5
  stop_pid "$R1_PID" "$((GRACE + 2))"
  stop_pid "$R2_PID" "$((GRACE + 2))"
  if [ "$POLICY_RC_CREATED" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
  if [ "$SUMMARY_DONE" = 0 ]; then
    [ "$FAILED" -gt 0 ] || fail "aborted (exit status $rc)"
    summary
    rc=1
  fi
  if [ -n "$TMP" ] && [ "${SMOKE_KEEP_TMP:-0}" != 1 ]; then rm -rf "$TMP"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A check that cannot fail without making the rest meaningless.
fatal() {
  fail "$*"
  exit 1
}

# ---------------------------------------------------------------- prerequisites
install_missing() {
  local need=()
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx)
  command -v envsubst >/dev/null || need+=(gettext-base)
  command -v curl >/dev/null || need+=(curl)
  command -v python3 >/dev/null || need+=(python3)
  [ "${#need[@]}" -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || fatal "missing ${need[*]}; run as root or install them"
  log "installing ${need[*]} with apt-get"
  # Keep the nginx package's init script from starting a system nginx on :80.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 0755 /usr/sbin/policy-rc.d
    POLICY_RC_CREATED=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq
  timeout 600 apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  if [ "$POLICY_RC_CREATED" = 1 ]; then
    rm -f /usr/sbin/policy-rc.d
    POLICY_RC_CREATED=0
  fi
}
install_missing
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ -n "${ARBITER_BIN:-}" ]; then
  BIN=$ARBITER_BIN
else
  log "cargo build --release --locked --bin arbiter"
  timeout 3000 cargo build --release --locked --bin arbiter || fatal "cargo build --release --locked failed"
  BIN=$ROOT/target/release/arbiter
fi
[ -x "$BIN" ] || fatal "no executable at $BIN"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/smoke-proxy.XXXXXX")
# nginx workers run unprivileged when started as root: they must reach the temp dir.
chmod 0755 "$TMP"
mkdir -p "$TMP/nginx/tmp"

# Three distinct free loopback ports: bound together, released before printing.
ports=$(python3 -c '
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss:
    s.bind(("127.0.0.1", 0))
ports = [s.getsockname()[1] for s in ss]
for s in ss:
    s.close()
print(*ports)
')
read -r P1 P2 PN <<<"$ports"
PROXY=http://127.0.0.1:$PN

# The POST /v1/range example: distance 21 squares = 105 ft.
BODY=$TMP/range.json
cat >"$BODY" <<'JSON'
{"encounter":{"ruleset":"pf1e","grid":{"width":40,"height":10},"creatures":[{"id":"archer","side":"party","at":{"x":0,"y":0}},{"id":"orc","side":"monsters","at":{"x":21,"y":0}}]},"attacker":"archer","target":"orc","weapon":{"kind":"ranged","increment_ft":100}}
JSON

# http_status URL [curl args...]: prints the status code (000 on transport errors).
http_status() {
  local url=$1
  shift
  curl -s -o /dev/null -w '%{http_code}' --max-time "$CURL_MAX" "$@" "$url" || true
}

# wait_ok URL SECS PID...: until URL answers 200, at most SECS, while every PID lives.
wait_ok() {
  local url=$1 secs=$2 deadline pid
  shift 2
  deadline=$((SECONDS + secs))
  while ((SECONDS < deadline)); do
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null || return 1; done
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)" = 200 ] && return 0
    sleep 0.2
  done
  return 1
}

# ---------------------------------------------------------------- replicas
start_replica() { # N PORT
  ARBITER_ADDR=127.0.0.1:$2 ARBITER_INSTANCE_ID=smoke-replica-$1 ARBITER_SHUTDOWN_GRACE_SECS=$GRACE \
    ARBITER_UNREADY_SECS=$UNREADY LOG_FORMAT=json "$BIN" >"$TMP/replica-$1.log" 2>&1 &
}
start_replica 1 "$P1"
R1_PID=$!
start_replica 2 "$P2"
R2_PID=$!
log "replicas: smoke-replica-1 pid $R1_PID on 127.0.0.1:$P1, smoke-replica-2 pid $R2_PID on 127.0.0.1:$P2"
wait_ok "http://127.0.0.1:$P1/readyz" 30 "$R1_PID" || fatal "replica 1 ready on :$P1"
wait_ok "http://127.0.0.1:$P2/readyz" 30 "$R2_PID" || fatal "replica 2 ready on :$P2"
pass "both replicas answer /readyz 200"

# ---------------------------------------------------------------- nginx config
template_vars() { grep -o '[$][{][A-Z0-9_]*[}]' "$TEMPLATE" | sort -u; }
listed_vars() { tr ' ' '\n' <<<"$NGINX_VARS" | sort -u; }
check "template placeholders are exactly the envsubst list" \
  diff <(template_vars) <(listed_vars)
compose_uses_same_list() {
  local v
  grep -qF "$TEMPLATE" "$COMPOSE_FILE" || return 1
  for v in $NGINX_VARS; do
    grep -qF "\$$v" "$COMPOSE_FILE" || { echo "docker-compose.yml lacks \$$v" >&2; return 1; }
  done
}
check "docker-compose.yml renders the same template with the same list" compose_uses_same_list

export NGINX_LISTEN=127.0.0.1:$PN
export ARBITER_UPSTREAM_1=127.0.0.1:$P1
export ARBITER_UPSTREAM_2=127.0.0.1:$P2
export NGINX_PID_FILE=$TMP/nginx/nginx.pid
export NGINX_ERROR_LOG=$TMP/nginx/error.log
export NGINX_ACCESS_LOG=$TMP/nginx/access.log
export NGINX_TEMP_DIR=$TMP/nginx/tmp
CONF=$TMP/nginx/nginx.conf
envsubst "$NGINX_VARS" <"$TEMPLATE" >"$CONF"
rendered_ok() {
  ! grep -n '[$][{][A-Z0-9_]*[}]' "$CONF" && grep -q 'request_id' "$CONF" && grep -q "127.0.0.1:$P2" "$CONF"
}
check "rendered nginx.conf has no placeholder left, keeps nginx \$variables" rendered_ok
if "$NGINX" -t -q -p "$TMP/nginx" -c "$CONF" 2>"$TMP/nginx/stderr.log"; then
  pass "nginx -t accepts the rendered config"
else
  fatal "nginx -t accepts the rendered config"
fi

"$NGINX" -p "$TMP/nginx" -c "$CONF" -g 'daemon off;' 2>>"$TMP/nginx/stderr.log" &
NGINX_PID=$!
if wait_ok "$PROXY/readyz" 20 "$NGINX_PID" "$R1_PID" "$R2_PID"; then
  pass "GET /readyz through nginx is 200"
else
  fatal "GET /readyz through nginx is 200"
fi

# ---------------------------------------------------------------- round robin
rr_dir=$TMP/rr
mkdir "$rr_dir"
for ((i = 1; i <= REQUESTS; i++)); do
  curl -s --max-time "$CURL_MAX" -D "$rr_dir/$i.h" -o "$rr_dir/$i.b" -w '%{http_code}\n' \
    -H 'content-type: application/json' --data-binary @"$BODY" "$PROXY/v1/range" >>"$rr_dir/codes" || echo 000 >>"$rr_dir/codes"
done
rr_all_200() { [ "$(grep -cx 200 "$rr_dir/codes")" -eq "$REQUESTS" ]; }
check "$REQUESTS x POST /v1/range through nginx: all 200 ($(sort "$rr_dir/codes" | uniq -c | xargs))" rr_all_200
rr_distance() {
  local i
  for ((i = 1; i <= REQUESTS; i++)); do
    python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["result"]["distance_ft"] != 105)' \
      "$rr_dir/$i.b" 2>/dev/null || return 1
  done
}
check "every response has result.distance_ft = 105" rr_distance
instances=$(cat "$rr_dir"/*.h | tr -d '\r' | awk -F': *' 'tolower($1) == "x-arbiter-instance" { print $2 }' | sort | uniq -c | xargs)
rr_both() {
  grep -q 'smoke-replica-1' <<<"$instances" && grep -q 'smoke-replica-2' <<<"$instances"
}
check "both replicas served (x-arbiter-instance: $instances)" rr_both

# ---------------------------------------------------------------- request ids
header_of() { # FILE NAME -> value of the last NAME header
  tr -d '\r' <"$1" | awk -F': *' -v n="$2" 'tolower($1) == n { v = $2 } END { print v }'
}
rid=smoke-$$-$RANDOM$RANDOM
curl -s --max-time "$CURL_MAX" -D "$TMP/rid.h" -o /dev/null -H "x-request-id: $rid" \
  -H 'content-type: application/json' --data-binary @"$BODY" "$PROXY/v1/range" || true
got=$(header_of "$TMP/rid.h" x-request-id)
check "x-request-id sent by the client comes back unchanged (sent $rid, got ${got:-nothing})" \
  test "$got" = "$rid"
curl -s --max-time "$CURL_MAX" -D "$TMP/gen.h" -o /dev/null "$PROXY/healthz" || true
gen=$(header_of "$TMP/gen.h" x-request-id)
check "without x-request-id, the response carries one (${gen:-none})" test -n "$gen"
# nginx generated that id, sent it upstream (the replica echoed it) and logged it.
gen_logged() { [ -n "$gen" ] && grep -qF "\"request_id\":\"$gen\"" "$NGINX_ACCESS_LOG"; }
check "that generated id is the one in nginx's access log" gen_logged
access_log_json() {
  python3 - "$NGINX_ACCESS_LOG" "$P1" "$P2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ups = {u.strip() for l in lines for u in l["upstream_addr"].split(",") if u.strip()}
ok = all(l["request_id"] for l in lines) and {f"127.0.0.1:{sys.argv[2]}", f"127.0.0.1:{sys.argv[3]}"} <= ups
sys.exit(0 if ok else 1)
PY
}
check "access log is JSON with request_id and both upstream addresses" access_log_json

# ---------------------------------------------------------------- body limit
# 1.5 MiB: over the service's 1 MiB limit, under nginx's 2m, so the answer must be
# the service's own 413 problem+json, not nginx's.
head -c 1572864 /dev/zero | tr '\0' ' ' >"$TMP/big.json"
big_code=$(curl -s --max-time "$CURL_MAX" -D "$TMP/big.h" -o "$TMP/big.b" -w '%{http_code}' \
  -H 'content-type: application/json' --data-binary @"$TMP/big.json" "$PROXY/v1/range" || true)
big_ok() {
  [ "$big_code" = 413 ] && [ -n "$(header_of "$TMP/big.h" x-arbiter-instance)" ] &&
    header_of "$TMP/big.h" content-type | grep -q 'application/problem+json'
}
check "1.5 MiB body: the service's 413 problem+json comes through (got $big_code, instance $(header_of "$TMP/big.h" x-arbiter-instance))" big_ok

# ---------------------------------------------------------------- SIGTERM under load
load_worker() { # N END_EPOCH
  local out=$TMP/load-$1.codes args=() j
  for ((j = 0; j < 20; j++)); do args+=(-o /dev/null "$PROXY/v1/range"); done
  while ((EPOCHSECONDS < $2)); do
    # 20 POSTs on one client connection per curl run; one status line per POST
    # (000 = transport error).
    curl -s --max-time "$CURL_MAX" -w '%{http_code}\n' -H 'content-type: application/json' \
      --data-binary @"$BODY" "${args[@]}" >>"$out" 2>/dev/null || true
  done
}
log "load: $LOAD_WORKERS clients for ${LOAD_SECS}s; SIGTERM to replica 1 (pid $R1_PID) after $((LOAD_SECS * 2 / 5))s"
lines_before=$(wc -l <"$NGINX_ACCESS_LOG")
end=$((EPOCHSECONDS + LOAD_SECS))
for ((w = 1; w <= LOAD_WORKERS; w++)); do
  load_worker "$w" "$end" &
  LOAD_PIDS+=("$!")
done
sleep "$((LOAD_SECS * 2 / 5))"
kill -TERM "$R1_PID"
term_at=$SECONDS
r1_gone=0
while ((SECONDS - term_at <= UNREADY + GRACE + 5)); do
  if ! kill -0 "$R1_PID" 2>/dev/null; then r1_gone=1; break; fi
  sleep 0.1
done
r1_rc=killed
if [ "$r1_gone" = 1 ]; then
  r1_rc=0
  wait "$R1_PID" || r1_rc=$?
else
  kill -KILL "$R1_PID" 2>/dev/null || true
  wait "$R1_PID" 2>/dev/null || true
fi
R1_PID=
r1_secs=$((SECONDS - term_at))
for pid in "${LOAD_PIDS[@]}"; do wait "$pid" || true; done
LOAD_PIDS=()

cat "$TMP"/load-*.codes >"$TMP/load.codes" 2>/dev/null || true
total=$(wc -l <"$TMP/load.codes")
ok=$(grep -cx 200 "$TMP/load.codes" || true)
dist=$(sort "$TMP/load.codes" | uniq -c | xargs)
log "load: $total requests, statuses: ${dist:-none}"
load_all_ok() { [ "$total" -ge $((LOAD_WORKERS * 10)) ] && [ "$ok" -eq "$total" ]; }
check "no failed request while replica 1 shut down ($ok/$total were 200)" load_all_ok
check "replica 1 exited with status 0 within its ${UNREADY}s unready + ${GRACE}s grace (status $r1_rc after ~${r1_secs}s)" \
  test "$r1_rc" = 0
retried=$(tail -n "+$((lines_before + 1))" "$NGINX_ACCESS_LOG" | grep -c '"upstream_addr":"[^"]*, ' || true)
log "load: nginx retried $retried request(s) on the other replica"
after_ok() {
  local i c
  for ((i = 0; i < 10; i++)); do
    c=$(http_status "$PROXY/v1/range" -H 'content-type: application/json' --data-binary @"$BODY")
    [ "$c" = 200 ] || return 1
  done
}
check "after replica 1 left, 10 more POSTs through nginx are 200" after_ok

summary
[ "$FAILED" -eq 0 ]
