#!/usr/bin/env bash
# Everything that needs a GPU (issues 3 and 4), in as few device calls as a
# session's 30 minutes of device time allow. Not part of CI.
#
#   bash scripts/gpu-session.sh prepare        # here, once: .device/ with the Debian packages the GPU machine lacks
#   bash scripts/gpu-session.sh build test     # on the GPU machine (device tool, carry .device), ~5 min
#   bash scripts/gpu-session.sh bench          # the same warm machine: ga-run, ga-bench and PyTorch figures
#   bash scripts/gpu-session.sh sanitize       # compute-sanitizer memcheck, racecheck and synccheck on the GPU tests
#
# A device call may run 10 minutes and the machine stays warm only 30 s after
# one: if `build test` risks the limit, call `build` and `test` separately,
# back to back (the build directory survives while the machine is warm).
#
# Stages run in the order given; `all` is build test bench sanitize. Each stage's
# output goes to the terminal and to $OUT/gpu-session.log; `bench` also packs
# its JSON and tables into $OUT/gpu-bench.tar.gz. A stage that fails is
# reported and the next still runs; the exit status is the number of failed
# steps. A command that hangs (a kernel that never returns) is killed after
# FUSEDGA_STEP_TIMEOUT seconds (default 240).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="${OUT:-$root/out}"
mkdir -p "$out"
log="$out/gpu-session.log"
build=build-cuda
step_timeout="${FUSEDGA_STEP_TIMEOUT:-240}"
failed=0

say() { printf '\n=== [%s] %s\n' "$(date +%T)" "$*" | tee -a "$log"; }

# step NAME COMMAND...: runs COMMAND under the timeout, logs it, counts a failure.
step() {
  local name=$1
  shift
  say "$name: $*"
  local t0=$SECONDS
  timeout --kill-after=10 "$step_timeout" "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  say "$name: exit $rc after $((SECONDS - t0)) s"
  [ "$rc" -eq 0 ] || failed=$((failed + 1))
  return "$rc"
}

prepare() {
  mkdir -p .device
  cp ../shared/device/env.sh ../shared/device/fetch-debs.sh .device/
  # OpenSSL's libcrypto is the JIT cache's SHA-256 (CMakeLists.txt); the GPU image may lack its headers.
  bash .device/fetch-debs.sh libssl-dev libssl3
  du -sh .device
}

use_device_env() {
  [ -f .device/env.sh ] || { echo "gpu-session.sh: no .device/env.sh (run 'prepare' here and carry .device)" >&2; exit 2; }
  # Not in a pipeline: that would source it in a subshell and lose its exports.
  # shellcheck disable=SC1091
  source .device/env.sh >>"$log" 2>&1
  # Debian's multiarch headers (openssl/opensslconf.h) are not under env.sh's CPATH.
  export CPATH="/opt/deps/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}"
  nvidia-smi 2>&1 | tee -a "$log"
}

stage_build() {
  local generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  step configure cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DFUSEDGA_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90
  step_timeout=540 step build cmake --build "$build" -j "$(nproc)"
}

stage_test() {
  # The CUDA tests first: on a GPU none may skip (FUSEDGA_REQUIRE_GPU_TESTS=1 turns a skip into a failure).
  FUSEDGA_REQUIRE_GPU_TESTS=1 step cuda-tests ctest --test-dir "$build" --output-on-failure -R '^cuda:' -j 4
  step other-tests ctest --test-dir "$build" --output-on-failure -E '^cuda:' -j "$(nproc)"
}

stage_bench() {
  local b="$out/bench"
  mkdir -p "$b"
  local run="$build/apps/ga-run" bench="$build/apps/ga-bench"
  # Issue 3: a whole 1,000-generation run at 10^6 individuals in under 1 s of GPU time.
  step run-1000-generations "$run" --backend cuda --set ga.population=1000000 --set ga.generations=1000
  step run-1000-generations-float "$run" --backend cuda --set ga.population=1000000 --set ga.generations=1000 \
    --set precision=float
  # Issue 4: the GPU JIT's plan, a run, and its generation against the built-in on the GPU.
  step expr-explain "$run" configs/expr-seed-constrained-quadratic.yaml --backend cuda --explain
  step expr-run "$run" configs/expr-seed-constrained-quadratic.yaml --backend cuda
  step expr-vs-builtin "$bench" configs/expr-seed-constrained-quadratic.yaml --backends cuda --tiers fused \
    --sizes 1000000 --baseline seed/constrained-quadratic --json "$b/expr-cq.json" -q
  step expr-trig-vs-builtin "$bench" configs/expr-seed-trig-constrained.yaml --backends cuda --tiers fused \
    --sizes 1000000 --baseline seed/trig-constrained --json "$b/expr-trig.json" -q
  # Issue 3: evaluation and generation against the device's copy bandwidth, TBB beside it.
  step cq-double "$bench" seed/constrained-quadratic --backends tbb,cuda --tiers fused \
    --sizes 1000,10000,100000,1000000,10000000 --precision double --threads "$(nproc)" --json "$b/cq-double.json" -q
  step cq-float "$bench" seed/constrained-quadratic --backends cuda --tiers fused \
    --sizes 1000,10000,100000,1000000,10000000 --precision float --json "$b/cq-float.json" -q
  step gene-sum "$bench" seed/gene-sum --backends tbb,cuda --tiers fused --sizes 1000,10000,100000,900000,1000000 \
    --threads "$(nproc)" --json "$b/gene-sum.json" -q
  # The seed documents' torch.compile code, same machine, same sizes.
  export PYTHONUNBUFFERED=1
  step torch-cq python3 scripts/torch_baseline.py --workload constrained-quadratic --precision double \
    --fusedga "$b/cq-double.json" --json "$b/torch-cq-double.json"
  step torch-cq-float python3 scripts/torch_baseline.py --workload constrained-quadratic --precision float \
    --fusedga "$b/cq-float.json" --json "$b/torch-cq-float.json"
  step torch-gene-sum python3 scripts/torch_baseline.py --workload gene-sum \
    --sizes 1000,10000,100000,900000,1000000 --fusedga "$b/gene-sum.json" --json "$b/torch-gene-sum.json"
  tar -czf "$out/gpu-bench.tar.gz" -C "$out" bench && rm -rf "$b"
}

stage_sanitize() {
  local tests="$build/tests/test_cuda" sanitizer=compute-sanitizer
  command -v "$sanitizer" >/dev/null || sanitizer=/usr/local/cuda/bin/compute-sanitizer
  # Out-of-bounds and misaligned accesses, shared-memory races and illegal barriers, on the GPU tests
  # (not the one that asks for more memory than the device has).
  local some='gpu: integer genes*,gpu: elitism above 8*,gpu: real genes*,gpu jit: on the GPU*'
  FUSEDGA_REQUIRE_GPU_TESTS=1 step memcheck "$sanitizer" --tool memcheck --error-exitcode 1 "$tests" "$some"
  FUSEDGA_REQUIRE_GPU_TESTS=1 step racecheck "$sanitizer" --tool racecheck --error-exitcode 1 "$tests" \
    'gpu: integer genes*,gpu: elitism above 8*'
  FUSEDGA_REQUIRE_GPU_TESTS=1 step synccheck "$sanitizer" --tool synccheck --error-exitcode 1 "$tests" \
    'gpu: integer genes*,gpu: elitism above 8*'
}

[ $# -gt 0 ] || { awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 2; }
for stage in "$@"; do
  case $stage in
    prepare) prepare ;;
    build | test | bench | sanitize | all) ;;
    *) echo "gpu-session.sh: unknown stage '$stage' (prepare, build, test, bench, sanitize, all)" >&2; exit 2 ;;
  esac
done
if [ "$*" != prepare ]; then
  use_device_env
  for stage in "$@"; do
    case $stage in
      build) stage_build ;;
      test) stage_test ;;
      bench) stage_bench ;;
      sanitize) stage_sanitize ;;
      all) stage_build && stage_test; stage_bench; stage_sanitize ;;
    esac
  done
  say "done: $failed failed step(s); log in $log"
fi
exit "$failed"
