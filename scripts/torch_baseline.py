#!/usr/bin/env python3
"""The seed documents' PyTorch evaluation code, timed like ga-bench times FusedGA.

Issue 3 asks for FusedGA's CUDA evaluation to beat `torch.compile`d PyTorch at
every population size from 10^3 to 10^7, side by side in one run. This script
times the two seed workloads in PyTorch on one device:

  gene-sum               torch.sum(population, dim=1) over an (N, 1000) int8 population
  constrained-quadratic  f = x^2 + 2y^2 + 3z^2 + 4xy - 5yz with the violation of
                         x + y + z >= 3 and x^2 + z^2 <= 10 formed with torch.where

each in the modes asked for (--modes): eager PyTorch (tier "torch-eager"),
`torch.compile(fn)` (tier "torch.compile") and
`torch.compile(fn, mode="max-autotune")` (tier "torch.compile-max-autotune"),
after warm-up (compilation excluded, its time printed), median of repeats
with CUDA events after synchronization. It writes rows in ga-bench's JSON row
format (workload "eval") and, given FusedGA's `ga-bench --json` output from
the same machine, prints the per-size ratio against FusedGA's `fused` CUDA
evaluation rows for every mode.

Usage (on the GPU machine, after `ga-bench ... --backends cuda --json fusedga.json`):
  python3 scripts/torch_baseline.py --workload constrained-quadratic --fusedga fusedga.json --json torch.json

Needs PyTorch (and a CUDA device for --device cuda). Not run in CI.
"""

import argparse
import json
import sys
import time

from bench_rows import print_row, timing_row, write_json_atomic


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workload", choices=["gene-sum", "constrained-quadratic"], required=True)
    p.add_argument("--sizes", default="1000,10000,100000,1000000,10000000",
                   help="population sizes, comma-separated (default 10^3..10^7)")
    p.add_argument("--precision", choices=["double", "float"], default="double",
                   help="constrained-quadratic gene type (gene-sum is int8)")
    p.add_argument("--device", default="cuda", help="torch device (default cuda)")
    p.add_argument("--modes", default="eager,compile,max-autotune",
                   help="comma-separated: eager, compile, max-autotune (default all three)")
    p.add_argument("--repeats", type=int, default=20, help="timed calls per size after warm-up (default 20)")
    p.add_argument("--fusedga", help="ga-bench --json output to compare against (its cuda 'fused' eval rows)")
    p.add_argument("--json", help="write the rows to this file")
    return p.parse_args()


MODE_TIERS = {"eager": "torch-eager", "compile": "torch.compile", "max-autotune": "torch.compile-max-autotune"}


def make_fitness(torch, workload, mode):
    if workload == "gene-sum":
        def fitness(population):
            return torch.sum(population, dim=1)
    else:
        def fitness(population):
            x, y, z = population[:, 0], population[:, 1], population[:, 2]
            f = x * x + 2 * y * y + 3 * z * z + 4 * x * y - 5 * y * z
            g1 = 3 - (x + y + z)
            g2 = x * x + z * z - 10
            violation = torch.where(g1 > 0, g1, torch.zeros_like(g1)) + torch.where(g2 > 0, g2, torch.zeros_like(g2))
            return f, violation
    if mode == "eager":
        return fitness
    return torch.compile(fitness) if mode == "compile" else torch.compile(fitness, mode="max-autotune")


def make_population(torch, workload, n, precision, device):
    gen = torch.Generator(device=device).manual_seed(42)
    if workload == "gene-sum":
        return torch.randint(1, 25, (n, 1000), dtype=torch.int8, device=device, generator=gen)
    dtype = torch.float64 if precision == "double" else torch.float32
    lo = torch.tensor([1.0, 3.0, -25.0], dtype=dtype, device=device)
    hi = torch.tensor([25.0, 7.0, 0.0], dtype=dtype, device=device)
    return lo + (hi - lo) * torch.rand((n, 3), dtype=dtype, device=device, generator=gen)


def time_calls(torch, fn, population, repeats, device):
    """Per-call milliseconds: CUDA events around each call on a GPU, perf_counter otherwise."""
    cuda = str(device).startswith("cuda")
    t0 = time.perf_counter()
    for _ in range(3):  # warm-up: compilation and autotuning happen here
        fn(population)
    if cuda:
        torch.cuda.synchronize()
    warmup_s = time.perf_counter() - t0
    times = []
    for _ in range(repeats):
        if cuda:
            torch.cuda.synchronize()
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn(population)
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        else:
            t0 = time.perf_counter()
            fn(population)
            times.append((time.perf_counter() - t0) * 1e3)
    return times, warmup_s


def main():
    args = parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("torch_baseline.py: PyTorch is not installed (pip install torch)")
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    for m in modes:
        if m not in MODE_TIERS:
            sys.exit(f"torch_baseline.py: --modes: unknown mode '{m}' (expected eager, compile, max-autotune)")
    rows, notes = [], []
    for mode in modes:
        tier = MODE_TIERS[mode]
        fn = make_fitness(torch, args.workload, mode)
        for n in (int(float(s)) for s in args.sizes.split(",")):
            try:
                population = make_population(torch, args.workload, n, args.precision, args.device)
                times, warmup_s = time_calls(torch, fn, population, args.repeats, args.device)
            except torch.cuda.OutOfMemoryError:
                notes.append(f"{tier}: N = {n}: does not fit in device memory, skipped")
                continue
            finally:
                population = None
                if str(args.device).startswith("cuda"):
                    torch.cuda.empty_cache()
            rows.append(timing_row(tier, str(args.device), n, times))
            rows[-1]["warmup_s"] = warmup_s
            print_row(f"{tier} (warm-up {warmup_s:.2f} s)", args.workload, rows[-1])

    if args.fusedga:
        with open(args.fusedga) as f:
            report = json.load(f)
        if args.workload != "gene-sum" and report.get("precision", args.precision) != args.precision:
            print(f"warning: {args.fusedga} was measured in {report['precision']}, torch in {args.precision}")
        fused = [r for r in report["rows"] if r["backend"] == "cuda" and r["tier"] == "fused" and r["workload"] == "eval"]
        by_size = {r["population"]: r for r in fused}
        print("\nFusedGA fused CUDA evaluation vs PyTorch (same machine; ratio = torch time / FusedGA time):")
        for r in rows:
            g = by_size.get(r["population"])
            if g is None:
                print(f"  {r['tier']:28s} N = {r['population']:>9d}: no FusedGA row at this size")
            else:
                ratio = r["median_ms"] / g["median_ms"]
                verdict = f"{ratio:.2f}x faster" if ratio >= 1 else f"{1 / ratio:.2f}x SLOWER"
                print(f"  {r['tier']:28s} N = {r['population']:>9d}: FusedGA {g['median_ms']:.4f} ms, "
                      f"torch {r['median_ms']:.4f} ms, FusedGA {verdict}")
    for note in notes:
        print("note:", note)
    if args.json:
        meta = {"tool": "torch_baseline.py", "workload": args.workload, "precision": args.precision,
                "torch": torch.__version__, "device": str(args.device),
                "gpu": torch.cuda.get_device_name() if str(args.device).startswith("cuda") else "",
                "rows": rows, "notes": notes}
        write_json_atomic(args.json, meta)


if __name__ == "__main__":
    main()
