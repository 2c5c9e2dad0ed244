#!/usr/bin/env bash
# Build one venv per older verl release of the support matrix (0.7.1, 0.8.0, 0.9.0) beside the 0.9.1 one that
# .ci/conformance-env.sh builds, for `check --verl PYTHON` in tests/conformance/test_version_matrix.py.
#
# Usage: .ci/verl-matrix-env.sh BASE_PYTHON     (BASE_PYTHON: the 0.9.1 venv's python, conformance-env.sh's last line)
# Prints `export VERL_PYTHON_0_7_1=...` lines (0.9.1 included, as BASE_PYTHON) for `eval`; progress goes to stderr.
#
# torch is 2 GB: rather than installing it three more times, each venv sees the 0.9.1 venv's site-packages AFTER
# its own (a .pth file) and gets only `verl==X --no-deps` plus the requirements of X's wheel METADATA that the
# shared packages do not meet. Idempotent: a venv that already imports its verl and verl's checks is reused.
set -euo pipefail

BASE_PY="${1:?usage: $0 BASE_PYTHON (the verl 0.9.1 venv python)}"
VERSIONS="${VERL_MATRIX_VERSIONS:-0.7.1 0.8.0 0.9.0}"
PREFIX="${VERL_MATRIX_PREFIX:-.venv-verl-}"

# ok PY VERSION: PY imports verl VERSION and the modules verl_verdict_script.py runs its checks from
ok() {
    [ -x "$1" ] && "$1" - "$2" <<'PYEOF' >/dev/null 2>&1
import sys
import verl
import verl.trainer.ppo.utils  # noqa: F401  need_reference_policy / need_critic
import verl.utils.config  # noqa: F401  validate_config
sys.exit(0 if verl.__version__ == sys.argv[1] else 1)
PYEOF
}

# unmet PY: the requirements of PY's installed verl (no extras) that the packages PY sees do not satisfy
unmet() {
    "$1" - <<'PYEOF'
from importlib.metadata import PackageNotFoundError, requires, version

from packaging.requirements import Requirement

for line in requires("verl") or []:
    req = Requirement(line)
    if req.marker is not None and not req.marker.evaluate({"extra": ""}):
        continue
    try:
        have = version(req.name)
    except PackageNotFoundError:
        print(line)
        continue
    if req.specifier and not req.specifier.contains(have, prereleases=True):
        print(str(req))
PYEOF
}

BASE_SITE="$("${BASE_PY}" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
ok "${BASE_PY}" 0.9.1 || { echo "verl matrix: ${BASE_PY} does not import verl 0.9.1" >&2; exit 1; }

for version in ${VERSIONS}; do
    env_dir="${PREFIX}${version}"
    py="${env_dir}/bin/python"
    started=${SECONDS}
    if ok "${py}" "${version}"; then
        echo "verl matrix: reusing ${env_dir} (verl ${version})" >&2
    else
        echo "verl matrix: building ${env_dir} (verl ${version})" >&2
        [ -x "${py}" ] || python3 -m venv "${env_dir}"
        # the venv's own old setuptools would hide the shared one that torch asks for (>= 77)
        "${py}" -m pip uninstall --quiet --yes setuptools >&2
        site="$("${py}" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
        # a .pth line is appended to sys.path after the venv's own site-packages: its own copies win
        echo "${BASE_SITE}" >"${site}/zz_verl_0_9_1_base.pth"
        "${py}" -m pip install --quiet --no-deps "verl==${version}" >&2
        mapfile -t need < <(unmet "${py}")
        if printf '%s\n' "${need[@]}" | grep -q '^numpy.*<2'; then
            # the shared pandas 3, pyarrow 26 and datasets 5 are built for numpy 2 and fail to import under numpy 1
            need+=("pandas<3" "pyarrow==20.*" "datasets<4")
        fi
        if [ "${#need[@]}" -gt 0 ]; then
            echo "verl matrix: verl ${version} needs its own ${need[*]}" >&2
            "${py}" -m pip install --quiet "${need[@]}" >&2
        fi
        if ! ok "${py}" "${version}"; then
            echo "verl matrix: ${env_dir} does not import verl ${version} and its checks after install" >&2
            exit 1
        fi
    fi
    echo "verl matrix: verl ${version} ready in $((SECONDS - started)) s" >&2
    echo "export VERL_PYTHON_${version//./_}=$(cd "$(dirname "${py}")" && pwd -P)/python"
done
echo "export VERL_PYTHON_0_9_1=$(cd "$(dirname "${BASE_PY}")" && pwd -P)/python"
