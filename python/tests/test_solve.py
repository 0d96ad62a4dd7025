"""solve() on built-in problems and YAML configs: known optima, parity with ga-run, results and history."""

import json
import subprocess

import numpy as np
import pytest

import fusedga

CQ_OPTIMUM = 263.17395  # seed/constrained-quadratic (README, "Built-in problems")


def test_builtin_reaches_its_known_optimum():
    r = fusedga.solve("seed/constrained-quadratic", population=2000, generations=150, seed=3, backend="tbb")
    assert r.feasible and r.violation == 0.0
    assert r.objective == pytest.approx(CQ_OPTIMUM, abs=1e-3)
    assert r.x.dtype == np.float64 and r.x.shape == (3,)
    assert r.variables == ("x", "y", "z")
    assert r.x.tolist() == pytest.approx([1.64967, 7.0, -2.69789], abs=1e-3)
    assert r["y"] == r.genes["y"] == r.x[1]
    assert r.problem == "seed/constrained-quadratic" and r.backend == "tbb" and r.seed == 3


def test_integer_genes_come_back_as_int64_and_reach_the_optimum():
    r = fusedga.solve("seed/gene-sum", params={"genes": 8}, population=400, generations=100, seed=5)
    assert r.x.dtype == np.int64 and r.x.shape == (8,)
    assert r.objective == 24 * 8 and r.x.tolist() == [24] * 8
    assert isinstance(r.genes[r.variables[0]], int)


def test_classic_params_set_the_dimension():
    r = fusedga.solve("classic/sphere", params={"dimension": 7}, population=200, generations=5, seed=1)
    assert r.x.shape == (7,) and len(r.variables) == 7


def _ga_run_json(ga_run, config, tmp_path, sets):
    out = tmp_path / "result.json"
    cmd = [str(ga_run), str(config), "--quiet", "--out", str(out)] + [a for s in sets for a in ("--set", s)]
    subprocess.run(cmd, check=True)
    return json.loads(out.read_text())


@pytest.mark.parametrize("config", ["seed-constrained-quadratic.yaml", "seed-trig-constrained.yaml",
                                    "engineering-welded-beam.yaml", "expr-seed-constrained-quadratic.yaml"])
def test_same_config_and_seed_as_ga_run_give_the_same_bits(ga_run, root, tmp_path, config):
    path = root / "configs" / config
    sets = ["ga.population=300", "ga.generations=40", "ga.seed=7", "backend=tbb", "threads=2"]
    expected = _ga_run_json(ga_run, path, tmp_path, sets)
    r = fusedga.solve(path, population=300, generations=40, seed=7, backend="tbb", threads=2)
    assert r.objective == expected["best"]["objective"]  # exact: same engine, same Philox counters
    assert r.violation == expected["best"]["violation"]
    assert r.genes == expected["best"]["genes"]
    assert r.evaluations == expected["evaluations"] and r.generations == expected["generations"]
    assert r.stop_reason == expected["stop_reason"]


def test_a_builtin_name_runs_as_its_yaml_config_with_the_same_settings(root):
    by_file = fusedga.solve(root / "configs" / "seed-constrained-quadratic.yaml", population=200, generations=20)
    by_name = fusedga.solve("seed/constrained-quadratic", population=200, generations=20, seed=42, algorithm="auto",
                            constraint_handling={"type": "feasibility-rules"})
    assert by_file.x.tolist() == by_name.x.tolist() and by_file.objective == by_name.objective


def test_the_file_keeps_its_settings_unless_overridden(root):
    r = fusedga.solve(root / "configs" / "seed-constrained-quadratic.yaml", generations=3)
    assert r.seed == 42  # from the file
    assert r.evaluations >= 10000 * 3  # the file's population, 3 generations


def test_a_config_files_outputs_are_written_as_ga_run_writes_them(tmp_path):
    path = tmp_path / "run.yaml"
    out, history = tmp_path / "result.json", tmp_path / "history.csv"
    path.write_text(f"problem: {{builtin: seed/trig-constrained}}\nga: {{population: 60, generations: 3}}\n"
                    f"output: {{result: {json.dumps(str(out))}, history: {json.dumps(str(history))}}}\n")
    r = fusedga.solve(path)
    written = json.loads(out.read_text())
    assert written["best"]["objective"] == r.objective and written["generations"] == 3
    assert len(history.read_text().splitlines()) == 1 + len(r.history["generation"])


def test_an_output_that_would_replace_the_config_or_another_output_is_refused_before_the_run(tmp_path):
    path = tmp_path / "run.yaml"
    text = "problem: {builtin: seed/trig-constrained}\nga: {population: 60, generations: 3}\n"
    path.write_text(text + f"output: {{result: {json.dumps(str(path))}}}\n")
    with pytest.raises(fusedga.ConfigError, match=r"the result \(output\.result\) names the config .*run\.yaml, "
                                                  r"which it would replace"):
        fusedga.solve(path)
    both = tmp_path / "both.yaml"
    both.write_text(text + f"output: {{result: {json.dumps(str(tmp_path / 'x'))}, "
                           f"history: {json.dumps(str(tmp_path) + '/./x')}}}\n")
    with pytest.raises(fusedga.ConfigError, match=r"the result \(output\.result\) and the history "
                                                  r"\(output\.history\) name the same file"):
        fusedga.solve(both)
    assert not (tmp_path / "x").exists()
    ck = tmp_path / "c.ckpt"
    fusedga.solve("seed/trig-constrained", population=60, generations=3, checkpoint=ck)
    saved = ck.read_bytes()
    onto = tmp_path / "onto.yaml"
    onto.write_text(text + f"output: {{result: {json.dumps(str(ck))}}}\n")
    # resume= goes on writing its checkpoint, so the result would replace that file
    with pytest.raises(fusedga.ConfigError, match=r"the result \(output\.result\) and solve\(checkpoint=\.\.\.\) "
                                                  r"name the same file .*c\.ckpt"):
        fusedga.solve(onto, generations=5, resume=ck)
    assert ck.read_bytes() == saved


def test_history_is_a_dict_of_arrays_one_row_per_generation():
    r = fusedga.solve("seed/trig-constrained", algorithm="ga", population=100, generations=12, seed=2)
    assert r.generations == 12 and r.stop_reason == "generations"
    h = r.history
    assert set(h) == {"generation", "best_objective", "best_violation", "mean_objective", "feasible_fraction",
                      "evaluations", "elapsed_s", "not_a_number"}
    for name, column in h.items():
        assert isinstance(column, np.ndarray) and column.shape == (13,), name
    assert h["generation"].dtype == np.int64 and h["generation"].tolist() == list(range(13))
    assert h["evaluations"].tolist() == [100 + 98 * g for g in range(13)]  # elitism 2 keeps 2 unevaluated
    assert h["best_objective"].dtype == np.float64
    assert np.all((h["feasible_fraction"] >= 0) & (h["feasible_fraction"] <= 1))
    # elitism keeps the best, so the last population's best is the run's best
    assert h["best_objective"][-1] == r.objective and h["best_violation"][-1] == r.violation
    assert np.all(np.diff(h["elapsed_s"]) >= 0)


def test_stop_rules_are_set_one_by_one():
    r = fusedga.solve("seed/constrained-quadratic", population=500, generations=1000, stop={"evaluations": 2500})
    assert r.stop_reason == "evaluations" and r.evaluations <= 2500


def test_to_pandas_gives_the_history_as_a_dataframe():
    pandas = pytest.importorskip("pandas")
    r = fusedga.solve("classic/sphere", population=50, generations=4, seed=1)
    frame = r.to_pandas()
    assert isinstance(frame, pandas.DataFrame) and frame.shape == (5, 8)
    assert frame["generation"].tolist() == [0, 1, 2, 3, 4]


def test_to_pandas_without_pandas_is_a_clear_import_error(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    r = fusedga.solve("classic/sphere", population=50, generations=1, seed=1)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match="needs pandas"):
        r.to_pandas()


def test_repr_names_the_essentials():
    r = fusedga.solve("seed/constrained-quadratic", population=100, generations=2, seed=1)
    text = repr(r)
    assert text.startswith("Result(problem='seed/constrained-quadratic'") and "genes={'x': " in text
    assert "stop_reason='generations'" in text and "generations=2" in text


def test_problems_lists_the_builtins_with_their_parameters():
    names = {p.name: p for p in fusedga.problems()}
    assert "seed/constrained-quadratic" in names and "engineering/welded-beam" in names
    sphere = names["classic/sphere"]
    assert [q.name for q in sphere.params] == ["dimension"] and sphere.params[0].integer
    assert names["seed/gene-sum"].integer_genes and names["seed/constrained-quadratic"].constrained


def test_backends_lists_serial_and_tbb():
    assert {"serial", "tbb"} <= set(fusedga.backends())


def test_progress_shows_a_line_or_a_bar(capsys):
    fusedga.solve("classic/sphere", population=50, generations=3, seed=1, progress=True)
    err = capsys.readouterr().err
    assert "3/3" in err or "generation 3/3" in err


def test_a_budget_in_evaluations_alone_has_no_generation_limit(capsys):
    # stop.evaluations without generations: the budget ends the run (N 50, no restarts: (2000 - 50) / 50 = 39
    # generations), and the progress display has no total to show.
    r = fusedga.solve("classic/sphere", population=50, seed=1, stop={"evaluations": 2000}, restarts=None,
                      progress=True)
    assert (r.generations, r.evaluations, r.stop_reason) == (39, 2000, "evaluations")
    err = capsys.readouterr().err
    assert "2147483647" not in err
    r = fusedga.solve("classic/sphere", population=50, generations=10, seed=1, stop={"evaluations": 2000})
    assert (r.generations, r.evaluations, r.stop_reason) == (10, 550, "generations")


def test_the_gil_is_released_while_the_engine_runs():
    import threading

    count = 0
    done = threading.Event()

    def spin():
        nonlocal count
        while not done.is_set():
            count += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        before = count
        r = fusedga.solve("seed/constrained-quadratic", population=20000, generations=30, seed=1, threads=1,
                          backend="serial", algorithm="ga")
        during = count - before
    finally:
        done.set()
        t.join()
    assert r.generations == 30
    assert during > 10000  # with the GIL held for the whole run the thread could not have counted
