"""Callbacks, Ctrl-C and early stops: the run ends at the end of the generation and returns its result."""

import os
import signal

import pytest

import fusedga


def _options():
    return dict(population=200, generations=500, seed=4, algorithm="ga", backend="tbb")


def test_the_callback_sees_every_generation_in_order():
    seen = []
    r = fusedga.solve("seed/constrained-quadratic", population=100, generations=6, seed=1, algorithm="ga",
                      callback=lambda s: seen.append((s.generation, s.evaluations)))
    assert [g for g, _ in seen] == list(range(7))
    assert seen[-1][1] == r.evaluations
    assert r.history["generation"].tolist() == [g for g, _ in seen]


def test_sigint_stops_at_the_end_of_that_generation_and_returns_the_result():
    k = 5

    def interrupt_at_k(stats):
        if stats.generation == k:
            os.kill(os.getpid(), signal.SIGINT)

    r = fusedga.solve("seed/constrained-quadratic", callback=interrupt_at_k, **_options())
    assert r.stop_reason == "interrupted"
    assert r.generations == k  # documented: the generation during which Ctrl-C came is the last
    assert len(r.history["generation"]) == k + 1 and r.feasible in (True, False)


def test_sigint_without_a_callback_is_seen_between_generations():
    import threading

    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = fusedga.solve("seed/constrained-quadratic", population=20000, generations=100000, seed=1,
                          algorithm="ga", backend="tbb", stop={"time_limit_s": 60})
    finally:
        timer.cancel()
    assert r.stop_reason == "interrupted" and 0 < r.generations < 100000


def test_a_callback_returning_false_stops_the_run():
    r = fusedga.solve("seed/constrained-quadratic", callback=lambda s: s.generation < 3, **_options())
    assert r.stop_reason == "interrupted" and r.generations == 3


def test_a_callback_returning_none_does_not_stop_the_run():
    r = fusedga.solve("seed/constrained-quadratic", population=50, generations=4, callback=lambda s: None)
    assert r.stop_reason == "generations" and r.generations == 4


def test_an_exception_in_the_callback_stops_the_run_and_is_raised():
    def fail(stats):
        if stats.generation == 2:
            raise ValueError("from the callback")

    with pytest.raises(ValueError, match="from the callback"):
        fusedga.solve("seed/constrained-quadratic", callback=fail, **_options())


def test_generation_stats_are_readable():
    got = []
    fusedga.solve("seed/constrained-quadratic", population=50, generations=1, seed=1, algorithm="ga",
                  callback=got.append)
    s = got[-1]
    assert s.generation == 1 and 0 <= s.feasible_fraction <= 1 and s.evaluations == 50 + 48
    assert "GenerationStats(generation=1" in repr(s)
