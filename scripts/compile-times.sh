#!/usr/bin/env bash
# Where a cold build's compile time goes: configures DIR (default build-times/) without ccache, with a launcher
# that times every compile, builds every target, and prints the build's wall time, the slowest files and the
# seconds per target. CI's budget is 90 minutes on 2 cores (.ci/run), most of it compiling.
# Usage: bash scripts/compile-times.sh [DIR] [extra cmake arguments...]   (takes ~30 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(realpath -m "${1:-build-times}")"
shift || true
rm -rf "$dir" && mkdir -p "$dir"
log="$dir/compile-times.log"
launcher="$dir/time-compile.sh"
cat >"$launcher" <<EOF
#!/usr/bin/env bash
# seconds and output file of one compile, appended to $log
start=\$(date +%s.%N); "\$@"; rc=\$?; out=""; prev=""
for a in "\$@"; do [ "\$prev" = "-o" ] && out=\$a; prev=\$a; done
awk -v a="\$start" -v b="\$(date +%s.%N)" -v o="\$out" 'BEGIN {printf "%.2f %s\\n", b - a, o}' >>"$log"; exit \$rc
EOF
chmod +x "$launcher"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" \
  -DCMAKE_CUDA_COMPILER_LAUNCHER="$launcher" "$@" >/dev/null
start=$SECONDS
cmake --build "$dir" -j "${FUSEDGA_JOBS:-$(nproc)}" >"$dir/build.log"
echo "cold build: $((SECONDS - start)) s wall, $(awk '{s += $1} END {printf "%.0f", s}' "$log") s of compiles"
echo "slowest files (s):"
sort -rn "$log" | head -15
echo "per target (s):"
awk '{split($2, p, "/"); s[p[2]] += $1} END {for (t in s) printf "%8.0f %s\n", s[t], t}' "$log" | sort -rn
