# shellcheck shell=bash
# Sourced by the CI test scripts: TAP-like counted checks. Set NAME (the prefix of log lines)
# before sourcing; PASSED and FAILED count the checks.
#
#   check DESCRIPTION COMMAND...   one counted check
#   pass / fail DESCRIPTION        count one by hand

PASSED=${PASSED:-0}
FAILED=${FAILED:-0}

log() { printf '%s: %s\n' "$NAME" "$*"; }
pass() {
  PASSED=$((PASSED + 1))
  printf 'ok   %2d - %s\n' "$((PASSED + FAILED))" "$*"
}
fail() {
  FAILED=$((FAILED + 1))
  printf 'FAIL %2d - %s\n' "$((PASSED + FAILED))" "$*" >&2
}
check() {
  local what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
