#!/usr/bin/env bash
# Build the separate environment of the conformance tier: verl 0.9.1 on a CPU torch wheel.
#
# Usage: .ci/conformance-env.sh            (venv at ${VERL_ENV:-.venv-verl})
# The last line printed is the venv's python; export it as VERL_PYTHON for
# `pytest -m conformance tests/conformance`. Idempotent: an env that already imports verl 0.9.1 is reused.
set -euo pipefail

VERL_VERSION="0.9.1"
TORCH_VERSION="2.13.0"
ENV_DIR="${VERL_ENV:-.venv-verl}"
PY="${ENV_DIR}/bin/python"

has_verl() {
    [ -x "${PY}" ] && "${PY}" - "${VERL_VERSION}" <<'PYEOF' >/dev/null 2>&1
import sys
import tokenizers  # noqa: F401  the harness builds its tiny tokenizer with it
import verl
sys.exit(0 if verl.__version__ == sys.argv[1] else 1)
PYEOF
}

if has_verl; then
    echo "conformance env: reusing ${ENV_DIR} (verl ${VERL_VERSION})" >&2
else
    echo "conformance env: building ${ENV_DIR}" >&2
    [ -x "${PY}" ] || python3 -m venv "${ENV_DIR}"
    # torch first and on its own: pip must take the local CPU wheel, not resolve a CUDA build
    # through verl's dependency tree.
    "${PY}" -m pip install --quiet "torch==${TORCH_VERSION}" >&2
    "${PY}" -m pip install --quiet "torch==${TORCH_VERSION}" "verl[verl-core]==${VERL_VERSION}" tokenizers >&2
    if ! has_verl; then
        echo "conformance env: ${ENV_DIR} does not import verl ${VERL_VERSION} after install" >&2
        exit 1
    fi
fi

cd "$(dirname "${PY}")" && echo "$(pwd -P)/python"
