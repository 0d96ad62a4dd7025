#!/usr/bin/env bash
# Bounded libFuzzer runs (clang, AddressSanitizer) of the two fuzz targets, each starting from its seed corpus
# kept in the repository: parse_fuzzer (expression parser, tests/expr/fuzz) and config_fuzzer (YAML config
# reader with --set overrides, tests/config/fuzz). New inputs go to a scratch copy, never into the repository;
# a crash, leak, timeout (a hang) or out-of-memory fails the script and leaves the reproducer in
# build-fuzz/artifacts/ (replay: build-fuzz/tests/<dir>/fuzz/<target> FILE; then add FILE to the corpus).
# Usage: bash scripts/fuzz.sh [SECONDS per target, default $FUSEDGA_FUZZ_SECONDS or 60]
set -euo pipefail
cd "$(dirname "$0")/.."
FUSEDGA_WITH_FUZZ=1 bash scripts/install-deps.sh
seconds="${1:-${FUSEDGA_FUZZ_SECONDS:-60}}"
jobs="${FUSEDGA_JOBS:-$(nproc)}"
source scripts/ccache-env.sh
start=$SECONDS
# Build type None (no -O): the library the targets link is compiled unoptimized, several times faster (its
# registry instantiates the engine for every built-in problem); the fuzzed sources get -O1 -g (their CMakeLists).
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=None -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DFUSEDGA_CUDA=OFF "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j "$jobs" --target parse_fuzzer config_fuzzer
echo "fuzz: built in $((SECONDS - start)) s"
artifacts="$PWD/build-fuzz/artifacts"
mkdir -p "$artifacts"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for target in expr/parse config/config; do
  dir="${target%/*}"
  name="${target#*/}_fuzzer"
  mkdir -p "$scratch/$name"
  t0=$SECONDS
  # -timeout: one input may take 10 s at most (a hang is a bug: issue 16, item 1); -rss_limit_mb: so is
  # unbounded memory. The repository corpus is read; only the scratch directory is written.
  "build-fuzz/tests/$dir/fuzz/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -dict="tests/$dir/fuzz/${name%_fuzzer}.dict" -artifact_prefix="$artifacts/$name-" -print_final_stats=1 \
    "$scratch/$name" "tests/$dir/fuzz/corpus" 2>"$scratch/$name.log" || {
    tail -n 60 "$scratch/$name.log"
    echo "fuzz: $name failed; reproducer in $artifacts/" >&2
    exit 1
  }
  units="$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$name.log")"
  echo "fuzz: $name ran $((SECONDS - t0)) s, ${units:-?} inputs, no crash"
done
echo "fuzz: done in $((SECONDS - start)) s"
