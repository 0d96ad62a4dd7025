#!/usr/bin/env bash
# The Python package's tests (docs/python.md): pip-installs fusedga from this checkout into a virtual
# environment, build-python/venv (made with $PYTHON, default python3: Debian's needs python3-venv and
# python3-dev, installed by scripts/install-deps.sh), then runs pytest on python/tests. Incremental: the
# extension's CMake build stays in build-python/cmake (scikit-build-core's build-dir), compiled through ccache
# when found. The parity tests compare with build/apps/ga-run (bash scripts/build.sh builds it).
# Usage: bash scripts/test-python.sh [pytest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build-python/venv
[ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
py="$PWD/$venv/bin/python"
# The build requirements too: --no-build-isolation reuses them (and the CMake build dir) from run to run.
"$py" -m pip install -q --disable-pip-version-check "scikit-build-core>=0.10" "nanobind>=2.0" "numpy>=1.21" pytest
settings=(-C build-dir=build-python/cmake)
source scripts/ccache-env.sh
[ ${#launcher[@]} -gt 0 ] && settings+=(-C cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache)
CMAKE_BUILD_PARALLEL_LEVEL="${FUSEDGA_JOBS:-$(nproc)}" \
  "$py" -m pip install -q --disable-pip-version-check --no-build-isolation "${settings[@]}" .
cd python/tests  # not the repository root, so `import fusedga` is the installed package, not python/fusedga
"$py" -m pytest -q -p no:cacheprovider "$@" .
