#!/usr/bin/env bash
# Container test: builds the image from the repository's Dockerfile with a Docker
# engine started for the test, runs it, then brings up docker-compose.yml (two
# replicas + nginx) and checks the stack. Run as root from anywhere:
#
#   scripts/container-test.sh
#
# No image registry is reachable on the CI machines, so the base images the
# Dockerfile names through RUST_IMAGE and RUNTIME_IMAGE are made here: a minimal
# Debian bookworm (debootstrap --variant=minbase, trimmed like debian:*-slim) and
# the same plus gcc, libc6-dev, ca-certificates and this machine's Rust toolchain
# (copied from `rustc --print sysroot`). nginx:1.28 cannot be pulled either, so
# docker-compose.ci.yml swaps in a local Debian image with nginx, envsubst and
# curl; the command, template and envsubst list stay docker-compose.yml's.
# dockerd runs with --bridge=none: every container uses the host network on its
# own loopback port (docker-compose.ci.yml).
#
# Installs with apt-get what it misses: docker.io, docker-compose (1.29; Compose
# v2 is used instead when `docker compose` works), debootstrap, curl, python3,
# gettext-base.
#
# Settings (environment):
#   CT_DATA_ROOT       dockerd's data root, kept between runs as a cache of the
#                      base images and build layers
#                      (default /var/lib/arbiter-container-test)
#   CT_FRESH=1         delete CT_DATA_ROOT first: everything is made from scratch
#   CT_LOAD_SECS       length of the load while a replica is killed (default 6)
#   CT_LOAD_WORKERS    concurrent curl clients in that load (default 4)
#   CT_MAX_IMAGE_MB    largest accepted image size in MiB (default 120)
#   CT_KEEP_TMP=1      keep the temp dir (logs, rendered configs)
#   CT_EXPORT_BIN=PATH copy the image's release binary there (the image is the only
#                      release build CI makes; scripts/reliability.sh's CPU checks use it)
#
# Last line: `container-test: N passed, M failed`; exit status 0 only if M is 0.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

DATA_ROOT=${CT_DATA_ROOT:-/var/lib/arbiter-container-test}
LOAD_SECS=${CT_LOAD_SECS:-6}
LOAD_WORKERS=${CT_LOAD_WORKERS:-4}
MAX_IMAGE_MB=${CT_MAX_IMAGE_MB:-120}
MIRROR=${CT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
RUNTIME_IMAGE=arbiter-ci/debian:bookworm-minbase
RUST_IMAGE=arbiter-ci/rust:bookworm
NGINX_IMAGE=arbiter-ci/nginx:bookworm
IMAGE=arbiter:local
PROJECT=arbiter-ct
TEMPLATE=deploy/nginx/nginx.conf.template
CURL_MAX=10 # seconds, per curl transfer
# Single-container run: unready and grace periods, and the `docker stop` timeout
# comfortably above their sum.
SINGLE_UNREADY=1
SINGLE_GRACE=8
SINGLE_STOP_T=20

PASSED=0
FAILED=0
SUMMARY_DONE=0
TMP=
DOCKERD_PID=
CONTAINERS=()
COMPOSE_UP=0
LOAD_PIDS=()
BG_PIDS=()
DOCKER=
COMPOSE=()
POLICY_RC_CREATED=0
RUN_DIR=/run/arbiter-container-test

NAME=container-test
# shellcheck source=scripts/lib/checks.sh
. "$ROOT/scripts/lib/checks.sh"
# A check that cannot fail without making the rest meaningless.
fatal() {
  fail "$*"
  exit 1
}

# ---------------------------------------------------------------- cleanup
# stop_pid PID SECS: TERM, then KILL after SECS seconds; never waits longer.
# shellcheck source=scripts/lib/server.sh
. "$ROOT/scripts/lib/server.sh"

dk() { timeout 120 "$DOCKER" "$@"; }

show_logs() {
  [ -n "$TMP" ] && [ -d "$TMP" ] || return 0
  local f
  for f in "$TMP"/*.log; do
    [ -s "$f" ] || continue
    printf -- '----- tail %s\n' "${f#"$TMP"/}" >&2
    tail -n 30 "$f" >&2 || true
  done
  printf -- '----- logs kept in %s\n' "$TMP" >&2
}

summary() {
  SUMMARY_DONE=1
  if [ "$FAILED" -ne 0 ]; then
    show_logs
    CT_KEEP_TMP=1
  fi
  echo "container-test: $PASSED passed, $FAILED failed"
}

# Unmount whatever debootstrap left mounted under DIR (proc, sys, a /dev bind
# mount when interrupted), deepest first.
unmount_under() {
  local dir=$1 m
  [ -d "$dir" ] || return 0
  awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null || true
  done
}

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  local pid id
  for pid in "${LOAD_PIDS[@]}" "${BG_PIDS[@]}"; do stop_pid "$pid" 2; done
  if [ -n "$DOCKERD_PID" ] && kill -0 "$DOCKERD_PID" 2>/dev/null; then
    if [ "$COMPOSE_UP" = 1 ]; then
      timeout 60 "${COMPOSE[@]}" down -t 5 >>"$TMP/compose-down.log" 2>&1
    fi
    for id in "${CONTAINERS[@]}"; do
      timeout 30 "$DOCKER" rm -f "$id" >/dev/null 2>&1
    done
  fi
  stop_pid "$DOCKERD_PID" 30
  # dockerd leaves its default network namespace mounted.
  [ -n "$DOCKERD_PID" ] && unmount_under "$RUN_DIR"
  if [ "$POLICY_RC_CREATED" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
  if [ "$SUMMARY_DONE" = 0 ]; then
    [ "$FAILED" -gt 0 ] || fail "aborted (exit status $rc)"
    summary
    rc=1
  fi
  if [ -n "$TMP" ]; then
    unmount_under "$TMP"
    if [ "${CT_KEEP_TMP:-0}" != 1 ]; then
      rm -rf --one-file-system "$TMP"
    else
      # Keep the logs, not the root file systems.
      rm -rf --one-file-system "$TMP"/rootfs-*/ 2>/dev/null
    fi
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- prerequisites
[ "$(id -u)" -eq 0 ] || fatal "run as root (starts dockerd, runs debootstrap)"
need=()
[ -x /usr/sbin/dockerd ] || need+=(docker.io)
command -v docker-compose >/dev/null || need+=(docker-compose)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v curl >/dev/null || need+=(curl)
command -v python3 >/dev/null || need+=(python3)
command -v envsubst >/dev/null || need+=(gettext-base)
if [ "${#need[@]}" -gt 0 ]; then
  log "installing ${need[*]} with apt-get"
  # Keep the packages' init scripts from starting a system dockerd.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 0755 /usr/sbin/policy-rc.d
    POLICY_RC_CREATED=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq
  timeout 900 apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  if [ "$POLICY_RC_CREATED" = 1 ]; then
    rm -f /usr/sbin/policy-rc.d
    POLICY_RC_CREATED=0
  fi
fi
# Debian's client, the same version as its daemon (another `docker` may come first
# on PATH).
DOCKER=/usr/bin/docker
[ -x "$DOCKER" ] || DOCKER=$(command -v docker)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/container-test.XXXXXX")
chmod 0755 "$TMP"

# ---------------------------------------------------------------- dockerd
# A daemon of our own: own socket, data root and exec root, so it neither uses
# nor disturbs any other engine on the machine.
SOCK=$RUN_DIR/docker.sock
export DOCKER_HOST=unix://$SOCK
if [ -s "$RUN_DIR/dockerd.pid" ]; then
  # Left by an earlier run that was killed: only that daemon uses this pid file.
  old=$(cat "$RUN_DIR/dockerd.pid")
  if [ -n "$old" ] && kill -0 "$old" 2>/dev/null && grep -qF "$RUN_DIR" "/proc/$old/cmdline" 2>/dev/null; then
    log "stopping the dockerd (pid $old) a previous run left"
    kill -TERM "$old" 2>/dev/null || true
    for ((i = 0; i < 300; i++)); do kill -0 "$old" 2>/dev/null || break; sleep 0.1; done
  fi
fi
if [ "${CT_FRESH:-0}" = 1 ] && [ -d "$DATA_ROOT" ]; then
  log "CT_FRESH=1: removing $DATA_ROOT"
  unmount_under "$DATA_ROOT"
  rm -rf --one-file-system "$DATA_ROOT"
fi
mkdir -p "$DATA_ROOT" "$RUN_DIR"
dockerd --iptables=false --ip-forward=false --ip-masq=false --bridge=none \
  --data-root "$DATA_ROOT" --exec-root "$RUN_DIR/exec" --pidfile "$RUN_DIR/dockerd.pid" \
  -H "$DOCKER_HOST" >"$TMP/dockerd.log" 2>&1 &
DOCKERD_PID=$!
deadline=$((SECONDS + 60))
until timeout 5 "$DOCKER" info >/dev/null 2>&1; do
  kill -0 "$DOCKERD_PID" 2>/dev/null || fatal "dockerd exited (see dockerd.log)"
  ((SECONDS < deadline)) || fatal "dockerd answers within 60 s"
  sleep 0.5
done
engine=$("$DOCKER" version -f '{{.Server.Version}}')
if timeout 20 "$DOCKER" compose version >/dev/null 2>&1; then
  COMPOSE=("$DOCKER" compose)
else
  COMPOSE=(docker-compose)
fi
compose_version=$(timeout 20 "${COMPOSE[@]}" version --short 2>/dev/null || echo '?')
COMPOSE+=(-p "$PROJECT" -f docker-compose.yml -f docker-compose.ci.yml)
pass "dockerd $engine up (pid $DOCKERD_PID); compose: ${COMPOSE[0]##*/} $compose_version"

have_image() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }

# ---------------------------------------------------------------- base images
# debootstrap DIR [--include=...]: a minbase bookworm in DIR.
bootstrap() {
  local dir=$1
  shift
  timeout 900 debootstrap --variant=minbase "$@" "$SUITE" "$dir" "$MIRROR" >"$dir.log" 2>&1
}
# Trimmed like debian:*-slim: no docs, man pages, locales or apt lists; services
# are not started by package installs (policy-rc.d).
slim_rootfs() {
  local dir=$1
  rm -rf "$dir"/usr/share/doc/* "$dir"/usr/share/man/* "$dir"/usr/share/info/* \
    "$dir"/usr/share/locale/* "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*.bin \
    "$dir"/var/cache/apt/archives/*.deb "$dir"/var/log/*.log "$dir"/var/cache/debconf/*-old
  printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
  chmod 0755 "$dir/usr/sbin/policy-rc.d"
  # debian:*-slim keeps this out of later package installs too.
  cat >"$dir/etc/dpkg/dpkg.cfg.d/docker-slim" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
CFG
}
# import DIR NAME [--change ...]: the tree as a one-layer image.
import_rootfs() {
  local dir=$1 name=$2
  shift 2
  tar -C "$dir" --numeric-owner --exclude='./proc/*' --exclude='./sys/*' --exclude='./dev/*' -c . |
    timeout 600 "$DOCKER" import "$@" - "$name" >/dev/null
}

base_start=$SECONDS
make_runtime=0
make_rust=0
have_image "$RUNTIME_IMAGE" || make_runtime=1
have_image "$RUST_IMAGE" || make_rust=1
if [ "$make_rust" = 1 ]; then
  SYSROOT=$(rustc --print sysroot 2>/dev/null) || fatal "rustc on this machine (its toolchain is copied into $RUST_IMAGE)"
  [ -x "$SYSROOT/bin/cargo" ] || fatal "cargo next to rustc in $SYSROOT"
fi
BG_PIDS=()
if [ "$make_runtime" = 1 ]; then
  log "debootstrap $SUITE for $RUNTIME_IMAGE from $MIRROR"
  bootstrap "$TMP/rootfs-runtime" &
  BG_PIDS+=("$!")
fi
if [ "$make_rust" = 1 ]; then
  log "debootstrap $SUITE with gcc for $RUST_IMAGE from $MIRROR"
  bootstrap "$TMP/rootfs-rust" --include=ca-certificates,gcc,libc6-dev &
  BG_PIDS+=("$!")
fi
for pid in "${BG_PIDS[@]}"; do wait "$pid" || fatal "debootstrap (see rootfs-*.log)"; done
BG_PIDS=()
if [ "$make_runtime" = 1 ]; then
  slim_rootfs "$TMP/rootfs-runtime"
  import_rootfs "$TMP/rootfs-runtime" "$RUNTIME_IMAGE" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' || fatal "docker import $RUNTIME_IMAGE"
  rm -rf --one-file-system "$TMP/rootfs-runtime"
fi
if [ "$make_rust" = 1 ]; then
  slim_rootfs "$TMP/rootfs-rust"
  # cargo fetches crates over HTTPS: trust what this machine trusts (a local CA
  # included, where TLS is intercepted); like the toolchain, it comes from here.
  cp /etc/ssl/certs/ca-certificates.crt "$TMP/rootfs-rust/etc/ssl/certs/ca-certificates.crt"
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$TMP/rootfs-rust/usr/local/share/ca-certificates/"
  fi
  # The toolchain without its docs (share/): rustc, cargo and the std library.
  mkdir -p "$TMP/rootfs-rust/usr/local/rust" "$TMP/rootfs-rust/usr/local/cargo"
  tar -C "$SYSROOT" --exclude=./share -c . | tar -C "$TMP/rootfs-rust/usr/local/rust" -x
  import_rootfs "$TMP/rootfs-rust" "$RUST_IMAGE" \
    --change 'ENV CARGO_HOME=/usr/local/cargo' \
    --change 'ENV PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' || fatal "docker import $RUST_IMAGE"
  rm -rf --one-file-system "$TMP/rootfs-rust"
fi
if [ "$make_runtime$make_rust" = 00 ]; then
  log "base images $RUNTIME_IMAGE and $RUST_IMAGE: cached in $DATA_ROOT"
else
  log "base images made in $((SECONDS - base_start)) s"
fi
rust_in_image=$(dk run --rm --network host "$RUST_IMAGE" rustc --version 2>&1) || true
check "$RUST_IMAGE runs this machine's toolchain ($rust_in_image; here: $(rustc --version 2>/dev/null || echo '?'))" \
  test "$rust_in_image" = "$(rustc --version 2>/dev/null)"

if ! have_image "$NGINX_IMAGE"; then
  log "building $NGINX_IMAGE (nginx, gettext-base, curl from Debian)"
  cat >"$TMP/nginx.Dockerfile" <<DOCKERFILE
FROM $RUNTIME_IMAGE
RUN apt-get update \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx gettext-base curl \\
    && rm -rf /var/lib/apt/lists/*
DOCKERFILE
  nginx_start=$SECONDS
  DOCKER_BUILDKIT=0 timeout 900 "$DOCKER" build --network host --force-rm -t "$NGINX_IMAGE" - \
    <"$TMP/nginx.Dockerfile" >"$TMP/nginx-image.log" 2>&1 || fatal "docker build $NGINX_IMAGE (see nginx-image.log)"
  log "$NGINX_IMAGE built in $((SECONDS - nginx_start)) s"
fi

# ---------------------------------------------------------------- image build
# The repository's Dockerfile as it is; the classic builder reads `# syntax=` as
# a comment and needs no frontend image.
log "docker build -t $IMAGE . (RUST_IMAGE=$RUST_IMAGE RUNTIME_IMAGE=$RUNTIME_IMAGE)"
build_start=$SECONDS
if DOCKER_BUILDKIT=0 timeout 2700 "$DOCKER" build --network host --force-rm \
  --build-arg "RUST_IMAGE=$RUST_IMAGE" --build-arg "RUNTIME_IMAGE=$RUNTIME_IMAGE" \
  -t "$IMAGE" . >"$TMP/build.log" 2>&1; then
  build_secs=$((SECONDS - build_start))
  cached=$(grep -c 'Using cache' "$TMP/build.log" || true)
  pass "docker build of the unchanged Dockerfile in ${build_secs} s ($cached steps from cache)"
else
  fatal "docker build of the unchanged Dockerfile (see build.log)"
fi
size_bytes=$("$DOCKER" image inspect -f '{{.Size}}' "$IMAGE")
size_mb=$(((size_bytes + 524288) / 1048576))
base_mb=$((($("$DOCKER" image inspect -f '{{.Size}}' "$RUNTIME_IMAGE") + 524288) / 1048576))
log "image $IMAGE: $size_mb MiB ($size_bytes bytes; base $RUNTIME_IMAGE: $base_mb MiB)"
check "image size $size_mb MiB <= $MAX_IMAGE_MB MiB" test "$size_mb" -le "$MAX_IMAGE_MB"
user=$("$DOCKER" image inspect -f '{{.Config.User}}' "$IMAGE")
check "image user is 10001:10001 (got '$user')" test "$user" = 10001:10001
if [ -n "${CT_EXPORT_BIN:-}" ]; then
  cid=$("$DOCKER" create "$IMAGE")
  check "the image's binary copied to $CT_EXPORT_BIN" "$DOCKER" cp "$cid:/usr/local/bin/arbiter" "$CT_EXPORT_BIN"
  "$DOCKER" rm "$cid" >/dev/null
fi

# ---------------------------------------------------------------- ports, bodies
# The probes' listeners too (ARBITER_PROBE_ADDR): on the host network the image's
# 0.0.0.0:9090 would be one port for every container.
read -r PS P1 P2 PN QS Q1 Q2 <<<"$(python3 -c '
import socket
ss = [socket.socket() for _ in range(7)]
for s in ss:
    s.bind(("127.0.0.1", 0))
ports = [s.getsockname()[1] for s in ss]
for s in ss:
    s.close()
print(*ports)
')"

# README's first "### Cover" example: its path and body, taken from the README.
python3 - README.md "$TMP/cover.json" "$TMP/cover.path" <<'PY' || fatal "README has a ### Cover curl example"
import re, sys
text = open(sys.argv[1]).read()
section = text[text.index("\n### Cover"):]
block = section[section.index("```sh\n") + 6:]
block = block[: block.index("\n```")]
m = re.search(r"curl -s http://localhost:8080(/\S+) .*?-d '(.*)'\s*$", block, re.S)
open(sys.argv[2], "w").write(m.group(2))
open(sys.argv[3], "w").write(m.group(1))
PY
COVER_PATH=$(cat "$TMP/cover.path")
BODY=$TMP/cover.json

# cover_ok FILE: the answer is README's: three-quarters cover, +5 AC.
cover_ok() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def find(v, key):
    if isinstance(v, dict):
        if key in v:
            yield v[key]
        for x in v.values():
            yield from find(x, key)
    elif isinstance(v, list):
        for x in v:
            yield from find(x, key)
sys.exit(0 if "three_quarters" in find(r, "degree") and 5 in find(r, "ac_bonus") else 1)
PY
}
header_of() { # FILE NAME -> value of the last NAME header
  tr -d '\r' <"$1" | awk -F': *' -v n="$2" 'tolower($1) == n { v = $2 } END { print v }'
}
# wait_until SECS COMMAND...: until COMMAND succeeds, polling every 0.2 s, at most SECS.
wait_until() {
  local deadline=$((SECONDS + $1))
  shift
  while ((SECONDS < deadline)); do
    "$@" && return 0
    sleep 0.2
  done
  return 1
}
# since START [END]: seconds from START (date +%s.%N) to END or now, one decimal.
since() { awk -v a="$1" -v b="${2:-$(date +%s.%N)}" 'BEGIN { printf "%.1f", b - a }'; }
http_code() { curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$1" || true; }
health_of() { "$DOCKER" inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$1" 2>/dev/null; }
is_healthy() { [ "$(health_of "$1")" = healthy ]; }

# ---------------------------------------------------------------- one container
# Host network (no bridge here), loopback only; otherwise the image as it ships,
# its HEALTHCHECK timings included.
log "docker run $IMAGE on 127.0.0.1:$PS"
run_start=$(date +%s.%N)
cid=$(dk run -d --network host --read-only --cap-drop ALL --security-opt no-new-privileges:true \
  -e "ARBITER_ADDR=127.0.0.1:$PS" -e "ARBITER_PROBE_ADDR=127.0.0.1:$QS" -e ARBITER_INSTANCE_ID=ct-single \
  -e "ARBITER_UNREADY_SECS=$SINGLE_UNREADY" -e "ARBITER_SHUTDOWN_GRACE_SECS=$SINGLE_GRACE" \
  "$IMAGE") || fatal "docker run $IMAGE"
CONTAINERS+=("$cid")
ready_at=
if wait_until 30 test "$(http_code "http://127.0.0.1:$PS/readyz")" = 200; then
  ready_at=$(date +%s.%N)
fi
check "container answers /readyz 200" test -n "$ready_at"
if wait_until 60 is_healthy "$cid"; then
  pass "HEALTHCHECK turns healthy: /readyz 200 after $(since "$run_start" "$ready_at") s, healthy after $(since "$run_start") s"
else
  fail "HEALTHCHECK turns healthy within 60 s (status: $(health_of "$cid"))"
fi
check "the probes' listener (ARBITER_PROBE_ADDR, which HEALTHCHECK uses) answers /healthz 200" \
  test "$(http_code "http://127.0.0.1:$QS/healthz")" = 200
uid_in=$("$DOCKER" exec "$cid" id -u 2>/dev/null || echo '?')
pid1_uid=$("$DOCKER" exec "$cid" cat /proc/1/status 2>/dev/null | awk '/^Uid:/ { print $2 }')
check "runs as the non-root user (id -u: $uid_in, PID 1 uid: $pid1_uid)" \
  test "$uid_in" = 10001 -a "$pid1_uid" = 10001
code=$(curl -s --max-time "$CURL_MAX" -o "$TMP/single-cover.json" -w '%{http_code}' \
  -H 'Content-Type: application/json' --data-binary @"$BODY" "http://127.0.0.1:$PS$COVER_PATH" || true)
single_cover_ok() { [ "$code" = 200 ] && cover_ok "$TMP/single-cover.json"; }
check "README's first Cover example: $code, three_quarters cover" single_cover_ok

# Drain: a request whose body is half sent when `docker stop` begins must still be
# answered. The second half goes out once shutdown is visible (/readyz no longer
# 200), well inside the grace period.
python3 - "$PS" "$COVER_PATH" "$BODY" "$TMP/drain" <<'PY' &
import os, socket, sys, time
port, path, body_file, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
body = open(body_file, "rb").read()
half = len(body) // 2
s = socket.create_connection(("127.0.0.1", port), timeout=30)
s.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (path.encode(), len(body)) + body[:half])
open(out + ".half", "w").close()
deadline = time.time() + 30
while not os.path.exists(out + ".go") and time.time() < deadline:
    time.sleep(0.05)
s.sendall(body[half:])
data = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    data += chunk
head, _, rest = data.partition(b"\r\n\r\n")
open(out + ".status", "w").write(head.split(b"\r\n")[0].decode(errors="replace"))
open(out + ".body", "wb").write(rest)
PY
drain_pid=$!
BG_PIDS+=("$drain_pid")
wait_until 10 test -e "$TMP/drain.half" || fail "drain client connected"
stop_start=$(date +%s.%N)
timeout $((SINGLE_STOP_T + 10)) "$DOCKER" stop -t "$SINGLE_STOP_T" "$cid" >/dev/null 2>&1 &
stopper=$!
BG_PIDS+=("$stopper")
not_ready() { [ "$(http_code "http://127.0.0.1:$PS/readyz")" != 200 ]; }
wait_until 10 not_ready || fail "/readyz stops answering 200 after docker stop"
touch "$TMP/drain.go"
wait "$drain_pid" 2>/dev/null || true
wait "$stopper" 2>/dev/null || true
BG_PIDS=()
stop_secs=$(since "$stop_start")
drain_status=$(cat "$TMP/drain.status" 2>/dev/null || echo 'no answer')
drain_ok() { [[ $drain_status == "HTTP/1.1 200"* ]] && cover_ok "$TMP/drain.body"; }
check "request in flight at docker stop is answered ($drain_status)" drain_ok
exit_code=$("$DOCKER" inspect -f '{{.State.ExitCode}}' "$cid" 2>/dev/null || echo '?')
running=$("$DOCKER" inspect -f '{{.State.Running}}' "$cid" 2>/dev/null || echo '?')
stop_fast() { awk -v s="$stop_secs" -v t="$SINGLE_STOP_T" 'BEGIN { exit !(s < t) }'; }
stopped_ok() { [ "$running" = false ] && [ "$exit_code" = 0 ] && stop_fast; }
check "docker stop: exit status $exit_code after $stop_secs s (grace ${SINGLE_GRACE}s + unready ${SINGLE_UNREADY}s, SIGKILL at ${SINGLE_STOP_T}s)" \
  stopped_ok
"$DOCKER" logs "$cid" >"$TMP/single.log" 2>&1 || true

# ---------------------------------------------------------------- compose
# The template nginx renders is the one the bare-binary smoke test renders, with
# the same envsubst list (read from scripts/smoke-proxy.sh).
NGINX_VARS=$(sed -n "s/^NGINX_VARS='\(.*\)'$/\1/p" scripts/smoke-proxy.sh)
compose_same_list() {
  local v
  [ -n "$NGINX_VARS" ] && grep -qF "./$TEMPLATE:/etc/arbiter/nginx.conf.template" docker-compose.yml || return 1
  for v in $NGINX_VARS; do
    grep -qF "\$$v" docker-compose.yml || { echo "docker-compose.yml lacks \$$v" >&2; return 1; }
  done
}
check "docker-compose.yml mounts $TEMPLATE and renders it with smoke-proxy.sh's list" compose_same_list

export CT_PORT_1=$P1 CT_PORT_2=$P2 CT_PORT_NGINX=$PN CT_NGINX_IMAGE=$NGINX_IMAGE \
  CT_PORT_PROBES_1=$Q1 CT_PORT_PROBES_2=$Q2
PROXY=http://127.0.0.1:$PN
log "compose up: arbiter-1 :$P1, arbiter-2 :$P2, nginx :$PN"
up_start=$(date +%s.%N)
COMPOSE_UP=1
if timeout 180 "${COMPOSE[@]}" up -d --no-build >"$TMP/compose-up.log" 2>&1; then
  up_ok=1
else
  up_ok=0
fi
mapfile -t ids < <(timeout 30 "${COMPOSE[@]}" ps -q 2>/dev/null)
CONTAINERS+=("${ids[@]}")
[ "$up_ok" = 1 ] || fatal "compose up (see compose-up.log)"
cid_of() { timeout 30 "${COMPOSE[@]}" ps -q "$1" 2>/dev/null; }
C1=$(cid_of arbiter-1)
C2=$(cid_of arbiter-2)
CN=$(cid_of nginx)
all_healthy() { is_healthy "$C1" && is_healthy "$C2" && is_healthy "$CN"; }
if wait_until 60 all_healthy; then
  pass "compose: arbiter-1, arbiter-2 and nginx healthy $(since "$up_start") s after up"
else
  fatal "compose: all three healthy within 60 s ($(health_of "$C1") $(health_of "$C2") $(health_of "$CN"))"
fi

# What nginx runs: the repository's template, rendered with the list.
"$DOCKER" exec "$CN" cat /etc/arbiter/nginx.conf.template >"$TMP/nginx-template.in" 2>/dev/null || true
check "nginx's /etc/arbiter/nginx.conf.template is $TEMPLATE" cmp -s "$TMP/nginx-template.in" "$TEMPLATE"
(
  export NGINX_LISTEN=127.0.0.1:$PN ARBITER_UPSTREAM_1=127.0.0.1:$P1 ARBITER_UPSTREAM_2=127.0.0.1:$P2 \
    NGINX_PID_FILE=/tmp/nginx.pid NGINX_ERROR_LOG=/dev/stderr NGINX_ACCESS_LOG=/dev/stdout \
    NGINX_TEMP_DIR=/tmp/nginx-temp
  envsubst "$NGINX_VARS" <"$TEMPLATE" >"$TMP/nginx.conf.expected"
)
"$DOCKER" exec "$CN" cat /tmp/nginx.conf >"$TMP/nginx.conf.running" 2>/dev/null || true
check "nginx runs that template rendered with that list (/tmp/nginx.conf)" \
  cmp -s "$TMP/nginx.conf.running" "$TMP/nginx.conf.expected"

# Round robin through nginx.
rr=$TMP/rr
mkdir "$rr"
for ((i = 1; i <= 20; i++)); do
  curl -s --max-time "$CURL_MAX" -D "$rr/$i.h" -o "$rr/$i.b" -w '%{http_code}\n' \
    -H 'Content-Type: application/json' --data-binary @"$BODY" "$PROXY$COVER_PATH" >>"$rr/codes" || echo 000 >>"$rr/codes"
done
rr_ok() {
  local i
  [ "$(grep -cx 200 "$rr/codes")" -eq 20 ] || return 1
  for ((i = 1; i <= 20; i++)); do cover_ok "$rr/$i.b" || return 1; done
}
check "20 x README's Cover example through nginx: all 200, three_quarters ($(sort "$rr/codes" | uniq -c | xargs))" rr_ok
instances=$(for f in "$rr"/*.h; do header_of "$f" x-arbiter-instance; done | sort | uniq -c | xargs)
rr_both() { grep -q "arbiter-1" <<<"$instances" && grep -q "arbiter-2" <<<"$instances"; }
check "both replicas answered (x-arbiter-instance: $instances)" rr_both

# Kill (SIGKILL, no drain) arbiter-1 under load: nginx must retry on arbiter-2.
load_worker() { # N END_EPOCH
  local out=$TMP/load-$1.codes args=() j
  for ((j = 0; j < 20; j++)); do args+=(-o /dev/null "$PROXY$COVER_PATH"); done
  while ((EPOCHSECONDS < $2)); do
    # 20 POSTs on one client connection per curl run; one status per POST
    # (000 = transport error).
    curl -s --max-time "$CURL_MAX" -w '%{http_code}\n' -H 'Content-Type: application/json' \
      --data-binary @"$BODY" "${args[@]}" >>"$out" 2>/dev/null || true
  done
}
kill_after=$((LOAD_SECS * 2 / 5))
log "load: $LOAD_WORKERS clients for ${LOAD_SECS}s; docker kill arbiter-1 after ${kill_after}s"
end=$((EPOCHSECONDS + LOAD_SECS))
for ((w = 1; w <= LOAD_WORKERS; w++)); do
  load_worker "$w" "$end" &
  LOAD_PIDS+=("$!")
done
sleep "$kill_after"
dk kill -s KILL "$C1" >/dev/null || fail "docker kill arbiter-1"
for pid in "${LOAD_PIDS[@]}"; do wait "$pid" || true; done
LOAD_PIDS=()
cat "$TMP"/load-*.codes >"$TMP/load.codes" 2>/dev/null || true
total=$(wc -l <"$TMP/load.codes")
ok=$(grep -cx 200 "$TMP/load.codes" || true)
log "load: $total requests, statuses: $(sort "$TMP/load.codes" | uniq -c | xargs), lost: $((total - ok))"
c1_state=$("$DOCKER" inspect -f '{{.State.Status}} {{.State.ExitCode}}' "$C1" 2>/dev/null || echo '?')
check "arbiter-1 was killed (state: $c1_state)" test "$c1_state" = "exited 137"
none_lost() { [ "$total" -ge $((LOAD_WORKERS * 20)) ] && [ "$ok" -eq "$total" ]; }
check "no request lost while arbiter-1 was killed ($ok/$total were 200)" none_lost
after=$TMP/after
mkdir "$after"
for ((i = 1; i <= 10; i++)); do
  curl -s --max-time "$CURL_MAX" -D "$after/$i.h" -o /dev/null -w '%{http_code}\n' \
    -H 'Content-Type: application/json' --data-binary @"$BODY" "$PROXY$COVER_PATH" >>"$after/codes" || echo 000 >>"$after/codes"
done
after_inst=$(for f in "$after"/*.h; do header_of "$f" x-arbiter-instance; done | sort | uniq -c | xargs)
after_ok() { [ "$(grep -cx 200 "$after/codes")" -eq 10 ] && [ "$after_inst" = "10 arbiter-2" ]; }
check "afterwards 10 POSTs through nginx: $(sort "$after/codes" | uniq -c | xargs), from $after_inst" after_ok

timeout 30 "${COMPOSE[@]}" logs --no-color >"$TMP/compose.log" 2>&1 || true
down_start=$SECONDS
if timeout 90 "${COMPOSE[@]}" down -t 20 >"$TMP/compose-down.log" 2>&1; then
  COMPOSE_UP=0
  pass "compose down in $((SECONDS - down_start)) s"
else
  fail "compose down within 90 s"
fi

log "figures: image $size_mb MiB, build ${build_secs} s, load $total requests with $((total - ok)) lost"
summary
[ "$FAILED" -eq 0 ]
