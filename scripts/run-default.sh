#!/usr/bin/env bash
# Quick start 1: install, build and solve the embedded default problem
# (seed example 2, the constrained quadratic). Extra arguments go to ga-run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh ga-run
exec build/apps/ga-run "$@"
