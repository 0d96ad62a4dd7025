#!/usr/bin/env bash
# Installs the Debian packages FusedGA builds with (Debian 12), and gnuplot for
# ga-bench --report plots (and clang for the fuzz targets with FUSEDGA_WITH_FUZZ=1). Skips apt when all are present.
set -euo pipefail
pkgs=(build-essential cmake ccache libtbb-dev libyaml-cpp-dev catch2 libcli11-dev libfmt-dev
      nlohmann-json3-dev librandom123-dev libssl-dev
      python3-dev python3-venv  # the Python package (pip install ., scripts/test-python.sh)
      gnuplot-nox   # gnuplot-nox: ga-bench --report plots (optional: reports work without it, with a notice)
      libpagmo-dev  # libpagmo-dev: ga-bench --quality's pagmo2 peers (optional at build time)
      libopenmpi-dev openmpi-bin)  # Open MPI: islands across processes (mpirun ga-run, tests/mpi; optional at build time)
# clang + libclang-rt-14-dev (libFuzzer's runtime, only recommended by clang): scripts/fuzz.sh's fuzz targets.
if [ "${FUSEDGA_WITH_FUZZ:-0}" = 1 ]; then pkgs+=(clang libclang-rt-14-dev); fi
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# pymoo: ga-bench --quality's Python peer (optional at run time: missing -> a notice in the report).
python3 -c 'import pymoo' >/dev/null 2>&1 || python3 -m pip install -q pymoo >/dev/null 2>&1 || echo "install-deps: pymoo not installed (pip install pymoo); ga-bench --quality runs without it"
