"""fusedga.BatchProblem: a NumPy (or PyTorch) fitness over the whole population, handed the engine's genes
without a copy; known optima, the zero-copy contract, parity with the built-in, errors and Ctrl-C."""

import json
import os
import signal
import warnings

import numpy as np
import pytest

import fusedga

CQ_OPTIMUM = 263.17395  # seed/constrained-quadratic (configs/expr-seed-constrained-quadratic.yaml)
CQ_BOUNDS = [(1, 25), (3, 7), (-25, 0)]


def disk(X):
    """min x^2 + y^2 s.t. x + y >= 1: optimum 0.5 at (0.5, 0.5)."""
    x, y = X[:, 0], X[:, 1]
    return x * x + y * y, 1 - (x + y)


def constrained_quadratic(X):
    """The seed's NumPy fitness (scripts/numpy_baseline.py) with raw constraint values g <= 0."""
    x, y, z = X[:, 0], X[:, 1], X[:, 2]
    f = x * x + 2 * y * y + 3 * z * z + 4 * x * y - 5 * y * z
    return f, np.stack([3 - (x + y + z), x * x + z * z - 10], axis=1)


def test_a_small_constrained_problem_reaches_its_optimum():
    p = fusedga.BatchProblem(disk, [(-2, 2), (-2, 2)], n_ineq=1, names=["x", "y"])
    r = fusedga.solve(p, population=200, generations=300, seed=3)
    assert r.feasible and r.objective == pytest.approx(0.5, abs=1e-6)
    assert r["x"] == pytest.approx(0.5, abs=1e-3) and r["y"] == pytest.approx(0.5, abs=1e-3)
    assert r.variables == ("x", "y") and r.problem == "python:disk" and r.backend == "tbb"


def test_the_seed_constrained_quadratic_in_numpy_reaches_the_known_optimum():
    p = fusedga.BatchProblem(constrained_quadratic, CQ_BOUNDS, n_ineq=2, sense="maximize")
    r = fusedga.solve(p, population=10000, generations=300, seed=42)  # the seed config's; algorithm auto
    assert r.feasible and r.objective == pytest.approx(CQ_OPTIMUM, rel=1e-6)


def test_a_numpy_fitness_matches_the_builtin_problem():
    # The engine side is the same; only the arithmetic differs (NumPy's expression order vs the built-in's
    # C++), so equal bits are not expected: the objective agrees to 1e-9 relative.
    options = dict(population=2000, generations=200, seed=7, algorithm="ga", crossover="sbx",
                   mutation="polynomial")
    batch = fusedga.solve(fusedga.BatchProblem(constrained_quadratic, CQ_BOUNDS, n_ineq=2, sense="maximize"),
                          **options)
    builtin = fusedga.solve("seed/constrained-quadratic", **options)
    assert batch.feasible and builtin.feasible
    assert batch.objective == pytest.approx(builtin.objective, rel=1e-9)
    assert batch.evaluations == builtin.evaluations


def test_the_population_is_handed_over_read_only_without_a_copy():
    seen = []

    def fn(X):
        seen.append((X.ctypes.data, X.shape, X.dtype, X.flags.writeable, X.flags.owndata, X.flags.c_contiguous))
        with pytest.raises(ValueError):
            X[0, 0] = 1.0
        return X.sum(axis=1)

    r = fusedga.solve(fusedga.BatchProblem(fn, [(0, 1)] * 4), population=64, generations=20, seed=1,
                      algorithm="ga", elitism=2)
    assert len(seen) == 21 and r.generations == 20
    assert seen[0][1] == (64, 4) and all(s[1] == (62, 4) for s in seen[1:])  # GA offspring: N - elitism
    assert all(s[2] == np.float64 and not s[3] and not s[4] and s[5] for s in seen)
    # the engine's own rows, double-buffered (parents and offspring swap): the offspring are rows 2.. (after the
    # 2 elites) of one of exactly two buffers, alternately; the initial population is the whole of one of them
    offspring = [s[0] for s in seen[1:]]
    assert len(set(offspring)) == 2 and all(a != b for a, b in zip(offspring, offspring[1:]))
    assert seen[0][0] + 2 * 4 * 8 in set(offspring)


def test_integer_genes_are_int32_rows_without_a_copy_and_reach_the_optimum():
    # max sum(x) - 3 (x0 - 2)^2 s.t. x1 + x2 <= 9 on the integers of [-4, 7]^5: 25 at x0 = 2, x1 + x2 = 9, x3 = x4 = 7
    seen = []

    def fn(X):
        seen.append((X.dtype, X.flags.writeable, X.flags.owndata, int(X.min()), int(X.max())))
        return X.sum(axis=1) - 3.0 * (X[:, 0] - 2) ** 2, X[:, 1] + X[:, 2] - 9.0

    p = fusedga.BatchProblem(fn, [(-4, 7)] * 5, n_ineq=1, sense="maximize", integer=True)
    assert "integer=True" in repr(p)
    r = fusedga.solve(p, population=60, generations=150, seed=3)
    assert all(s[0] == np.int32 and not s[1] and not s[2] and -4 <= s[3] and s[4] <= 7 for s in seen)
    assert r.feasible and r.objective == 25
    assert r.x.dtype == np.int64 and r.x[0] == 2 and r.x[1] + r.x[2] == 9


def test_integer_genes_errors():
    with pytest.raises(fusedga.ConfigError, match=r"upper\[0\]: expected an integer in \[-2147483648, 2147483647\] "
                                                  r"\(integer genes\), got 2.5"):
        fusedga.BatchProblem(lambda X: X.sum(axis=1), [(0, 2.5)], integer=True)
    with pytest.raises(TypeError, match=r"BatchProblem\(integer=\.\.\.\): expected True, False or a sequence of d "
                                        r"booleans, got str"):
        fusedga.BatchProblem(lambda X: X.sum(axis=1), [(0, 2)], integer="yes")
    with pytest.raises(fusedga.ConfigError, match="ga.algorithm"):
        fusedga.solve(fusedga.BatchProblem(lambda X: X.sum(axis=1), [(0, 2)] * 3, integer=True), algorithm="de",
                      generations=2)


def test_integer_variables_among_real_genes_stay_integral_and_reach_the_mixed_optimum():
    # min (x0 - 2.4)^2 + (x1 - 0.3)^2 + (x2 + 1.6)^2 s.t. x0 + x1 <= 2.2 on [-5, 5]^3, x0 and x2 integers: by hand
    # x2 = -2, x0 = 2 and x1 = 0.2 (the constraint active): 0.16 + 0.01 + 0.16 = 0.33
    seen = []

    def fn(X):
        seen.append((X.dtype, bool(np.all(X[:, [0, 2]] == np.floor(X[:, [0, 2]]))),
                     bool(np.any(X[:, 1] != np.floor(X[:, 1])))))
        f = (X[:, 0] - 2.4) ** 2 + (X[:, 1] - 0.3) ** 2 + (X[:, 2] + 1.6) ** 2
        return f, X[:, 0] + X[:, 1] - 2.2

    p = fusedga.BatchProblem(fn, [(-5, 5)] * 3, n_ineq=1, integer=[True, False, True])
    assert p.integer == (True, False, True) and "integer=(True, False, True)" in repr(p)
    r = fusedga.solve(p, population=60, generations=300, seed=4)
    assert all(s[0] == np.float64 and s[1] for s in seen) and any(s[2] for s in seen)
    assert r.feasible and r.objective == pytest.approx(0.33, abs=1e-6)
    assert r.x.dtype == np.float64 and r.x[0] == 2 and r.x[2] == -2 and r.x[1] == pytest.approx(0.2, abs=1e-6)
    # all False is real genes
    assert fusedga.BatchProblem(fn, [(-5, 5)] * 3, integer=[False] * 3).integer is False


def test_integer_variables_errors():
    with pytest.raises(fusedga.ConfigError, match=r"expected True, False or a sequence of d = 3 booleans \(one per "
                                                  r"gene\), got \[True, False\]"):
        fusedga.BatchProblem(lambda X: X.sum(axis=1), [(0, 2)] * 3, integer=[True, False])
    with pytest.raises(fusedga.ConfigError, match=r"gene 1: an integer variable needs integer bounds"):
        fusedga.BatchProblem(lambda X: X.sum(axis=1), [(0, 2), (0, 2.5)], integer=[False, True])
    with pytest.raises(TypeError, match=r"got int"):
        fusedga.BatchProblem(lambda X: X.sum(axis=1), [(0, 2)], integer=1)


def test_the_array_handed_to_fn_is_a_view_not_a_copy():
    bases = []

    def fn(X):
        bases.append(X.base is not None)
        return np.zeros(len(X))

    fusedga.solve(fusedga.BatchProblem(fn, [(0, 1)]), population=8, generations=2, seed=1)
    assert all(bases)


def test_returns_may_be_lists_other_dtypes_and_single_columns():
    def fn(X):
        x, y = X[:, 0], X[:, 1]
        return [float(v) for v in x * x + y * y], (1 - (x + y)).astype(np.float32)  # list; G of shape (n,)

    r = fusedga.solve(fusedga.BatchProblem(fn, [(-2, 2), (-2, 2)], n_ineq=1), population=100, generations=100,
                      seed=2)
    assert r.feasible and r.objective == pytest.approx(0.5, abs=1e-3)


def test_equality_constraints_and_a_none_g():
    def fn(X):  # min x^2 + y^2 s.t. x + y == 1
        x, y = X[:, 0], X[:, 1]
        return x * x + y * y, None, (x + y - 1)[:, None]

    r = fusedga.solve(fusedga.BatchProblem(fn, [(-2, 2), (-2, 2)], n_eq=1), population=200, generations=200,
                      seed=2)
    assert r.feasible and r.objective == pytest.approx(0.5, abs=1e-3)


@pytest.mark.parametrize("bounds, match", [
    ([(1, 0)], "lower <= upper"),
    ([(0, float("inf"))], "finite"),
    ([1, 2, 3], r"got shape \(3,\)"),
    ([], "d >= 1"),
    ([("a", "b")], "pairs"),
])
def test_bad_bounds_are_config_errors(bounds, match):
    with pytest.raises(fusedga.ConfigError, match=match):
        fusedga.BatchProblem(disk, bounds)


def test_bad_arguments():
    with pytest.raises(TypeError, match="callable"):
        fusedga.BatchProblem(42, [(0, 1)])
    with pytest.raises(fusedga.ConfigError, match="inequality_count"):
        fusedga.BatchProblem(disk, [(0, 1)], n_ineq=-1)
    with pytest.raises(TypeError, match="n_eq"):
        fusedga.BatchProblem(disk, [(0, 1)], n_eq=1.5)
    with pytest.raises(fusedga.ConfigError, match="sense"):
        fusedga.BatchProblem(disk, [(0, 1)], sense="max")
    with pytest.raises(fusedga.ConfigError, match="variable_names"):
        fusedga.BatchProblem(disk, [(0, 1)], names=["a", "b"])
    with pytest.raises(fusedga.ConfigError, match=r"variable_names\[1\]: 'a' names gene 0 already"):
        fusedga.BatchProblem(disk, [(0, 1), (0, 1)], names=["a", "a"])
    with pytest.raises(fusedga.ConfigError, match="array"):
        fusedga.BatchProblem(disk, [(0, 1)], array="jax")


@pytest.mark.parametrize("returned, error, match", [
    (lambda X: X.sum(), ValueError, r"returned f of shape \(\) for n = 10 individuals; expected a tuple \(f, G\)"),
    (lambda X: X[:, 0], TypeError, r"returned no G"),
    (lambda X: (X[:, 0], X), ValueError, r"returned G of shape \(10, 2\).*expected a tuple \(f, G\) with f of "
                                         r"shape \(n,\) and G of shape \(n, 1\)"),
    (lambda X: (X[:, 0].astype(str), X[:, 1]), TypeError, r"returned f of dtype <U"),
    (lambda X: (X[:, 0], X[:, 1], X[:, 1]), ValueError, r"returned H with values but the problem has n_eq=0"),
    (lambda X: None, TypeError, r"returned None"),
])
def test_a_wrong_return_names_fn_what_it_returned_and_what_was_expected(returned, error, match):
    p = fusedga.BatchProblem(returned, [(0, 1), (0, 1)], n_ineq=1)
    with pytest.raises(error, match=r"BatchProblem\(fn=.*lambda.*\): " + match):
        fusedga.solve(p, population=10, generations=2, seed=1)


def test_a_run_where_no_individual_is_finite_warns_and_says_so_in_its_notices(tmp_path):
    p = fusedga.BatchProblem(lambda X: np.full(len(X), np.nan), [(0, 1)])
    with pytest.warns(RuntimeWarning, match="no individual had a finite objective and violation"):
        r = fusedga.solve(p, population=10, generations=3, seed=1)
    # A config's outputs are written before the warning, which raises under -W error.
    config, out = tmp_path / "nan.yaml", tmp_path / "r.json"
    config.write_text('problem: {variables: {x: [0, 1]}, objective: "log(x - 2)"}\n'
                      f"ga: {{population: 10, generations: 3}}\noutput: {{result: {json.dumps(str(out))}}}\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning):
            fusedga.solve(config)
    assert json.loads(out.read_text())["generations"] == 3
    assert not r.feasible and r.not_a_number == 40
    assert r.notices[-1].startswith("no individual had a finite objective and violation (best objective nan, ")
    assert r.notices[-1].endswith("; 40 individuals NaN or infinitely good in generations 0 to 3)")


def test_an_exception_in_fn_propagates_unchanged():
    class Boom(Exception):
        pass

    def fn(X):
        if len(X) < 50:  # an offspring generation, not the initial population
            raise Boom("from fn")
        return X[:, 0]

    with pytest.raises(Boom, match="from fn"):
        fusedga.solve(fusedga.BatchProblem(fn, [(0, 1)]), population=50, generations=5, seed=1, algorithm="ga")


def test_options_that_cannot_run_a_batch_problem_are_config_errors():
    p = fusedga.BatchProblem(disk, [(-2, 2), (-2, 2)], n_ineq=1)
    with pytest.raises(fusedga.ConfigError, match="gradient"):
        fusedga.solve(p, constraint_handling={"type": "feasibility-rules", "gradient_repair": {"rate": 0.5}})
    with pytest.raises(fusedga.ConfigError, match="cuda needs a fitness function of device memory"):
        fusedga.solve(p, backend="cuda")  # array="numpy": fn takes NumPy arrays of host memory
    with pytest.raises(fusedga.ConfigError, match="double precision"):
        fusedga.solve(p, precision="float")
    with pytest.raises(fusedga.ConfigError, match="population"):
        fusedga.solve(p, population=1)


def test_serial_and_tbb_give_the_same_run():
    p = fusedga.BatchProblem(constrained_quadratic, CQ_BOUNDS, n_ineq=2, sense="maximize")
    a = fusedga.solve(p, population=500, generations=50, seed=5, backend="serial")
    b = fusedga.solve(p, population=500, generations=50, seed=5, backend="tbb", threads=2)
    assert a.x.tolist() == b.x.tolist() and a.objective == b.objective and b.threads == 2


def test_ctrl_c_inside_fn_stops_at_the_end_of_that_generation():
    k = 4
    calls = []

    def fn(X):
        calls.append(len(X))
        if len(calls) == k + 1:  # generation k's evaluation (call 0 is the initial population)
            os.kill(os.getpid(), signal.SIGINT)  # KeyboardInterrupt is raised here, inside fn
            raise AssertionError("not reached")
        return disk(X)

    r = fusedga.solve(fusedga.BatchProblem(fn, [(-2, 2), (-2, 2)], n_ineq=1), population=100, generations=50,
                      seed=1, algorithm="ga")
    assert r.stop_reason == "interrupted" and r.generations == k and len(calls) == k + 1
    assert np.isfinite(r.objective)  # the best found before
    assert any("interrupted (Ctrl-C) inside fn" in n for n in r.notices)


def test_the_callback_and_progress_work_as_for_other_problems():
    seen = []
    r = fusedga.solve(fusedga.BatchProblem(disk, [(-2, 2), (-2, 2)], n_ineq=1), population=50, generations=5,
                      seed=1, callback=lambda s: seen.append(s.generation) or s.generation < 3)
    assert seen == [0, 1, 2, 3] and r.stop_reason == "interrupted"


def test_torch_tensors_in_and_out():
    torch = pytest.importorskip("torch")
    seen = []

    def fn(X):
        seen.append((type(X), X.dtype, X.data_ptr()))
        x, y = X[:, 0], X[:, 1]
        return x * x + y * y, (1 - (x + y)).unsqueeze(1)

    p = fusedga.BatchProblem(fn, [(-2, 2), (-2, 2)], n_ineq=1, array="torch")
    r = fusedga.solve(p, population=200, generations=200, seed=3)
    assert r.feasible and r.objective == pytest.approx(0.5, abs=1e-4)
    assert all(t is torch.Tensor and d == torch.float64 for t, d, _ in seen)
    assert len({a for _, _, a in seen}) == 2  # the engine's two buffers, no copy


def test_numpy_fitness_may_return_torch_tensors():
    torch = pytest.importorskip("torch")

    def fn(X):
        t = torch.from_numpy(X.copy())
        return (t ** 2).sum(dim=1)

    r = fusedga.solve(fusedga.BatchProblem(fn, [(-1, 1)] * 3), population=100, generations=100, seed=1)
    assert r.objective == pytest.approx(0.0, abs=1e-4)


def test_array_torch_hands_fn_torch_from_numpy_of_the_view(monkeypatch):
    # Without PyTorch installed: a stand-in module checks the plumbing (fn gets from_numpy(X), X the
    # read-only view); test_torch_tensors_in_and_out checks the real thing where PyTorch is installed.
    import sys
    import types

    if "torch" in sys.modules or _has_torch():
        pytest.skip("PyTorch installed: test_torch_tensors_in_and_out covers it")
    converted = []
    fake = types.ModuleType("torch")
    fake.from_numpy = lambda X: converted.append(X) or ("tensor", X)
    monkeypatch.setitem(sys.modules, "torch", fake)
    r = fusedga.solve(fusedga.BatchProblem(lambda t: disk(t[1]), [(-2, 2), (-2, 2)], n_ineq=1, array="torch"),
                      population=50, generations=3, seed=1, algorithm="ga")
    assert len(converted) == 4 and all(not X.flags.writeable and X.shape[1] == 2 for X in converted)
    assert r.generations == 3


def _stand_in_torch(monkeypatch):
    """Without PyTorch installed: a stand-in module, so that array="torch" can be configured."""
    import sys
    import types

    if "torch" in sys.modules or _has_torch():
        return
    fake = types.ModuleType("torch")
    fake.from_numpy = lambda X: X
    monkeypatch.setitem(sys.modules, "torch", fake)


def test_cuda_needs_a_gpu(monkeypatch):
    _stand_in_torch(monkeypatch)
    if "cuda" in fusedga.backends() and not fusedga._core.cuda_unavailable_reason():
        pytest.skip("a GPU is usable here: test_cuda_hands_fn_a_cuda_tensor_of_the_device_rows runs on it")
    p = fusedga.BatchProblem(disk, [(-2, 2), (-2, 2)], n_ineq=1, array="torch")
    ints = fusedga.BatchProblem(lambda X: X.sum(axis=1), [(0, 9)] * 3, integer=True, array="torch")
    for problem in (p, ints):  # real and integer genes alike: fn is never called
        with pytest.raises(fusedga.BackendUnavailable, match="cuda"):
            fusedga.solve(problem, backend="cuda", population=10, generations=1)


@pytest.mark.parametrize("algorithm", ["ga", "de"])
def test_cuda_hands_fn_a_cuda_tensor_of_the_device_rows(algorithm):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available() or fusedga._core.cuda_unavailable_reason():
        pytest.skip("no usable GPU (PyTorch with CUDA and FusedGA's CUDA backend)")
    seen = []

    def fn(X):
        seen.append((X.device.type, X.dtype, X.data_ptr(), X.shape[0]))
        x, y = X[:, 0], X[:, 1]
        return x * x + y * y, (1 - (x + y)).unsqueeze(1)

    p = fusedga.BatchProblem(fn, [(-2, 2), (-2, 2)], n_ineq=1, array="torch")
    r = fusedga.solve(p, population=200, generations=300, seed=3, backend="cuda", algorithm=algorithm)
    assert r.backend == "cuda" and r.feasible and r.objective == pytest.approx(0.5, abs=1e-4)
    assert all(t == "cuda" and d == torch.float64 for t, d, _, _ in seen)
    assert len({a for _, _, a, _ in seen}) <= 3  # the device populations' rows (children from slot E), no copy
    sizes = {n for *_, n in seen[1:]}  # the GA's children (N - elitism), DE's N trials
    assert seen[0][3] == 200 and len(sizes) == 1 and (max(sizes) < 200 if algorithm == "ga" else sizes == {200})
    # NumPy results are copied to the device as well
    q = fusedga.BatchProblem(lambda X: disk(X.cpu().numpy()), [(-2, 2), (-2, 2)], n_ineq=1, array="torch")
    s = fusedga.solve(q, population=200, generations=300, seed=3, backend="cuda", algorithm=algorithm)
    assert s.objective == pytest.approx(0.5, abs=1e-4)


def test_cuda_hands_fn_an_int32_cuda_tensor_for_integer_genes():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available() or fusedga._core.cuda_unavailable_reason():
        pytest.skip("no usable GPU (PyTorch with CUDA and FusedGA's CUDA backend)")
    seen = []

    def fn(X):  # max sum_j x_j - 3 (x_0 - 2)^2 s.t. x_1 + x_2 <= 9 on the integers of [-4, 7]^5: 25, by hand
        seen.append((X.device.type, X.dtype))
        f = X.sum(dim=1).double() - 3.0 * (X[:, 0] - 2).double() ** 2
        return f, (X[:, 1] + X[:, 2] - 9).double()

    p = fusedga.BatchProblem(fn, [(-4, 7)] * 5, n_ineq=1, sense="maximize", integer=True, array="torch")
    r = fusedga.solve(p, population=200, generations=200, seed=3, backend="cuda")
    assert r.backend == "cuda" and r.feasible and r.objective == 25 and r.x.dtype == np.int64
    assert set(seen) == {("cuda", torch.int32)}
    cpu = fusedga.solve(p, population=200, generations=200, seed=3, backend="serial")
    assert (r.objective, r.x.tolist(), r.evaluations) == (cpu.objective, cpu.x.tolist(), cpu.evaluations)


def _has_torch():
    import importlib.util

    return importlib.util.find_spec("torch") is not None


def test_a_batch_problem_held_by_its_fn_globals_is_collected():
    # fn's globals reach the BatchProblem that holds fn: a cycle through the native spec, collectable only when
    # the spec tells the garbage collector its references (else nanobind reports leaks at exit).
    import subprocess
    import sys

    code = ("import fusedga\np = fusedga.BatchProblem(lambda X: X[:, 0], [(0, 1)])\n"
            "fusedga.solve(p, population=10, generations=2)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "leaked" not in run.stderr, run.stderr


def test_the_compare_module_runs_and_prints_one_table(capsys):
    from fusedga import compare

    compare.main(["--population", "300", "--generations", "5", "--workloads", "constrained-quadratic,gene-sum",
                  "--gene-sum-population", "40", "--no-baselines", "--overhead-population", "16"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| constrained") or line.startswith("| gene")]
    assert len(rows) == 6 and "FusedGA BatchProblem (NumPy)" in out and "int8 genes" in out
    assert "N = 300:" in out and "N = 16:" in out
    # the seed fitness through BatchProblem, the expression and the built-in: the same run, the same best
    best = {line.split("|")[2].strip(): float(line.split("|")[6]) for line in rows if "constrained" in line}
    assert best["FusedGA BatchProblem (NumPy)"] == pytest.approx(best["FusedGA built-in (C++)"], rel=1e-6)
    assert best["FusedGA Expression (CPU JIT)"] == pytest.approx(best["FusedGA built-in (C++)"], rel=1e-6)


def test_the_compare_module_runs_the_peers_for_as_many_generations_unless_told_fewer(capsys):
    pytest.importorskip("pymoo")
    from fusedga import compare

    def generations(argv):
        compare.main(["--population", "200", "--workloads", "constrained-quadratic", "--overhead-population", "16",
                      "--targets-population", "200"] + argv)
        rows = [line.split("|") for line in capsys.readouterr().out.splitlines() if line.startswith("| constrained")]
        return {row[2].strip(): int(row[4]) for row in rows}

    equal = generations(["--generations", "4"])
    assert equal["pymoo GA (NumPy)"] == 4 and equal["FusedGA built-in (C++)"] == 4
    fewer = generations(["--generations", "4", "--baseline-generations", "2"])
    assert fewer["pymoo GA (NumPy)"] == 2 and fewer["FusedGA BatchProblem (NumPy)"] == 4
