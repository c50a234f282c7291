#!/usr/bin/env bash
# The playground (GET /playground) in a real browser: installs Debian's Chromium with apt-get
# when /usr/bin/chromium is missing, playwright-core from tests/browser's lock file (`npm ci`),
# starts the server on a loopback port and runs tests/browser/playground.test.mjs, which loads
# an example, drags a creature with the mouse and moves it with the keyboard, checks the cover
# answers against RULES.md and that the drawing changes, reads a French trace, loads the
# import fixtures (tests/fixtures/import) through the page's file input and asks about the
# imported room, and fails on any request to a non-loopback host, any console error and any
# page error. The screenshot is
# the CI artefact. The server is stopped on exit.
#
#   scripts/browser-test.sh
#
# Settings (environment):
#   ARBITER_BIN          binary to test (default target/debug/arbiter, built with
#                        `cargo build --locked --bin arbiter` when missing)
#   BROWSER_REPORT_DIR   server log (default target/browser-test)
#   ARBITER_SCREENSHOT   the screenshot (default target/playground.png)
#
# Needs Node.js >= 20 and npm; root and apt-get to install Chromium when it is missing.
# Exit status 0 only when every check passed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

BIN=${ARBITER_BIN:-$ROOT/target/debug/arbiter}
REPORT_DIR=${BROWSER_REPORT_DIR:-$ROOT/target/browser-test}
export ARBITER_SCREENSHOT=${ARBITER_SCREENSHOT:-$ROOT/target/playground.png}
STARTED=$SECONDS
CHROMIUM=/usr/bin/chromium
TESTS=$ROOT/tests/browser

# shellcheck source=scripts/lib/server.sh
. "$ROOT/scripts/lib/server.sh"
log() { printf 'browser-test: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}
stop_server_on_exit

# ---------------------------------------------------------------- toolchain
need_node
if [ ! -x "$CHROMIUM" ]; then
  [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null ||
    die "no $CHROMIUM, and installing Debian's chromium needs root and apt-get"
  log "installing Debian's chromium with apt-get"
  apt_started=$SECONDS
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive timeout 1200 apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
    --no-install-recommends chromium >/dev/null
  log "chromium installed in $((SECONDS - apt_started)) s"
fi
log "node $(node --version), $("$CHROMIUM" --version 2>/dev/null | head -n 1)"

cd "$TESTS"
log "npm ci (exactly the versions of package-lock.json)"
npm ci --no-audit --no-fund --prefer-offline --loglevel=error

# ---------------------------------------------------------------- server
cd "$ROOT"
start_server "$BIN" browser-test "$REPORT_DIR"

# ---------------------------------------------------------------- the browser
rc=0
# At most 2 minutes: every wait in the test is bounded, this bounds a hung browser too.
ARBITER_URL=$BASE CHROMIUM=$CHROMIUM timeout 120 node "$TESTS/playground.test.mjs" || rc=$?
exit "$(server_verdict "$rc")"
