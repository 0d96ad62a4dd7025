"""solve(islands=...): the island model from Python, as ga.islands in YAML (docs/islands.md)."""

import json
import subprocess

import numpy as np
import pytest

import fusedga


def test_islands_give_one_entry_per_island_with_its_own_history():
    r = fusedga.solve("classic/rastrigin", params={"dimension": 4}, population=202, generations=12, seed=3,
                      backend="serial", algorithm="de",
                      islands=dict(count=4, migration=dict(every=5, size=2, topology="ring")))
    assert [i["island"] for i in r.islands] == [0, 1, 2, 3]
    assert [i["population"] for i in r.islands] == [51, 51, 50, 50]  # 202 = 51 + 51 + 50 + 50
    assert all(i["rank"] == 0 for i in r.islands)
    assert sum(i["evaluations"] for i in r.islands) == r.evaluations == 202 * 13  # DE: N children a generation
    assert all(0 <= i["immigrants"] <= 2 * 2 for i in r.islands)  # 2 migrations (after generations 5 and 10)
    assert min(i["objective"] for i in r.islands) == r.objective
    for i in r.islands:
        assert i["history"]["generation"].tolist() == list(range(13))
        assert i["history"]["best_objective"].dtype == np.float64
    assert r.history["generation"].tolist() == list(range(13))  # the archipelago's rows
    assert fusedga.solve("classic/rastrigin", population=100, generations=2).islands == []


def test_each_island_restarts_on_its_own_and_reports_it():
    # Rastrigin d = 2 with islands of 20 stalls within 60 generations: islands restart (population x2 each time).
    r = fusedga.solve("classic/rastrigin", params={"dimension": 2}, population=80, generations=300, seed=5,
                      backend="serial", algorithm="de", islands=dict(count=4, migration=dict(every=5, size=1)),
                      restarts=dict(stall_generations=10))
    assert r.restarts == sum(i["restarts"] for i in r.islands) > 0
    for i in r.islands:
        assert i["population"] == 20 * 2 ** i["restarts"]
        assert i["history"]["generation"].tolist() == list(range(301))  # one row a generation over its starts
    assert sum(i["evaluations"] for i in r.islands) == r.evaluations


def test_variants_mirror_yaml_and_match_ga_run(ga_run, tmp_path):
    islands = dict(count=2, migration=dict(every=4),
                   variants=[dict(algorithm="de"), dict(algorithm="ga", crossover="blx-alpha")])
    r = fusedga.solve("classic/rastrigin", params={"dimension": 4}, population=100, generations=10, seed=5,
                      backend="tbb", threads=2, islands=islands)
    out = tmp_path / "r.json"
    config = tmp_path / "c.yaml"
    config.write_text("problem: {builtin: classic/rastrigin, params: {dimension: 4}}\n"
                      "ga:\n  population: 100\n  generations: 10\n  seed: 5\n  islands:\n    count: 2\n"
                      "    migration: {every: 4}\n    variants: [{algorithm: de}, {algorithm: ga, crossover: "
                      "{type: blx-alpha}}]\nbackend: tbb\nthreads: 2\n")
    subprocess.run([str(ga_run), str(config), "-q", "--out", str(out)], check=True)
    expected = json.loads(out.read_text())
    assert r.objective == expected["best"]["objective"]  # exact: same engine and seeds
    assert [(i["island"], i["evaluations"], i["immigrants"], i["objective"]) for i in r.islands] == [
        (i["island"], i["evaluations"], i["immigrants"], i["best"]["objective"]) for i in expected["islands"]]
    assert r.islands[0]["evaluations"] != r.islands[1]["evaluations"]  # DE: N children, the GA: N - elitism


def test_island_mistakes_are_located_at_the_argument():
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(islands=\.\.\.\): ga\.islands\.migration\.topology: "
                                                  r"expected one of \(ring, random, fully-connected\), got star"):
        fusedga.solve("classic/sphere", islands=dict(count=2, migration=dict(topology="star")))
    with pytest.raises(fusedga.ConfigError, match=r"ga\.restarts\.stall_generations: expected an integer"):
        fusedga.solve("classic/sphere", islands=dict(count=2), restarts=dict(stall_generations=0))


def test_restarts_that_wait_for_convergence_are_read_and_checked():
    # DE on Rastrigin d = 2 converges within its max_stall_generations: it still restarts.
    r = fusedga.solve("classic/rastrigin", params={"dimension": 2}, population=20, generations=300, seed=5,
                      backend="serial", algorithm="de",
                      restarts=dict(stall_generations=10, convergence_tolerance=1e-8, max_stall_generations=20))
    assert r.restarts > 0
    with pytest.raises(fusedga.ConfigError, match=r"ga\.restarts\.max_stall_generations: max_stall_generations "
                                                  r"needs convergence_tolerance"):
        fusedga.solve("classic/sphere", restarts=dict(stall_generations=10, max_stall_generations=20))
