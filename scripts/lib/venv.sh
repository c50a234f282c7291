# shellcheck shell=bash
# Sourced by the CI scripts: one way to get a pinned PyPI tool into a venv under target/.
#
#   pip_tool VENV BIN VERSION PACKAGE==VERSION [more pip arguments]
#
# Makes VENV (installing Debian's python3-venv first when `-m venv` needs it and we are
# root), then pip-installs the package unless VENV/bin/BIN already reports VERSION.
# PYTHON (default python3) is the interpreter.

pip_tool() {
  local venv=$1 bin=$2 version=$3
  shift 3
  local python=${PYTHON:-python3}
  if "$venv/bin/$bin" --version 2>/dev/null | grep -qF "$version"; then
    return 0
  fi
  echo "${0##*/}: installing $* into $venv" >&2
  if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
      DEBIAN_FRONTEND=noninteractive timeout 600 apt-get update -qq
      DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
      rm -rf "$venv"
      "$python" -m venv "$venv"
    else
      echo "${0##*/}: cannot create a venv with $python (install python3-venv)" >&2
      return 2
    fi
  fi
  timeout 900 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
}
