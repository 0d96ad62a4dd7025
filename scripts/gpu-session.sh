#!/usr/bin/env bash
# Everything that needs a GPU (issue 14), in as few device calls as a session's
# 15 minutes of device time allow. Not part of CI.
#
#   bash scripts/gpu-session.sh prepare      # here, once: .device/ with the Debian packages the GPU machine lacks
#   bash scripts/gpu-session.sh build-here   # here: build-cuda/ (sm_90), its binaries stripped into .device/bin.tar.xz
#   # on the GPU machine (device tool; carry .device; first: tar -xJf .device/bin.tar.xz):
#   bash scripts/gpu-session.sh test         # the CUDA test binary with GPU tests required
#   bash scripts/gpu-session.sh compare      # ga-bench before and after a kernel change (FUSEDGA_BASELINE_BENCH=old binary)
#   bash scripts/gpu-session.sh bench        # runs (ga-run, GPU JIT) + tables (ga-bench fused/unfused CUDA, PyTorch)
#   bash scripts/gpu-session.sh profile      # Nsight Compute on the evaluation, offspring and summary kernels
#   bash scripts/gpu-session.sh sanitize     # compute-sanitizer memcheck, racecheck and synccheck on the GPU tests
#   bash scripts/gpu-session.sh report       # ga-bench --report of the three seed workloads into $OUT/reports
#   bash scripts/gpu-session.sh python       # the Python package built there with CUDA; its GPU tests (PyTorch)
#
# Building here costs no device time (a cold CUDA build is 30+ minutes on 2 cores, several on the GPU machine);
# the binaries keep this checkout's absolute paths, so on the GPU machine the checkout is linked to
# FUSEDGA_BUILT_AT (default /work/main) when it lives elsewhere. `build` still builds on the GPU machine.
#
# Stages run in the order given; `all` is test bench sanitize. FUSEDGA_SEEDS (default
# constrained-quadratic,trig-constrained,gene-sum) limits `tables` and `report` to those seed workloads, so a
# session spends its device time on what a change touched. Each stage's output goes to the terminal and to
# $OUT/gpu-session.log; `bench` also packs its JSON and tables into $OUT/gpu-bench.tar.gz. A stage that fails is
# reported and the next still runs; the exit status is the number of failed steps. A command that hangs (a kernel
# that never returns) is killed after FUSEDGA_STEP_TIMEOUT seconds (default 240).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="${OUT:-$root/out}"
mkdir -p "$out"
log="$out/gpu-session.log"
build=build-cuda
built_at="${FUSEDGA_BUILT_AT:-/work/main}"
# What the GPU machine needs of build-cuda/ (packed into .device/bin.tar.xz by build-here).
carried=(build-cuda/apps/ga-run build-cuda/apps/ga-bench build-cuda/tests/test_cuda)
step_timeout="${FUSEDGA_STEP_TIMEOUT:-240}"
seeds=",${FUSEDGA_SEEDS:-constrained-quadratic,trig-constrained,gene-sum},"
failed=0

# wanted NAME: whether seed workload NAME is in FUSEDGA_SEEDS.
wanted() { [[ $seeds == *",$1,"* ]]; }

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
  # pagmo (and its Boost) is linked into ga-bench when the build found it (its --quality peers).
  bash .device/fetch-debs.sh libssl-dev libssl3 libpagmo8 libboost-serialization1.74.0
  # The `python` stage's build and test requirements (pure-Python wheels: the GPU machine has no PyPI; tomli and
  # exceptiongroup for a Python older than 3.11 there).
  python3 -m pip download -q --only-binary=:all: --dest .device/wheels "scikit-build-core>=0.10" "nanobind>=2.0" \
    pytest
  python3 -m pip download -q --only-binary=:all: --python-version 3.10 --implementation py --abi none \
    --platform any --dest .device/wheels tomli exceptiongroup
  du -sh .device
}

build_here() {
  # Through ccache (its nvcc support included): a later session's build of a changed tree compiles only what changed.
  source scripts/ccache-env.sh
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFUSEDGA_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DFUSEDGA_MPI=OFF "${launcher[@]}" >/dev/null
  cmake --build "$build" -j "$(nproc)" --target test_cuda ga-run ga-bench
  # Stripped and packed into .device/bin.tar.xz (~16 MB; the three binaries are ~88 MB, a device call carries 64 MiB).
  local stage
  stage=$(mktemp -d)
  for f in "${carried[@]}"; do
    mkdir -p "$stage/$(dirname "$f")"
    strip -o "$stage/$f" "$f"
  done
  mkdir -p .device
  tar -cJf .device/bin.tar.xz -C "$stage" build-cuda && rm -rf "$stage"
  du -h .device/bin.tar.xz
  echo "carry .device; on the GPU machine start with: tar -xJf .device/bin.tar.xz && bash scripts/gpu-session.sh ..."
}

use_device_env() {
  [ -f .device/env.sh ] || { echo "gpu-session.sh: no .device/env.sh (run 'prepare' here and carry .device)" >&2; exit 2; }
  # Not in a pipeline: that would source it in a subshell and lose its exports.
  # shellcheck disable=SC1091
  source .device/env.sh >>"$log" 2>&1
  # Debian's multiarch headers (openssl/opensslconf.h) are not under env.sh's CPATH.
  export CPATH="/opt/deps/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}"
  nvidia-smi 2>&1 | tee -a "$log"
  # Binaries built here keep this checkout's absolute paths (sources, configs, ga-run for the tests).
  if [ "$root" != "$built_at" ] && [ ! -e "$built_at" ]; then
    mkdir -p "$(dirname "$built_at")" && ln -s "$root" "$built_at"
  fi
  export XDG_CACHE_HOME="$out/../jit-cache"  # the JIT caches, outside what comes back
}

# Python (PyTorch) with the system's libraries, not the carried Debian ones.
py=(env -u LD_LIBRARY_PATH PYTHONUNBUFFERED=1 python3)

stage_build() {
  local generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  step configure cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DFUSEDGA_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90
  step_timeout=540 step build cmake --build "$build" -j "$(nproc)"
}

stage_test() {
  # On a GPU none may skip (FUSEDGA_REQUIRE_GPU_TESTS=1 turns a skip into a failure). Without ctest files (binaries
  # built elsewhere and carried), the test binary runs directly.
  if [ -f "$build/tests/CTestTestfile.cmake" ]; then
    FUSEDGA_REQUIRE_GPU_TESTS=1 step cuda-tests ctest --test-dir "$build" --output-on-failure -R '^cuda:' -j 4
  else
    FUSEDGA_REQUIRE_GPU_TESTS=1 step cuda-tests "$build/tests/test_cuda" --durations yes
  fi
}

stage_runs() {
  local run="$build/apps/ga-run" bench="$build/apps/ga-bench"
  # A whole 1,000-generation GA run at 10^6 individuals (target: under 0.2 s after start-up; ga-run prints its
  # time). The default algorithm (auto: SHADE with restarts) is a different, heavier run: see docs/cuda.md.
  step run-1000-generations "$run" --backend cuda --set ga.algorithm=ga --set ga.population=1000000 \
    --set ga.generations=1000
  step run-1000-generations-float "$run" --backend cuda --set ga.algorithm=ga --set ga.population=1000000 \
    --set ga.generations=1000 --set precision=float
  # Differential evolution's generation (SHADE, the default algorithm's variation) beside the GA's.
  step de-generation "$bench" seed/constrained-quadratic --backends cuda --tiers fused --workloads generation \
    --sizes 10000,100000,1000000 --set ga.algorithm=de --repeats 10 --min-time 0.05 -q
  step ga-generation "$bench" seed/constrained-quadratic --backends cuda --tiers fused --workloads generation \
    --sizes 10000,100000,1000000 --repeats 10 --min-time 0.05 -q
  # The gradient repair in the kernels (docs/cuda.md, "Gradient repair on the GPU"), before auto's GPU rate is
  # chosen: a DE generation with the CPU default's rate 0.2 beside the one above (rate 0), and an equality-
  # constrained quality problem through the GPU JIT with the repair, without it, and on the CPU for comparison.
  step de-generation-repair "$bench" seed/constrained-quadratic --backends cuda --tiers fused --workloads generation \
    --sizes 10000,100000,1000000 --set ga.algorithm=de --set ga.constraint_handling.gradient_repair.rate=0.2 \
    --repeats 10 --min-time 0.05 -q
  local rc04=configs/quality/rc04-reactor-network.yaml
  step repair-rc04-cuda "$run" "$rc04" --backend cuda --set ga.constraint_handling.gradient_repair.rate=0.2
  step repair-rc04-cuda-off "$run" "$rc04" --backend cuda --set ga.constraint_handling.gradient_repair.rate=0
  step repair-rc04-cpu "$run" "$rc04" --backend tbb --set ga.constraint_handling.gradient_repair.rate=0.2
  # The GPU JIT: a run, and its generation against the built-in's with the same GA (and its cold compile + link).
  step expr-run "$run" configs/expr-seed-constrained-quadratic.yaml --backend cuda
  step expr-vs-builtin "$bench" configs/expr-seed-constrained-quadratic.yaml --backends cuda --tiers fused \
    --sizes 1000000 --baseline seed/constrained-quadratic --set ga.algorithm=ga --repeats 20 --min-time 0.05
}

stage_python() {
  # The package built on the GPU machine with the CUDA backend (its PyTorch's Python; the wheels `prepare`
  # carried, the Debian libraries of env.sh), then the Python tests of backend="cuda": BatchProblem hands fn a
  # CUDA tensor of the device rows (test_batch.py), and the cuda-or-BackendUnavailable checks.
  export PIP_BREAK_SYSTEM_PACKAGES=1  # a distribution's Python (PEP 668); older pips ignore it
  step python-requirements python3 -m pip install -q --no-index --find-links .device/wheels \
    "scikit-build-core>=0.10" "nanobind>=2.0" pytest
  step_timeout=540 step python-build python3 -m pip install -q --no-build-isolation --no-deps \
    -C build-dir=build-python-gpu -C cmake.define.FUSEDGA_CUDA=ON -C cmake.define.CMAKE_CUDA_ARCHITECTURES=90 .
  # From the repository root `import fusedga` is the installed package (the sources are under python/).
  step python-gpu-tests python3 -m pytest -q -rs -p no:cacheprovider -k "cuda" python/tests
}

stage_compare() {
  # A kernel change measured against the kernels before it, alternating on the same GPU in one call:
  # FUSEDGA_BASELINE_BENCH names the earlier commit's ga-bench (built here and carried, like build-cuda/).
  local old="${FUSEDGA_BASELINE_BENCH:-}" new="$build/apps/ga-bench"
  if [ ! -x "$old" ]; then
    say "compare: FUSEDGA_BASELINE_BENCH ('$old') is not an executable ga-bench"
    failed=$((failed + 1))
    return
  fi
  local cq=(seed/constrained-quadratic --backends cuda --tiers fused --sizes 100000,1000000,10000000 --repeats 20
            --min-time 0.1 -q)
  local de=(seed/constrained-quadratic --backends cuda --tiers fused --workloads generation --sizes 1000000
            --set ga.algorithm=de --repeats 10 --min-time 0.05 -q)
  local gs=(seed/gene-sum --backends cuda --tiers fused --sizes 900000 --repeats 5 --min-time 0.05 -q)
  for round in 1 2; do
    step "compare-cq-before-$round" "$old" "${cq[@]}"
    step "compare-cq-after-$round" "$new" "${cq[@]}"
  done
  step compare-cq-float-before "$old" "${cq[@]}" --precision float
  step compare-cq-float-after "$new" "${cq[@]}" --precision float
  step compare-de-before "$old" "${de[@]}"
  step compare-de-after "$new" "${de[@]}"
  step compare-gene-sum-before "$old" "${gs[@]}"
  step compare-gene-sum-after "$new" "${gs[@]}"
}

stage_tables() {
  local b="$out/bench"
  mkdir -p "$b"
  local bench="$build/apps/ga-bench"
  local quick=(--repeats 10 --min-time 0.05 -q)
  # Evaluation and generation against the device's copy bandwidth; the Thrust unfused tier beside the fused one.
  if wanted constrained-quadratic; then
    step cq-double "$bench" seed/constrained-quadratic --backends cuda --tiers unfused,fused \
      --sizes 1000,10000,100000,1000000,10000000 --precision double --json "$b/cq-double.json" "${quick[@]}"
    step cq-float "$bench" seed/constrained-quadratic --backends cuda --tiers unfused,fused \
      --sizes 1000,10000,100000,1000000,10000000 --precision float --json "$b/cq-float.json" "${quick[@]}"
    # The seed documents' PyTorch code, same machine: eager, torch.compile, torch.compile(mode="max-autotune").
    step_timeout=150 step torch-cq "${py[@]}" scripts/torch_baseline.py --workload constrained-quadratic \
      --precision double --repeats 10 --fusedga "$b/cq-double.json" --json "$b/torch-cq-double.json"
    step_timeout=150 step torch-cq-float "${py[@]}" scripts/torch_baseline.py --workload constrained-quadratic \
      --precision float --repeats 10 --fusedga "$b/cq-float.json" --json "$b/torch-cq-float.json"
  fi
  if wanted gene-sum; then
    step gene-sum "$bench" seed/gene-sum --backends cuda --tiers fused --sizes 1000,10000,100000,900000,1000000 \
      --json "$b/gene-sum.json" "${quick[@]}"
    step gene-sum-unfused "$bench" seed/gene-sum --backends cuda --tiers unfused,fused --workloads eval \
      --sizes 1000,100000,900000 --repeats 3 --min-time 0 -q --json "$b/gene-sum-unfused.json"
    step_timeout=150 step torch-gene-sum "${py[@]}" scripts/torch_baseline.py --workload gene-sum --repeats 10 \
      --sizes 1000,10000,100000,900000,1000000 --fusedga "$b/gene-sum.json" --json "$b/torch-gene-sum.json"
  fi
  tar -czf "$out/gpu-bench.tar.gz" -C "$out" bench && rm -rf "$b"
}

stage_profile() {
  # Nsight Compute on the evaluation, offspring and summary kernels (after ga-bench's warm-up launches), for the
  # next optimization step: speed of light, occupancy, launch figures, memory and warp stall reasons.
  local ncu=ncu
  command -v ncu >/dev/null || ncu=$(ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  # --clock-control none: the clocks as the timed runs see them (ncu would lock them to base clocks).
  local sections=(--clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis
                  --section WarpStateStats)
  local bench="$build/apps/ga-bench"
  step ncu-cq "$ncu" "${sections[@]}" -k 'regex:offspring_short_kernel|finish_generation_kernel' \
    --launch-skip 12 --launch-count 4 "$bench" seed/constrained-quadratic --backends cuda --tiers fused \
    --sizes 1000000 --workloads generation --repeats 2 --min-time 0 -q
  # The summary kernel at 19,532 blocks, with its stall locations (SourceCounters), beside the evaluation.
  step ncu-cq-eval "$ncu" "${sections[@]}" --section SourceCounters \
    -k 'regex:evaluate_kernel|finish_generation_kernel' --launch-skip 8 \
    --launch-count 4 "$bench" \
    seed/constrained-quadratic --backends cuda --tiers fused --sizes 10000000 --workloads eval --repeats 2 \
    --min-time 0 -q
  step ncu-de "$ncu" "${sections[@]}" -k 'regex:de_kernel|de_update_kernel|de_archive_kernel' --launch-skip 12 \
    --launch-count 3 "$bench" seed/constrained-quadratic --backends cuda --tiers fused --sizes 1000000 \
    --workloads generation --set ga.algorithm=de --repeats 2 --min-time 0 -q
  step ncu-gene-sum "$ncu" "${sections[@]}" -k 'regex:evaluate_(separable_)?kernel|offspring_long_kernel' --launch-skip 8 \
    --launch-count 4 "$bench" seed/gene-sum --backends cuda --tiers fused --sizes 1000000 --repeats 2 --min-time 0 -q
}

stage_report() {
  # The seed reports with the GPU rows beside the CPU's (16 cores here: 1 and all threads). gene-sum's unfused CPU
  # tier makes a pass per gene (seconds per call at 10^5 and up): fewer repeats there.
  local r="$out/reports"
  mkdir -p "$r"
  local all=(--threads "1,$(nproc)" --min-time 0.05 -q)
  wanted constrained-quadratic && step report-constrained-quadratic "$build/apps/ga-bench" seed/constrained-quadratic --report "$r/constrained-quadratic" \
    --sizes 1000,100000,1000000,10000000 --repeats 5 "${all[@]}"
  wanted trig-constrained && step report-trig-constrained "$build/apps/ga-bench" seed/trig-constrained --report "$r/trig-constrained" \
    --sizes 1000,100000,1000000,10000000 --repeats 5 "${all[@]}"
  wanted gene-sum && step_timeout=150 step report-gene-sum "$build/apps/ga-bench" seed/gene-sum --report "$r/gene-sum" --sizes 1000,100000,900000 \
    --repeats 2 "${all[@]}"
  tar -czf "$out/gpu-reports.tar.gz" -C "$out" reports && rm -rf "$r"
}

stage_sanitize() {
  local tests="$build/tests/test_cuda" sanitizer=compute-sanitizer
  command -v "$sanitizer" >/dev/null || sanitizer=/usr/local/cuda/bin/compute-sanitizer
  # Out-of-bounds and misaligned accesses, shared-memory races and illegal barriers, on the GPU tests
  # (not the one that asks for more memory than the device has).
  local some='gpu: integer genes*,gpu: elitism above 8*,gpu: real genes*,gpu: differential evolution*,gpu: population-batch*'
  FUSEDGA_REQUIRE_GPU_TESTS=1 step memcheck "$sanitizer" --tool memcheck --error-exitcode 1 "$tests" "$some"
  FUSEDGA_REQUIRE_GPU_TESTS=1 step racecheck "$sanitizer" --tool racecheck --error-exitcode 1 "$tests" "$some"
  FUSEDGA_REQUIRE_GPU_TESTS=1 step synccheck "$sanitizer" --tool synccheck --error-exitcode 1 "$tests" "$some"
}

[ $# -gt 0 ] || { awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 2; }
for stage in "$@"; do
  case $stage in
    prepare) prepare ;;
    build-here) build_here ;;
    build | test | compare | runs | tables | bench | profile | sanitize | report | python | all) ;;
    *) echo "gpu-session.sh: unknown stage '$stage' (prepare, build-here, build, test, compare, runs, tables, bench, profile, sanitize, report, python, all)" >&2
       exit 2 ;;
  esac
done
if [ "$*" != prepare ] && [ "$*" != build-here ]; then
  use_device_env
  for stage in "$@"; do
    case $stage in
      build) stage_build ;;
      test) stage_test ;;
      compare) stage_compare ;;
      runs) stage_runs ;;
      tables) stage_tables ;;
      bench) stage_runs; stage_tables ;;
      profile) stage_profile ;;
      sanitize) stage_sanitize ;;
      report) stage_report ;;
      python) stage_python ;;
      all) stage_test; stage_runs; stage_tables; stage_sanitize ;;
    esac
  done
  say "done: $failed failed step(s); log in $log"
fi
exit "$failed"
