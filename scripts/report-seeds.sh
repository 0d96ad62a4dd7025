#!/usr/bin/env bash
# Regenerates the speedup comparison reports of the three seed workloads with
# `ga-bench --report` into docs/reports/<name>/ (report.md, results.csv,
# results.json, plots as PNG and SVG): every tier, evaluation and a full
# generation, at the default sweep N = 10^2, 10^4, 9x10^5, 10^6.
# About 5-10 minutes on 2 cores; run on a quiet machine.
# Usage: bash scripts/report-seeds.sh [extra ga-bench options, e.g. --repeats 3 --min-time 0.1]
# GA_BENCH=path/to/ga-bench uses that binary instead of building build/apps/ga-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GA_BENCH:-}" ]; then
  bash scripts/build.sh ga-bench
  GA_BENCH=build/apps/ga-bench
fi
mkdir -p docs/reports
for p in constrained-quadratic trig-constrained gene-sum; do
  echo "report-seeds: seed/$p -> docs/reports/$p/"
  # The table goes to the report; progress lines (stderr) show how far it got.
  "$GA_BENCH" "seed/$p" --report "docs/reports/$p" "$@" >/dev/null
done
