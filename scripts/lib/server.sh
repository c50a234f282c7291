# shellcheck shell=bash
# Sourced by the CI scripts that start and stop background processes (servers, nginx, load).
#
#   stop_pid PID [SECS]   TERM, then KILL after SECS seconds (default 5); never waits longer,
#                         and reaps it

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
