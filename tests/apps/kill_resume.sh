#!/usr/bin/env bash
# SIGKILL at random points, many times (issue 16): every output is absent, the old one, or complete; no
# temporary is left behind once a write of its path succeeds; and the run resumed (killed and resumed
# again, as often as it happens) ends bitwise as the uninterrupted one, wall-clock fields aside.
# Usage: kill_resume.sh GA_RUN CONFIG [ROUNDS]
set -euo pipefail
ga_run=$1 config=$2 rounds=${3:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
args=(--set ga.population=20000 --set ga.generations=120 --set backend=tbb --set threads=2 -q)

# The result JSON without wall_time_s, the history CSV without elapsed_s: what must be bitwise equal.
strip() {
  python3 - "$1" "$2" <<'PY'
import csv, json, sys
j = json.load(open(sys.argv[1])); j.pop("wall_time_s")
rows = list(csv.reader(open(sys.argv[2])))
col = rows[0].index("elapsed_s")
print(json.dumps(j, sort_keys=True))
for r in rows: print(",".join(v for i, v in enumerate(r) if i != col))
PY
}
complete_json() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }

start=$(date +%s.%N)
"$ga_run" "$config" "${args[@]}" --out ref.json --history ref.csv
took=$(python3 -c "import time; print(max(0.2, time.time() - $start))")
strip ref.json ref.csv > ref.txt
# an old result of another run: after a kill the output is either this one or a complete new one
"$ga_run" "$config" "${args[@]}" --set ga.seed=99 --set ga.generations=3 --out old.json --history old.csv

killed_mid_run=0 resumed=0
for round in $(seq 1 "$rounds"); do
  rm -f ck r.json r.csv
  cp old.json r.json && cp old.csv r.csv
  "$ga_run" "$config" "${args[@]}" --checkpoint ck --checkpoint-every 7 --out r.json --history r.csv &
  pid=$!
  sleep "$(python3 -c "import random; print(random.uniform(0.05, 1.1) * $took)")"
  kill -9 "$pid" 2>/dev/null && killed_mid_run=$((killed_mid_run + 1)) || true
  wait "$pid" 2>/dev/null || true
  for f in r.json r.csv; do
    old=${f/r./old.}
    if [ -e "$f" ] && ! cmp -s "$f" "$old"; then
      [ "$f" = r.json ] && { complete_json r.json || { echo "round $round: r.json is neither old nor complete"; exit 1; }; }
      [ "$f" = r.csv ] && { [ "$(wc -l < r.csv)" -eq "$(wc -l < ref.csv)" ] || { echo "round $round: r.csv is neither old nor complete"; exit 1; }; }
    fi
  done
  [ -e ck ] || continue  # killed before the first checkpoint
  # resume, killing the resumed run too at random points, until one ends
  for attempt in $(seq 1 20); do
    "$ga_run" --resume ck -q &
    pid=$!
    if [ "$attempt" -lt 20 ] && [ $((RANDOM % 2)) -eq 0 ]; then
      sleep "$(python3 -c "import random; print(random.uniform(0.0, 0.8) * $took)")"
      kill -9 "$pid" 2>/dev/null || true
    fi
    if wait "$pid"; then break; fi
  done
  strip r.json r.csv > got.txt
  cmp -s ref.txt got.txt || { echo "round $round: the resumed run differs from the uninterrupted one"; diff ref.txt got.txt | head; exit 1; }
  if ls ./*.tmp.* >/dev/null 2>&1; then echo "round $round: temporaries left: $(ls ./*.tmp.*)"; exit 1; fi
  resumed=$((resumed + 1))
done
echo "rounds $rounds, killed mid-run $killed_mid_run, resumed to the same result $resumed"
[ "$resumed" -gt 0 ] || { echo "no round reached a checkpoint: the runs are too short for this machine"; exit 1; }
