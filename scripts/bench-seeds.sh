#!/usr/bin/env bash
# Benchmarks the three seed workloads at the seeds' 900,000 individuals with
# ga-bench and keeps tables and JSON under docs/bench/. Run on a quiet machine.
# Usage: bash scripts/bench-seeds.sh [extra ga-bench options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh ga-bench
mkdir -p docs/bench
for p in constrained-quadratic trig-constrained; do
  build/apps/ga-bench "seed/$p" --sizes 900000 --quiet --json "docs/bench/$p.json" "$@" | tee "docs/bench/$p.txt"
done
# gene-sum: 900 MB of genes; the object tier would need 7 GB of std::vector rows and is skipped by ga-bench
build/apps/ga-bench seed/gene-sum --sizes 900000 --workloads eval --quiet --json docs/bench/gene-sum.json "$@" \
  | tee docs/bench/gene-sum.txt
