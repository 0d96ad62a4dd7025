"""FusedGA from Python: fused genetic algorithms on the CPU (oneTBB) and GPU (CUDA).

    >>> import fusedga
    >>> r = fusedga.solve("seed/constrained-quadratic", population=1000, generations=100, seed=1)
    >>> r.objective, r.genes

See docs/python.md: ``solve`` mirrors ga-run's YAML schema (the same option names, validation and located
errors, raised as ``ConfigError``); problems are built-in names, YAML config paths,
``Expression`` or ``BatchProblem`` (a NumPy/PyTorch fitness over the whole population, zero-copy).
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple

from . import _core
from ._batch import BatchProblem
from ._core import BackendUnavailable, ConfigError, GenerationStats
from ._expression import Expression
from ._result import Result
from ._solve import solve

__all__ = ["solve", "Expression", "BatchProblem", "Result", "GenerationStats", "ConfigError", "BackendUnavailable",
           "problems", "ProblemInfo", "ParamInfo", "backends", "__version__"]

try:
    from importlib.metadata import version as _version

    __version__ = _version("fusedga")
except Exception:  # not installed as a distribution (e.g. run from a build tree)
    __version__ = "0.1.0"


class ParamInfo(NamedTuple):
    """A numeric parameter of a built-in problem (``params=``): default, inclusive range, integer or not."""

    name: str
    default: float
    min: float
    max: float
    integer: bool
    help: str


class ProblemInfo(NamedTuple):
    """A built-in problem: its name for solve(), a one-line description, its parameters."""

    name: str
    description: str
    params: List[ParamInfo]
    integer_genes: bool
    constrained: bool


def problems() -> List[ProblemInfo]:
    """The built-in problems (as ``ga-run --list``), sorted by name."""
    return [ProblemInfo(p["name"], p["description"], [ParamInfo(**q) for q in p["params"]], p["integer_genes"],
                        p["constrained"]) for p in _core.problems()]


def backends() -> List[str]:
    """The backends built into this package, e.g. ``["serial", "tbb"]`` (``"cuda"`` when built with CUDA)."""
    return list(_core.built_backends())
