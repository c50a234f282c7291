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

stop_server_on_exit

# ---------------------------------------------------------------- toolchain
need_node
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
start_server "$BIN" ts-client "$REPORT_DIR"

# ---------------------------------------------------------------- live test
rc=0
ARBITER_URL=$BASE node "$CLIENT/dist/test/live.js" || rc=$?
exit "$(server_verdict "$rc")"
