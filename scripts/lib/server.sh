# shellcheck shell=bash
# Sourced by the CI scripts that start and stop background processes (servers, nginx, load).
#
#   stop_pid PID [SECS]   TERM, then KILL after SECS seconds (default 5); never waits longer,
#                         and reaps it
#
# For a script that runs a Node.js test against one live server (it defines `log` and `die`,
# and sets STARTED=$SECONDS):
#
#   stop_server_on_exit   on EXIT / INT / TERM: stops $SERVER_PID, logs the exit status and
#                         the seconds since $STARTED
#   need_node             dies without Node.js >= 20 and npm
#   start_server BIN NAME DIR
#                         starts BIN (built with `cargo build --locked --bin arbiter` when
#                         missing: then target/debug/arbiter) on a free loopback port (instance NAME, log DIR/server.log),
#                         sets SERVER_PID and BASE, and waits (at most 30 s) for /healthz,
#                         dying early when the server exits
#   server_verdict RC     prints RC, or 1 when the server died meanwhile (its log's tail is
#                         shown)

stop_pid() {
  local pid=$1 secs=${2:-5} i
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < secs * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

stop_server_on_exit() {
  trap stop_server_and_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

stop_server_and_exit() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  stop_pid "${SERVER_PID:-}" 10
  log "exit status $rc after $((SECONDS - STARTED)) s"
  exit "$rc"
}

need_node() {
  command -v node >/dev/null && command -v npm >/dev/null || die "needs Node.js >= 20 and npm"
  node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
    die "needs Node.js >= 20 (found $(node --version))"
}

start_server() {
  local bin=$1 name=$2 dir=$3 port
  if [ ! -x "$bin" ]; then
    log "no binary at $bin: cargo build --locked --bin arbiter"
    timeout 1800 cargo build --locked --bin arbiter
    bin=target/debug/arbiter
  fi
  mkdir -p "$dir"
  port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
  BASE=http://127.0.0.1:$port
  ARBITER_ADDR=127.0.0.1:$port ARBITER_INSTANCE_ID=$name LOG_FORMAT=json RUST_LOG=${RUST_LOG:-warn} \
    "$bin" >"$dir/server.log" 2>&1 &
  SERVER_PID=$!
  SERVER_LOG=$dir/server.log
  node --input-type=module - "$BASE/healthz" "$SERVER_PID" <<'JS' || die "the server did not come up; tail of $dir/server.log: $(tail -n 5 "$dir/server.log")"
const [url, pid] = process.argv.slice(2);
const deadline = Date.now() + 30_000;
for (;;) {
  try { process.kill(Number(pid), 0); } catch { console.error("the server exited before answering /healthz"); process.exit(1); }
  try { if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).status === 200) process.exit(0); } catch {}
  if (Date.now() > deadline) { console.error("/healthz did not answer 200 within 30 s"); process.exit(1); }
  await new Promise((r) => setTimeout(r, 100));
}
JS
  log "server $bin on $BASE (pid $SERVER_PID)"
}

server_verdict() {
  local rc=$1
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "the server died during the run; tail of its log:"
    tail -n 30 "$SERVER_LOG" >&2 || true
    [ "$rc" -ne 0 ] || rc=1
  fi
  echo "$rc"
}
