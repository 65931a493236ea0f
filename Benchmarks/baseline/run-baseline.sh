#!/usr/bin/env bash
# Runs the OpenCV baseline in its own virtualenv, Benchmarks/.venv (git-ignored), creating it and
# installing requirements.txt when it is missing or the requirements changed.
#   Benchmarks/baseline/run-baseline.sh VIDEO [options]   trajectories as JSON on stdout (--help: options)
#   Benchmarks/baseline/run-baseline.sh --self-check      synthetic clips and a schema check
# PYTHON names the interpreter that makes the virtualenv (default python3; 3.11 or later).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$(cd "$here/.." && pwd)/.venv"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "run-baseline.sh: needs Python 3.11 or later as \`$python\` (set PYTHON to choose another)." >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "run-baseline.sh: creating $venv ..." >&2
    if ! "$python" -m venv "$venv" >&2; then
        rm -rf "$venv"
        echo "run-baseline.sh: cannot create a virtualenv; on Debian/Ubuntu: apt-get install python3-venv" >&2
        exit 1
    fi
fi
# The copy of requirements.txt in the venv records what was installed.
if ! cmp -s "$here/requirements.txt" "$venv/baseline-requirements.txt"; then
    echo "run-baseline.sh: installing requirements.txt into $venv ..." >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
    cp "$here/requirements.txt" "$venv/baseline-requirements.txt"
fi

if [ "${1:-}" = "--self-check" ]; then
    shift
    exec "$venv/bin/python" "$here/selfcheck.py" "$@"
fi
exec "$venv/bin/python" "$here/opencv_baseline.py" "$@"
