#!/usr/bin/env bash
# Results must not change across refactors: every config in configs/, two seeds,
# on the serial and TBB backends (TBB at 1 and 2 threads), run by ga-run at a
# reduced size, reduced to a digest of its result JSON and history CSV with the
# wall-clock fields removed. Compares with tests/results/expected*.tsv.
# The digests depend on the SIMD level ga-run was built for (-march=native): problems that loop over genes and
# call libm (Rastrigin) end their rows' vectorized loop over genes with other libmvec variants on AVX2 than on
# AVX-512 (docs/performance.md, "2026-12-02"). So each level has its file: expected.tsv (AVX-512) and
# expected-avx2.tsv (AVX2 only). The CPU matters beyond its SIMD level: on an AVX2 AMD EPYC (GCC's
# -march=native znver3, other tuning; not traced further) 24 of 126 digests of the same code differed from
# expected-avx2.tsv (recorded on an Intel VM). A file named for the level and GCC's -march=native,
# expected-<level>-<march>.tsv (e.g. expected-avx2-znver3.tsv), is compared with (or recorded) where it exists,
# else the level's; `--record-march` records one for this machine's level and -march.
# Usage: bash scripts/check-results.sh [GA_RUN]                  compare
#        bash scripts/check-results.sh --record [GA_RUN]         rewrite the file it compares with
#        bash scripts/check-results.sh --record-march [GA_RUN]   record expected-<level>-<march>.tsv for this machine
set -euo pipefail
cd "$(dirname "$0")/.."
record=0 by_march=0
[ "${1:-}" = "--record" ] && { record=1; shift; }
[ "${1:-}" = "--record-march" ] && { record=1; by_march=1; shift; }
ga_run="${1:-build/apps/ga-run}"
simd=$(grep -qw avx512f /proc/cpuinfo 2>/dev/null && echo AVX-512 || (grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo AVX2 || echo "no AVX2"))
case $simd in
  AVX-512) expected=tests/results/expected.tsv level=avx512 ;;
  AVX2) expected=tests/results/expected-avx2.tsv level=avx2 ;;
  *) echo "check-results: this machine has no AVX2; digests are recorded for AVX-512 and AVX2 only" >&2; exit 2 ;;
esac
march=$( (${CXX:-g++} -march=native -Q --help=target 2>/dev/null || true) | awk '$1 == "-march=" {m = $2} END {print m}')
# Keyed by the SIMD level too: GCC 12 calls an AVX-512 Zen 4 znver3, as it does an AVX2 Zen 3.
if [ -n "$march" ] && { [ $by_march = 1 ] || [ -f "tests/results/expected-$level-$march.tsv" ]; }; then
  expected=tests/results/expected-$level-$march.tsv
  simd="$simd, -march=native $march"
elif [ $by_march = 1 ]; then
  echo "check-results: cannot tell GCC's -march=native here (${CXX:-g++} -march=native -Q --help=target)" >&2; exit 2
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Wall times and rates vary run to run: drop them, keep every other byte.
strip_json() { sed -E 's/"wall_time_s": *[-0-9.eE+]+/"wall_time_s":0/' "$1"; }
strip_csv() { awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i=="elapsed_s") c=i} {if(c) $c=""; print}' OFS=, "$1"; }
: > "$tmp/actual.tsv"
for cfg in configs/*.yaml; do
  # Elitism is a GA-only key: setting it on a config without one would turn ga.algorithm auto into the GA.
  elitism=(); grep -qE '^  elitism:' "$cfg" && elitism=(--set ga.elitism=3)
  for seed in 1 2; do
    for run in "serial 1" "tbb 1" "tbb 2"; do
      set -- $run
      "$ga_run" "$cfg" -q --backend "$1" --set "threads=$2" --set "ga.seed=$seed" \
        --set ga.population=600 --set ga.generations=25 "${elitism[@]}" \
        --out "$tmp/r.json" --history "$tmp/h.csv"
      digest=$( { strip_json "$tmp/r.json"; strip_csv "$tmp/h.csv"; } | sha256sum | cut -c1-16)
      printf '%s\t%s\t%s\t%s\n' "$(basename "$cfg" .yaml)" "$seed" "$1x$2" "$digest" >> "$tmp/actual.tsv"
    done
  done
done
if [ $record = 1 ]; then
  cp "$tmp/actual.tsv" "$expected"
  echo "check-results: recorded $(wc -l < "$expected") digests in $expected"
  exit 0
fi
echo "check-results: this machine has $simd: comparing with $expected"
if diff "$expected" "$tmp/actual.tsv" > "$tmp/diff"; then
  echo "check-results: $(wc -l < "$expected") runs bitwise equal to $expected"
else
  echo "check-results: results differ from $expected (< expected, > now):"; cat "$tmp/diff"; exit 1
fi
