"""Expression problems: the YAML expression problem from Python (CPU JIT or interpreter)."""

import numpy as np
import pytest

import fusedga

CQ = dict(variables={"x": (1, 25), "y": (3, 7), "z": (-25, 0)},
          objective="x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z",
          constraints=["x + y + z >= 3", "x^2 + z^2 <= 10"], sense="maximize")


@pytest.mark.parametrize("engine", ["interpreter", "auto"])
def test_the_seed_quadratic_as_an_expression_reaches_the_optimum(engine):
    r = fusedga.solve(fusedga.Expression(**CQ, engine=engine), population=2000, generations=150, seed=3,
                      backend="tbb")
    assert r.feasible and r.objective == pytest.approx(263.17395, abs=1e-3)
    assert r.variables == ("x", "y", "z") and r.x.dtype == np.float64


def test_the_interpreter_and_the_jit_agree_with_the_builtin_run():
    opts = dict(population=300, generations=30, seed=9, backend="tbb", algorithm="ga")
    interp = fusedga.solve(fusedga.Expression(**CQ, engine="interpreter"), **opts)
    builtin = fusedga.solve("seed/constrained-quadratic", **opts)
    assert interp.objective == pytest.approx(builtin.objective, rel=1e-12)
    assert interp.x == pytest.approx(builtin.x, rel=1e-12)


def test_a_vector_variable_comes_back_by_name_as_an_array():
    e = fusedga.Expression(variables={"v": {"size": 5, "bounds": [-5, 5]}}, objective="sum(i=0:4, (v[i] - 1)^2)",
                           constants={"unused": 2.0}, name="shifted-sphere")
    r = fusedga.solve(e, population=500, generations=150, seed=2, backend="tbb")
    assert r.problem == "shifted-sphere" and len(r.variables) == 5
    assert r["v"].shape == (5,) and r["v"] == pytest.approx(np.ones(5), abs=1e-2)
    assert r.objective < 1e-3
    with pytest.raises(KeyError, match="no such variable"):
        r["w"]


def test_expression_repr_shows_its_fields():
    assert repr(fusedga.Expression(variables={"x": (0, 1)}, objective="x")) == \
        "Expression(variables={'x': (0, 1)}, objective='x')"


def test_a_table_constant_is_read_at_the_rounded_index():
    # P[x] is entry floor(x + 0.5); x in [-0.49, 3.49] reaches entries 0..3, the smallest is 1.5 at index 2.
    e = fusedga.Expression(variables={"x": (-0.49, 3.49)}, objective="P[x]",
                           constants={"P": np.array([4.0, 2.5, 1.5, 3.0]), "g": 9.81})
    r = fusedga.solve(e, population=100, generations=20, seed=1, backend="tbb")
    assert r.objective == 1.5 and 1.5 <= r.x[0] < 2.5


def test_integer_variables_come_back_as_integers_at_the_lattice_optimum():
    # minimize (n - 2.4)^2 + (m + 1.6)^2 + (r - 0.3)^2 with n, m integer: the optimum is n = 2, m = -2, r = 0.3.
    e = fusedga.Expression(variables={"n": {"bounds": (-5, 5), "integer": True},
                                      "m": {"size": 1, "bounds": (-5.5, 5.5), "integer": True}, "r": (-1, 1)},
                           objective="(n - 2.4)^2 + (m[0] + 1.6)^2 + (r - 0.3)^2")
    r = fusedga.solve(e, population=100, generations=200, seed=4, backend="tbb")
    assert r["n"] == 2.0 and r["m"] == pytest.approx([-2.0], abs=0)
    # ... as Python ints by name, as in ga-run's result JSON; the real variable stays a float
    assert type(r["n"]) is int and type(r.genes["m[0]"]) is int and type(r.genes["r"]) is float
    assert r.objective == pytest.approx(0.16 + 0.16, abs=1e-9)
    with pytest.raises(fusedga.ConfigError, match="integer variable 'n' has bounds"):
        fusedga.solve(fusedga.Expression(variables={"n": {"bounds": (0.2, 0.8), "integer": True}}, objective="n"),
                      population=10, generations=1)
    # single elements of a vector: v[0] and v[2] integers, v[1] real -- the same optimum
    e = fusedga.Expression(variables={"v": {"size": 3, "bounds": (-5, 5), "integer": [True, False, True]}},
                           objective="(v[0] - 2.4)^2 + (v[1] - 0.3)^2 + (v[2] + 1.6)^2")
    r = fusedga.solve(e, population=100, generations=200, seed=4, backend="tbb")
    assert r["v"][0] == 2.0 and r["v"][2] == -2.0 and r["v"][1] == pytest.approx(0.3, abs=1e-6)
