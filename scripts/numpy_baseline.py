#!/usr/bin/env python3
"""The seed workloads' fitness written the NumPy way, timed like ga-bench times FusedGA.

FusedGA's users often hand-vectorize fitness code in NumPy. This script times
that code on the CPU for the three seed workloads:

  gene-sum               population.sum(axis=1, dtype=np.int64) over an (N, 1000) int8 population
  constrained-quadratic  f = x^2 + 2y^2 + 3z^2 + 4xy - 5yz; violation np.maximum(3 - (x+y+z), 0)
                         + np.maximum(x^2 + z^2 - 10, 0)
  trig-constrained       f = sin(x) + x^2 - 2cos(y) + y^2 + z^2; violation np.maximum(1 - (x+z), 0)
                         + np.maximum(0.5 - (cos(y) + z), 0)

on an (N, 3) float64 (or float32) population with genes uniform in the seed
bounds, one call per repeat after one warm-up call, median of the repeats
(time.perf_counter). NumPy runs on one core. It writes rows in ga-bench's JSON
row format (tier "numpy", workload "eval") and, given `ga-bench --json` output
of the same workload from the same machine, prints the per-size ratio against
FusedGA's fused evaluation (serial = one core, as NumPy; TBB at its most
threads) and against ga-bench's C++ "unfused" tier, the NumPy-style baseline
of its reports (how faithful that stand-in is).

FusedGA's fused evaluation also writes each individual's rank key; the NumPy
code here computes only the objective and the violation (less work).

Usage:
  build/apps/ga-bench seed/constrained-quadratic --sizes 1000,100000,900000 --workloads eval \\
      --tiers unfused,fused --backends serial,tbb --json cq.json
  python3 scripts/numpy_baseline.py --workload constrained-quadratic --sizes 1000,100000,900000 --fusedga cq.json

Needs NumPy (pip install numpy). Not run in CI.
"""

import argparse
import json
import sys
import time

from bench_rows import print_row, timing_row, write_json_atomic

BOUNDS = {
    "constrained-quadratic": ([1.0, 3.0, -25.0], [25.0, 7.0, 0.0]),
    "trig-constrained": ([0.0, 0.0, -10.0], [10.0, 3.141592653589793, 5.0]),
}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workload", choices=["gene-sum", "constrained-quadratic", "trig-constrained"], required=True)
    p.add_argument("--sizes", default="1000,100000,900000", help="population sizes, comma-separated")
    p.add_argument("--precision", choices=["double", "float"], default="double",
                   help="gene type of the real-valued workloads (gene-sum is int8)")
    p.add_argument("--repeats", type=int, default=10, help="timed calls per size after one warm-up (default 10)")
    p.add_argument("--fusedga", help="ga-bench --json output of the same workload to compare against")
    p.add_argument("--json", help="write the rows to this file (atomically)")
    return p.parse_args()


def make_fitness(np, workload):
    if workload == "gene-sum":
        def fitness(population):
            return population.sum(axis=1, dtype=np.int64)
    elif workload == "constrained-quadratic":
        def fitness(population):
            x, y, z = population[:, 0], population[:, 1], population[:, 2]
            f = x * x + 2 * y * y + 3 * z * z + 4 * x * y - 5 * y * z
            violation = np.maximum(3 - (x + y + z), 0) + np.maximum(x * x + z * z - 10, 0)
            return f, violation
    else:
        def fitness(population):
            x, y, z = population[:, 0], population[:, 1], population[:, 2]
            f = np.sin(x) + x * x - 2 * np.cos(y) + y * y + z * z
            violation = np.maximum(1 - (x + z), 0) + np.maximum(0.5 - (np.cos(y) + z), 0)
            return f, violation
    return fitness


def make_population(np, workload, n, precision):
    rng = np.random.default_rng(42)
    if workload == "gene-sum":
        return rng.integers(1, 25, size=(n, 1000), dtype=np.int8, endpoint=True)
    dtype = np.float64 if precision == "double" else np.float32
    lo, hi = (np.asarray(b, dtype=dtype) for b in BOUNDS[workload])
    return (lo + (hi - lo) * rng.random((n, 3), dtype=dtype)).astype(dtype)


def time_calls(fn, population, repeats):
    fn(population)  # warm-up: page faults of the first temporaries
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(population)
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def fusedga_rows(path):
    with open(path) as f:
        report = json.load(f)
    return [r for r in report["rows"] if r["workload"] == "eval"]


def main():
    args = parse_args()
    try:
        import numpy as np
    except ImportError:
        sys.exit("numpy_baseline.py: NumPy is not installed (pip install numpy)")
    fn = make_fitness(np, args.workload)
    rows = []
    for n in (int(float(s)) for s in args.sizes.split(",")):
        population = make_population(np, args.workload, n, args.precision)
        times = time_calls(fn, population, args.repeats)
        rows.append(timing_row("numpy", "numpy", n, times))
        print_row("numpy", args.workload, rows[-1])

    if args.fusedga:
        fused = fusedga_rows(args.fusedga)
        print("\nFusedGA evaluation vs NumPy (same machine; ratio = NumPy time / FusedGA time):")
        for r in rows:
            n = r["population"]
            parts = []
            for label, tier, backend in (("fused serial", "fused", "serial"), ("fused tbb", "fused", "tbb"),
                                         ("C++ unfused tier", "unfused", None)):
                candidates = [x for x in fused if x["tier"] == tier and x["population"] == n
                              and (backend is None or x["backend"] == backend)]
                g = max(candidates, key=lambda x: x["threads"]) if candidates else None
                if g is not None:
                    threads = f" x{g['threads']}" if backend == "tbb" else ""
                    parts.append(f"{label}{threads} {g['median_ms']:.4f} ms ({r['median_ms'] / g['median_ms']:.2f}x)")
            print(f"  N = {n:>9d}: numpy {r['median_ms']:.4f} ms; " + ("; ".join(parts) if parts else "no FusedGA row"))
    if args.json:
        meta = {"tool": "numpy_baseline.py", "workload": args.workload, "precision": args.precision,
                "numpy": np.__version__, "rows": rows}
        write_json_atomic(args.json, meta)


if __name__ == "__main__":
    main()
