"""Errors: located at the solve() argument, the file position or the Expression field, as ConfigError."""

import pytest

import fusedga


def test_config_error_is_a_value_error():
    assert issubclass(fusedga.ConfigError, ValueError)
    assert issubclass(fusedga.BackendUnavailable, fusedga.ConfigError)


def test_an_operator_parameter_out_of_range_names_the_argument():
    with pytest.raises(fusedga.ConfigError) as e:
        fusedga.solve("seed/constrained-quadratic", crossover={"type": "sbx", "eta": -1})
    assert str(e.value).startswith("solve(crossover=...): ga.crossover.eta: expected a number >= 0")


def test_a_string_operator_is_its_type_and_an_unknown_one_is_refused():
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(mutation=\.\.\.\): ga\.mutation\.type: .*polynomial"):
        fusedga.solve("seed/constrained-quadratic", mutation="polynomal")


def test_population_below_two_names_the_argument():
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(population=\.\.\.\): ga\.population: expected"):
        fusedga.solve("seed/constrained-quadratic", population=1)


def test_a_string_where_a_number_is_expected_is_not_converted():
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(generations=\.\.\.\): ga\.generations: .*\"10\""):
        fusedga.solve("seed/constrained-quadratic", generations="10")


def test_an_unknown_problem_is_refused_with_a_suggestion():
    with pytest.raises(fusedga.ConfigError) as e:
        fusedga.solve("seed/constrained-quadratik")
    message = str(e.value)
    assert message.startswith("solve(problem=...): problem.builtin: ")
    assert "seed/constrained-quadratic" in message


def test_an_unknown_keyword_is_refused_with_a_suggestion():
    with pytest.raises(fusedga.ConfigError) as e:
        fusedga.solve("seed/constrained-quadratic", elitsm=2)
    assert str(e.value).startswith("solve(elitsm=...): ga.elitsm: ") and "elitism" in str(e.value)


def test_an_unknown_stop_rule_is_refused():
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(stop=\.\.\.\): stop\.evaluation"):
        fusedga.solve("seed/constrained-quadratic", stop={"evaluation": 100})


def test_unknown_params_name_the_params_argument():
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(params=\.\.\.\): problem\.params\.dimensions"):
        fusedga.solve("classic/sphere", params={"dimensions": 3})


def test_a_value_with_no_yaml_form_is_refused():
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(seed=\.\.\.\): ga\.seed: expected None, a bool"):
        fusedga.solve("classic/sphere", seed=object())


def test_errors_in_a_yaml_file_point_at_its_line_and_column(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("problem: {builtin: classic/sphere}\nga:\n  population: 0\n")
    with pytest.raises(fusedga.ConfigError) as e:
        fusedga.solve(path)
    assert str(e.value).startswith(f"{path}:3:15: ga.population: ")


def test_an_argument_replacing_a_bad_file_value_is_blamed_itself(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("problem: {builtin: classic/sphere}\nga:\n  population: 10\n")
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(population=\.\.\.\): ga\.population"):
        fusedga.solve(path, population=-3)


def test_a_missing_yaml_file_is_a_config_error(tmp_path):
    with pytest.raises(fusedga.ConfigError, match="cannot read config file"):
        fusedga.solve(tmp_path / "missing.yaml")


def test_a_problem_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match=r"solve\(problem=\.\.\.\)"):
        fusedga.solve(42)


def test_a_callback_that_is_not_callable_is_a_type_error():
    with pytest.raises(TypeError, match=r"solve\(callback=\.\.\.\)"):
        fusedga.solve("classic/sphere", callback=3)


def test_cuda_without_a_gpu_is_backend_unavailable():
    if "cuda" in fusedga.backends() and not fusedga._core.cuda_unavailable_reason():
        pytest.skip("a GPU is usable here")
    with pytest.raises(fusedga.BackendUnavailable, match="cuda") as e:
        fusedga.solve("classic/sphere", backend="cuda", population=10, generations=1)
    assert str(e.value).startswith("solve(backend=...): ")  # the argument, not "--set backend=cuda"


def test_a_malformed_expression_names_the_field_and_the_column_in_its_text():
    with pytest.raises(fusedga.ConfigError) as e:
        fusedga.solve(fusedga.Expression(variables={"x": (0, 1)}, objective="x + q"))
    assert str(e.value) == "Expression(objective=...): problem.objective: column 5: unknown name 'q'; the names here are 'x', pi and e"


def test_a_malformed_constraint_names_its_index_and_column():
    with pytest.raises(fusedga.ConfigError) as e:
        fusedga.solve(fusedga.Expression(variables={"x": (0, 1)}, objective="x",
                                         constraints=["x >= 0", "x + * 2 <= 1"]))
    assert str(e.value).startswith("Expression(constraints=...): problem.constraints[1]: column 5: unexpected '*'")


def test_bad_expression_bounds_name_the_variables_field():
    with pytest.raises(fusedga.ConfigError, match=r"^Expression\(variables=\.\.\.\): problem\.variables\.x"):
        fusedga.solve(fusedga.Expression(variables={"x": (1, 0)}, objective="x"))


def test_device_is_a_top_level_option_and_a_negative_one_is_refused():
    with pytest.raises(fusedga.ConfigError, match=r"^solve\(device=\.\.\.\): device: expected auto or an integer"):
        fusedga.solve("seed/constrained-quadratic", device=-1)
    r = fusedga.solve("seed/constrained-quadratic", population=50, generations=2, backend="serial", device=0)
    assert r.generations == 2


def test_an_empty_table_constant_names_the_constants_field():
    with pytest.raises(fusedga.ConfigError, match=r"^Expression\(constants=\.\.\.\): problem\.constants\.P: .*"
                                                  r"table constant 'P' is empty"):
        fusedga.solve(fusedga.Expression(variables={"x": (0, 1)}, objective="P[x]", constants={"P": []}))


def test_expression_constraints_given_as_one_string_is_a_located_error():
    # list("x <= 0.5") made each character a constraint: "problem.constraints[0]: ... got end of text"
    with pytest.raises(fusedga.ConfigError) as e:
        fusedga.solve(fusedga.Expression(variables={"x": (0, 1)}, objective="x", constraints="x <= 0.5"))
    assert str(e.value).startswith("Expression(constraints=...): problem.constraints: expected a list of constraints")
