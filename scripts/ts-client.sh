#!/usr/bin/env bash
# The TypeScript client (clients/typescript) against a live server: installs it from its lock
# file (`npm ci`), fails when the generated types are stale against openapi/openapi.json,
# type-checks under `tsc --strict` the client and its test, README.md's TypeScript example and
# the type-level contract checks of test/types.ts, starts the server on a loopback port and
# runs the live test, which calls every endpoint of the document and validates every answer
# with ajv. The server is stopped on exit.
#
#   scripts/ts-client.sh
#
# Settings (environment):
#   ARBITER_BIN    binary to test (default target/debug/arbiter, built with
#                  `cargo build --locked --bin arbiter` when missing)
#   TS_CONTRACT    `require` (default): the type-level contract checks must pass; `warn`:
#                  report their failure and go on (for a document that still types the
#                  closed sets as plain strings)
#   TS_REPORT_DIR  server log (default target/ts-client)
#
# Needs Node.js >= 20 and npm. Exit status 0 only when every step passed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

BIN=${ARBITER_BIN:-$ROOT/target/debug/arbiter}
CONTRACT=${TS_CONTRACT:-require}
REPORT_DIR=${TS_REPORT_DIR:-$ROOT/target/ts-client}
CLIENT=$ROOT/clients/typescript
STARTED=$SECONDS

log() { printf 'ts-client: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

# shellcheck source=scripts/lib/server.sh
. "$ROOT/scripts/lib/server.sh"

SERVER_PID=
cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  stop_pid "$SERVER_PID" 10
  log "exit status $rc after $((SECONDS - STARTED)) s"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- toolchain
command -v node >/dev/null && command -v npm >/dev/null || die "needs Node.js >= 20 and npm"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  die "needs Node.js >= 20 (found $(node --version))"
log "node $(node --version), npm $(npm --version)"

# ---------------------------------------------------------------- install, drift, types
cd "$CLIENT"
log "npm ci (exactly the versions of package-lock.json)"
npm ci --no-audit --no-fund --prefer-offline --loglevel=error
log "prettier --check"
npm run --silent format:check
log "generated types are up to date"
npm run --silent check:generated
# `build` is `typecheck` (the same tsconfig) plus the emitted JavaScript the live test runs.
log "tsc --strict: the client and its live test (npm run build)"
npm run --silent build
log "tsc --strict: README.md's TypeScript example, verbatim"
npm run --silent typecheck:readme
log "tsc --strict: the type-level contract (test/types.ts)"
if ! npm run --silent typecheck:contract; then
  [ "$CONTRACT" = warn ] || die "the generated types accept what test/types.ts says they must reject"
  log "TS_CONTRACT=warn: going on despite the contract failure above"
fi

# ---------------------------------------------------------------- server
cd "$ROOT"
if [ ! -x "$BIN" ]; then
  log "no binary at $BIN: cargo build --locked --bin arbiter"
  timeout 1800 cargo build --locked --bin arbiter
  BIN=$ROOT/target/debug/arbiter
fi
mkdir -p "$REPORT_DIR"
PORT=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
BASE=http://127.0.0.1:$PORT
ARBITER_ADDR=127.0.0.1:$PORT ARBITER_INSTANCE_ID=ts-client LOG_FORMAT=json RUST_LOG=${RUST_LOG:-warn} \
  "$BIN" >"$REPORT_DIR/server.log" 2>&1 &
SERVER_PID=$!

# Wait for /healthz (at most 30 s), failing early when the server dies.
node --input-type=module - "$BASE/healthz" "$SERVER_PID" <<'JS' || die "the server did not come up; tail of $REPORT_DIR/server.log: $(tail -n 5 "$REPORT_DIR/server.log")"
const [url, pid] = process.argv.slice(2);
const deadline = Date.now() + 30_000;
for (;;) {
  try { process.kill(Number(pid), 0); } catch { console.error("the server exited before answering /healthz"); process.exit(1); }
  try { if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).status === 200) process.exit(0); } catch {}
  if (Date.now() > deadline) { console.error("/healthz did not answer 200 within 30 s"); process.exit(1); }
  await new Promise((r) => setTimeout(r, 100));
}
JS
log "server $BIN on $BASE (pid $SERVER_PID)"

# ---------------------------------------------------------------- live test
rc=0
ARBITER_URL=$BASE node "$CLIENT/dist/test/live.js" || rc=$?
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  log "the server died during the run; tail of its log:"
  tail -n 30 "$REPORT_DIR/server.log" >&2 || true
  [ "$rc" -ne 0 ] || rc=1
fi
exit "$rc"
