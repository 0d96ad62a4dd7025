"""python -m fusedga.compare: the seed documents' NumPy fitness functions through FusedGA and other GA libraries.

For each seed workload (constrained-quadratic, trig-constrained, gene-sum) it runs, at equal population and
generations and with the same operators (tournament selection, SBX crossover, polynomial mutation):

* FusedGA, the built-in problem (``seed/<workload>``, native C++ fitness);
* FusedGA, the problem as an ``Expression`` (the CPU JIT);
* FusedGA, ``BatchProblem`` with the seed's own NumPy fitness (scripts/numpy_baseline.py), unchanged: it
  returns ``(f, violation)``, and the violation is one inequality ``g = violation <= 0``;
* pymoo's ``GA`` with the same NumPy fitness (one vectorised call per generation, ``out["G"]`` = violation);
* DEAP (``tools.selTournament``, ``cxSimulatedBinaryBounded``, ``mutPolynomialBounded``) with the same NumPy
  fitness called once per generation on the offspring stacked into an array, violation as a penalty.

and prints one markdown table: time per generation (median over generations, wall clock) and the best
result (feasible or not). Every solver runs ``--generations`` generations, so the best results compare too;
``--baseline-generations`` runs pymoo and DEAP for fewer (they take seconds per generation at N = 10^5), and
then only the times per generation compare across rows.
Then the issue's targets: a BatchProblem generation vs the NumPy fitness call alone plus FusedGA's own work
per generation (a BatchProblem whose fn returns a constant), and the Python call overhead per generation at
a tiny population (BatchProblem minus the built-in).

gene-sum: FusedGA's built-in has int8 genes and the BatchProblem int32 genes (``integer=True``), both with the
integer operators; expressions have real (double) genes, so that row runs gene-sum over real genes in [1, 24]
(the same sum; optimum 24000 either way).

Usage: python -m fusedga.compare [--population 100000] [--generations 20] [--baseline-generations G]
       [--workloads constrained-quadratic,trig-constrained,gene-sum] [--gene-sum-population 4000]
       [--threads 0] [--seed 1] [--overhead-population 16] [--targets-population N] [--targets-only]
       [--no-baselines]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import fusedga

BOUNDS = {
    "constrained-quadratic": [(1.0, 25.0), (3.0, 7.0), (-25.0, 0.0)],
    "trig-constrained": [(0.0, 10.0), (0.0, math.pi), (-10.0, 5.0)],
    "gene-sum": [(1.0, 24.0)] * 1000,
}
SENSE = {"constrained-quadratic": "maximize", "trig-constrained": "minimize", "gene-sum": "maximize"}
EXPRESSIONS = {
    "constrained-quadratic": dict(objective="x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z",
                                  constraints=["x + y + z >= 3", "x^2 + z^2 <= 10"]),
    "trig-constrained": dict(objective="sin(x) + x^2 - 2*cos(y) + y^2 + z^2",
                             constraints=["x + z >= 1", "cos(y) + z >= 0.5"]),
    "gene-sum": dict(objective="sum(i=0:999, x[i])"),
}


def seed_fitness(workload: str) -> Callable[[np.ndarray], Any]:
    """The seed documents' NumPy fitness (scripts/numpy_baseline.py, make_fitness), unchanged."""
    if workload == "gene-sum":
        def fitness(population):
            # The seed's sum(axis=1, dtype=np.int64) over integer genes (BatchProblem(integer=True)); the peers'
            # genes are real, summed as they are.
            return population.sum(axis=1, dtype=np.int64 if population.dtype.kind in "iu" else None)
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


def constrained(workload: str) -> bool:
    return workload != "gene-sum"


def operators(workload: str) -> Dict[str, Any]:
    return dict(algorithm="ga", selection={"type": "tournament", "size": 2},
                crossover={"type": "sbx", "rate": 0.9, "eta": 15}, mutation={"type": "polynomial", "eta": 20},
                elitism=2)


def per_generation(result: "fusedga.Result") -> float:
    """Median seconds per generation from the run's history (generation 0, the initial population, excluded)."""
    t = result.history["elapsed_s"]
    return statistics.median(np.diff(t).tolist()) if len(t) > 2 else float("nan")


Row = Tuple[str, str, int, int, float, float, str]  # workload, solver, N, generations, s/gen, best, note


def fusedga_rows(workload: str, n: int, generations: int, seed: int, threads: int) -> List[Row]:
    rows: List[Row] = []
    common = dict(population=n, generations=generations, seed=seed, threads=threads, **operators(workload))
    builtin_options = dict(common)
    note = ""
    if workload == "gene-sum":  # int8 genes: the built-in's integer operators
        builtin_options = dict(population=n, generations=generations, seed=seed, threads=threads, algorithm="ga",
                               elitism=2)
        note = "int8 genes, integer operators"
    r = fusedga.solve(f"seed/{workload}", **builtin_options)
    rows.append((workload, "FusedGA built-in (C++)", n, r.generations, per_generation(r), r.objective, note))
    variables = ({"x": {"size": 1000, "bounds": (1, 24)}} if workload == "gene-sum" else
                 {v: b for v, b in zip("xyz", BOUNDS[workload])})
    e = fusedga.Expression(variables=variables, sense=SENSE[workload], **EXPRESSIONS[workload])
    r = fusedga.solve(e, **common)
    notes = ["real genes"] if workload == "gene-sum" else []
    if any("interpreter" in notice for notice in r.notices):  # engine auto without a usable C++ compiler
        notes.append("the interpreter: no JIT here")
    rows.append((workload, "FusedGA Expression (CPU JIT)", n, r.generations, per_generation(r), r.objective,
                 "; ".join(notes)))
    fitness = seed_fitness(workload)
    integer = workload == "gene-sum"  # int32 genes and the integer operators, as the built-in
    p = fusedga.BatchProblem(fitness, BOUNDS[workload], n_ineq=1 if constrained(workload) else 0,
                             sense=SENSE[workload], name=f"numpy:{workload}", integer=integer)
    r = fusedga.solve(p, **(builtin_options if integer else common))
    rows.append((workload, "FusedGA BatchProblem (NumPy)", n, r.generations, per_generation(r), r.objective,
                 "int32 genes, integer operators" if integer else ""))
    return rows


def pymoo_row(workload: str, n: int, generations: int, seed: int) -> Optional[Row]:
    try:
        from pymoo.algorithms.soo.nonconvex.ga import GA
        from pymoo.core.problem import Problem
        from pymoo.optimize import minimize
        from pymoo.operators.crossover.sbx import SBX
        from pymoo.operators.mutation.pm import PM
    except ImportError as e:
        print(f"pymoo not importable ({e}): its rows are skipped", file=sys.stderr)
        return None
    fitness = seed_fitness(workload)
    sign = -1.0 if SENSE[workload] == "maximize" else 1.0
    b = np.asarray(BOUNDS[workload])

    class Seed(Problem):
        def __init__(self):
            super().__init__(n_var=len(b), n_obj=1, n_ieq_constr=1 if constrained(workload) else 0, xl=b[:, 0],
                             xu=b[:, 1])

        def _evaluate(self, X, out, *args, **kwargs):
            value = fitness(X)
            if constrained(workload):
                out["F"], out["G"] = sign * value[0], value[1]
            else:
                out["F"] = sign * value

    stamps: List[float] = []
    algorithm = GA(pop_size=n, eliminate_duplicates=False, crossover=SBX(prob=0.9, eta=15), mutation=PM(eta=20))
    res = minimize(Seed(), algorithm, ("n_gen", generations + 1), seed=seed, verbose=False,
                   callback=lambda a: stamps.append(time.perf_counter()))
    best = sign * float(np.asarray(res.F).ravel()[0]) if res.F is not None else float("nan")
    if res.F is None:  # no feasible solution: pymoo reports none; its least infeasible
        best = sign * float(res.algorithm.opt.get("F").ravel()[0])
    per_gen = statistics.median(np.diff(stamps).tolist()) if len(stamps) > 2 else float("nan")
    return (workload, "pymoo GA (NumPy)", n, generations, per_gen, best,
            "real genes" if workload == "gene-sum" else "")


def deap_row(workload: str, n: int, generations: int, seed: int) -> Optional[Row]:
    try:
        from deap import base, creator, tools
    except ImportError as e:
        print(f"DEAP not importable ({e}; pip install deap): its rows are skipped", file=sys.stderr)
        return None
    import random

    random.seed(seed)
    fitness = seed_fitness(workload)
    b = BOUNDS[workload]
    lo, hi = [x for x, _ in b], [y for _, y in b]
    weight = 1.0 if SENSE[workload] == "maximize" else -1.0
    name = "FitnessMax" if weight > 0 else "FitnessMin"
    if not hasattr(creator, name):
        creator.create(name, base.Fitness, weights=(weight,))
    if not hasattr(creator, "Individual" + name):
        creator.create("Individual" + name, list, fitness=getattr(creator, name))
    individual = getattr(creator, "Individual" + name)
    rng = np.random.default_rng(seed)
    population = [individual(row) for row in (rng.random((n, len(b))) * (np.array(hi) - lo) + lo).tolist()]
    eta_c, eta_m, indpb = 15.0, 20.0, 1.0 / len(b)
    penalty = 1e6

    def evaluate(individuals: List[Any]) -> None:  # one NumPy call for all, as BatchProblem and pymoo do
        value = fitness(np.array(individuals, dtype=np.float64))
        f, v = (value[0], value[1]) if constrained(workload) else (value, np.zeros(len(individuals)))
        for ind, fi, vi in zip(individuals, f.tolist(), v.tolist()):
            ind.fitness.values = (fi - weight * penalty * vi,)
            ind.violation = vi
            ind.objective = fi

    evaluate(population)
    stamps = [time.perf_counter()]
    for _ in range(generations):
        elite = tools.selBest(population, 2)
        offspring = [individual(ind) for ind in tools.selTournament(population, n - 2, tournsize=2)]
        for a, c in zip(offspring[::2], offspring[1::2]):
            if random.random() < 0.9:
                tools.cxSimulatedBinaryBounded(a, c, eta_c, lo, hi)
        for ind in offspring:
            tools.mutPolynomialBounded(ind, eta_m, lo, hi, indpb)
        evaluate(offspring)
        population = elite + offspring
        stamps.append(time.perf_counter())
    best = tools.selBest(population, 1)[0]
    note = "penalty 1e6 x violation" if constrained(workload) else "real genes"
    if constrained(workload) and best.violation > 0:
        note += f"; infeasible ({best.violation:.2g})"
    return (workload, "DEAP (NumPy, batched)", n, generations, statistics.median(np.diff(stamps).tolist()),
            best.objective, note)


def table(rows: List[Row]) -> str:
    lines = ["| workload | solver | N | generations | time / generation | best |  |",
             "|---|---|---:|---:|---:|---:|---|"]
    for w, s, n, g, t, best, note in rows:
        lines.append(f"| {w} | {s} | {n:,} | {g} | {t * 1e3:.3f} ms | {best:.6f} | {note} |")
    return "\n".join(lines)


def targets(n: int, tiny: int, generations: int, seed: int, threads: int) -> str:
    """The issue's two targets for the constrained-quadratic NumPy fitness."""
    fitness = seed_fitness("constrained-quadratic")
    b = BOUNDS["constrained-quadratic"]
    options = dict(generations=generations, seed=seed, threads=threads, **operators("constrained-quadratic"))
    out = []
    for size in (n, tiny):
        lo, hi = np.array(b).T
        X = lo + (hi - lo) * np.random.default_rng(1).random((size - 2, 3))
        fitness(X)
        calls = []
        for _ in range(max(5, min(200, 2_000_000 // size))):
            t0 = time.perf_counter()
            fitness(X)
            calls.append(time.perf_counter() - t0)
        call = statistics.median(calls)
        zeros = (np.zeros(size), np.zeros(size))
        flat = fusedga.BatchProblem(lambda X: (zeros[0][:len(X)], zeros[1][:len(X)]), b, n_ineq=1,
                                    sense="maximize", name="constant")
        own = per_generation(fusedga.solve(flat, population=size, **options))
        batch = per_generation(fusedga.solve(fusedga.BatchProblem(fitness, b, n_ineq=1, sense="maximize"),
                                             population=size, **options))
        builtin = per_generation(fusedga.solve("seed/constrained-quadratic", population=size, **options))
        line = (f"* N = {size:,}: BatchProblem {batch * 1e6:.1f} µs/generation; NumPy fitness call alone "
                f"{call * 1e6:.1f} µs; FusedGA's own work per generation (BatchProblem, fn returning constants) "
                f"{own * 1e6:.1f} µs; built-in (C++ fitness) {builtin * 1e6:.1f} µs; BatchProblem minus built-in "
                f"{(batch - builtin) * 1e6:.1f} µs; constant fn minus built-in (the Python call alone) "
                f"{(own - builtin) * 1e6:.1f} µs")
        if size == tiny:  # target: the Python call overhead per generation <= 20 µs
            line += f"; target overhead <= 20 µs: {'met' if batch - builtin <= 20e-6 else 'missed'}"
        else:  # target: BatchProblem <= NumPy call + 1.2 x FusedGA's own work
            line += (f"; target call + 1.2 x own = {(call + 1.2 * own) * 1e6:.1f} µs: "
                     f"{'met' if batch <= call + 1.2 * own else 'missed'}")
        out.append(line)
    return "\n".join(out)


def main(argv: Optional[List[str]] = None) -> None:
    p = argparse.ArgumentParser(prog="python -m fusedga.compare", description=__doc__.split("\n\n")[0])
    p.add_argument("--population", type=int, default=100_000)
    p.add_argument("--generations", type=int, default=20, help="every solver's (default 20)")
    p.add_argument("--baseline-generations", type=int,
                   help="pymoo's and DEAP's, when fewer (default: --generations)")
    p.add_argument("--gene-sum-population", type=int, default=4000,
                   help="gene-sum's population (d = 1000; the seed config's 4000)")
    p.add_argument("--workloads", default="constrained-quadratic,trig-constrained,gene-sum")
    p.add_argument("--threads", type=int, default=0, help="FusedGA's TBB threads (0 = all cores)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--overhead-population", type=int, default=16)
    p.add_argument("--targets-population", type=int, help="N of the targets' large run (default --population)")
    p.add_argument("--targets-only", action="store_true", help="only the issue's targets, no table")
    p.add_argument("--no-baselines", action="store_true", help="skip pymoo and DEAP")
    args = p.parse_args(argv)
    rows: List[Row] = []
    for workload in ([] if args.targets_only else args.workloads.split(",")):
        if workload not in BOUNDS:
            p.error(f"--workloads: unknown workload {workload!r} (known: {', '.join(BOUNDS)})")
        n = args.gene_sum_population if workload == "gene-sum" else args.population
        rows += fusedga_rows(workload, n, args.generations, args.seed, args.threads)
        if not args.no_baselines:
            for make in (pymoo_row, deap_row):
                row = make(workload, n, args.baseline_generations or args.generations, args.seed)
                if row is not None:
                    rows.append(row)
        print(table(rows), file=sys.stderr, flush=True)  # progress
    if rows:
        print(table(rows))
        print()
    print(targets(args.targets_population or args.population, args.overhead_population, args.generations,
                  args.seed, args.threads))


if __name__ == "__main__":
    main()
