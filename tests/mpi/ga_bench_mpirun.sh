#!/usr/bin/env bash
# ga-bench --workloads islands under mpirun (apps/ga_bench.cpp, bench/islands_bench.hpp): over 2 ranks rank 0
# alone prints and writes; one population (I = 1) is skipped with a note; a ring of 4 islands sends 2 of its 4
# packets to the other rank (hand-computed bytes); --weak doubles N and I; other workloads are refused on every
# rank (exit 2). Usage: ga_bench_mpirun.sh GA_BENCH MPIEXEC WORK_DIR.
set -u
ga_bench=$1 mpiexec=$2 dir=$3
mkdir -p "$dir" && cd "$dir" || exit 1
rm -f ./*.json
mpi=("$mpiexec" --oversubscribe --allow-run-as-root)
fail() { echo "FAIL: $*"; exit 1; }
field() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

common=(classic/rastrigin --workloads islands --backends serial --repeats 1 --min-time 0 --quiet
        --set ga.islands.count=4 --set ga.islands.migration.size=2)
out=$("${mpi[@]}" -np 2 "$ga_bench" "${common[@]}" --sizes 400 --islands 1,4 --json strong.json 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "mpirun -np 2 ga-bench --workloads islands: exit $rc; output: $out"
[ "$(grep -c "ga-bench islands: classic/rastrigin" <<<"$out")" -eq 1 ] || fail "expected one table (rank 0's); output: $out"
grep -q "note: I = 1 skipped: one population cannot be spread over 2 ranks" <<<"$out" || fail "no I = 1 note; output: $out"
[ "$(field strong.json 'len(j["rows"])')" = 1 ] || fail "expected one row; $(cat strong.json)"
[ "$(field strong.json 'j["rows"][0]["ranks"]')" = 2 ] || fail "ranks; $(cat strong.json)"
# d = 30 doubles + objective + violation, K = 2: 512 bytes a packet; a ring of 4 over 2 ranks: 4 packets, 2 cross.
[ "$(field strong.json 'j["rows"][0]["migrant_bytes"]')" = 2048 ] || fail "migrant bytes; $(cat strong.json)"
[ "$(field strong.json 'j["rows"][0]["cross_rank_bytes"]')" = 1024 ] || fail "cross-rank bytes; $(cat strong.json)"
echo "ok   mpirun -np 2: one table, I = 1 skipped, 2048 migrant bytes of which 1024 cross-rank"

out=$("${mpi[@]}" -np 2 "$ga_bench" "${common[@]}" --sizes 200 --islands 2 --weak --json weak.json 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "--weak: exit $rc; output: $out"
[ "$(field weak.json '(j["rows"][0]["population"], j["rows"][0]["islands"])')" = "(400, 4)" ] ||
  fail "--weak: expected N 400 and I 4; $(cat weak.json)"
echo "ok   mpirun -np 2 --weak: N and I per rank"

out=$("${mpi[@]}" -np 2 "$ga_bench" classic/rastrigin --sizes 1000 2>&1)
rc=$?
[ "$rc" -eq 2 ] || fail "other workloads under mpirun: exit $rc, expected 2; output: $out"
[ "$(grep -c "measures only --workloads islands" <<<"$out")" -eq 2 ] || fail "expected the error from both ranks; $out"
echo "ok   mpirun -np 2 ga-bench without --workloads islands: a config error on both ranks, exit 2"
