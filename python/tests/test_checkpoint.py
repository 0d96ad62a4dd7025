"""Checkpoints from Python: solve(checkpoint=..., resume=...) ends bitwise as the run uninterrupted — built-in,
BatchProblem and island runs, stopped by the callback or finished and continued — and bad arguments or a
checkpoint of another run are ConfigErrors."""

import numpy as np
import pytest

import fusedga

RUN = dict(population=300, seed=7, backend="tbb", threads=2)


def same_run(a, b):
    """Everything but wall-clock time."""
    assert a.x.tolist() == b.x.tolist()
    assert (a.objective, a.violation, a.stop_reason, a.generations, a.evaluations) == \
        (b.objective, b.violation, b.stop_reason, b.generations, b.evaluations)
    for column in ("best_objective", "best_violation", "mean_objective", "evaluations"):
        assert a.history[column].tolist() == b.history[column].tolist(), column
    assert [i["objective"] for i in a.islands] == [i["objective"] for i in b.islands]


def test_a_finished_run_resumed_with_more_generations_equals_the_longer_run(tmp_path):
    ck = tmp_path / "run.ckpt"
    whole = fusedga.solve("seed/constrained-quadratic", generations=60, **RUN)
    first = fusedga.solve("seed/constrained-quadratic", generations=25, checkpoint=ck, checkpoint_every=10, **RUN)
    assert first.generations == 25 and ck.stat().st_size > 0
    same_run(fusedga.solve("seed/constrained-quadratic", generations=60, resume=ck, **RUN), whole)


def test_a_run_stopped_by_the_callback_resumes_to_the_uninterrupted_end(tmp_path):
    ck = tmp_path / "run.ckpt"
    p = fusedga.BatchProblem(lambda X: (X ** 2).sum(axis=1), [(-5, 5)] * 4)
    whole = fusedga.solve(p, generations=40, **RUN)
    cut = fusedga.solve(p, generations=40, checkpoint=str(ck), callback=lambda s: s.generation < 17, **RUN)
    assert cut.stop_reason == "interrupted" and cut.generations == 17
    same_run(fusedga.solve(p, generations=40, resume=ck, **RUN), whole)


def test_an_island_run_resumes_from_its_checkpoint(tmp_path):
    ck = tmp_path / "islands.ckpt"
    islands = dict(count=4, migration=dict(every=5, size=2, topology="random"))
    args = dict(RUN, params={"dimension": 6}, islands=islands)
    whole = fusedga.solve("classic/rastrigin", generations=30, **args)
    fusedga.solve("classic/rastrigin", generations=12, checkpoint=ck, **args)
    resumed = fusedga.solve("classic/rastrigin", generations=30, resume=ck, **args)
    assert len(resumed.islands) == 4
    same_run(resumed, whole)


def test_a_checkpoint_of_another_run_names_what_differs(tmp_path):
    ck = tmp_path / "run.ckpt"
    fusedga.solve("seed/constrained-quadratic", generations=5, checkpoint=ck, **RUN)
    with pytest.raises(fusedga.ConfigError, match=r"(?s)checkpoint is of another run.*ga\.seed: checkpoint 7, this run 8"):
        fusedga.solve("seed/constrained-quadratic", generations=5, resume=ck, **dict(RUN, seed=8))


def test_bad_checkpoint_arguments_are_config_errors(tmp_path):
    with pytest.raises(fusedga.ConfigError, match=r"no-such\.ckpt: cannot read checkpoint"):
        fusedga.solve("seed/constrained-quadratic", generations=5, resume=tmp_path / "no-such.ckpt")
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(checkpoint_every=\.\.\.\): give checkpoint=PATH too"):
        fusedga.solve("seed/constrained-quadratic", generations=5, checkpoint_every=3)
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(checkpoint_every=\.\.\.\): expected an integer >= 1"):
        fusedga.solve("seed/constrained-quadratic", generations=5, checkpoint=tmp_path / "c", checkpoint_every=0)
    with pytest.raises(fusedga.ConfigError, match=r"cannot (create|write)|No such file"):
        fusedga.solve("seed/constrained-quadratic", generations=5, checkpoint=tmp_path / "no-dir" / "c.ckpt")
    not_a_checkpoint = tmp_path / "text.ckpt"
    not_a_checkpoint.write_text("hello")
    with pytest.raises(fusedga.ConfigError, match=r"not a FusedGA checkpoint"):
        fusedga.solve("seed/constrained-quadratic", generations=5, resume=not_a_checkpoint)
    assert not np.isnan(fusedga.solve("seed/constrained-quadratic", generations=2, population=40).objective)
