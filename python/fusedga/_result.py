"""fusedga.Result: what solve() returns."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Union

import numpy as np

__all__ = ["Result"]


class Result:
    """The outcome of a run: the best individual ever seen under the run's ranking, counters and history.

    Attributes
    ----------
    x : numpy.ndarray, shape (d,)
        The best individual's genes, float64 (int64 for integer-gene problems such as ``seed/gene-sum``),
        in the order of ``variables``.
    variables : tuple of str, length d
        The genes' names (``x``, ``y``; a vector variable ``v`` of size n gives ``v[0]`` .. ``v[n-1]``).
    genes : dict
        ``name -> value``, the same genes by name; ``result["x"]`` is ``result.genes["x"]``, and
        ``result["v"]`` the ndarray of a vector variable's elements.
    objective : float
        The best individual's objective, in the problem's sense (not negated for maximization).
    violation : float
        Its total constraint violation, >= 0.
    feasible : bool
        violation == 0 and the objective and every gene finite.
    stop_reason : str
        ``"generations"``, ``"target"``, ``"stall"``, ``"time_limit"``, ``"evaluations"`` or ``"interrupted"``
        (Ctrl-C, or a callback returning False).
    generations : int
        Generations run, not counting initial populations, over all restarts.
    evaluations : int
        Objective evaluations performed.
    time : float
        Wall time of the run, seconds.
    restarts : int
        Fresh populations started after the first (``restarts=``).
    not_a_number : int
        NaN individuals summed over all generations (0 in a healthy run).
    history : dict of str -> numpy.ndarray, each of shape (rows,)
        One row per generation (generation 0 first; a restart adds a row for its initial population):
        ``generation``, ``evaluations``, ``not_a_number`` (int64) and ``best_objective``, ``best_violation``,
        ``mean_objective``, ``feasible_fraction``, ``elapsed_s`` (float64).
    islands : list of dict
        Island-model runs (``islands=`` / ``ga.islands`` with count > 1): one dict per island, island order, with
        ``island`` (index), ``rank`` (the MPI rank that ran it, 0 without MPI), ``population`` (its
        individuals; its last start's with ``restarts=``), ``objective``, ``violation``, ``feasible`` (its
        best-so-far over its starts), ``evaluations``, ``immigrants`` (immigrants that replaced a resident, over the
        run), ``restarts`` (times it started afresh) and ``history`` (its own rows, one per generation, the
        columns of ``history``); ``history`` is then the archipelago's (best over islands, means over all
        individuals, evaluations summed). Empty for one population.
    problem, backend, precision : str
        The problem's name, the backend that ran (``"serial"``, ``"tbb"``, ``"cuda"``), ``"double"`` or
        ``"float"``.
    threads : int
        Threads used by the backend.
    seed : int
        The run's seed (equal seeds give bitwise equal runs).
    notices : list of str
        One-line notices of the run, e.g. why ``backend="auto"`` chose the CPU.
    """

    def __init__(self, fields: Dict[str, Any]) -> None:
        self.x: np.ndarray = fields["genes"]
        self.x.flags.writeable = False
        self.variables = tuple(fields["variables"])
        self._integer = tuple(fields["integer_variables"])  # d marks: genes that take integer values only
        self.objective: float = fields["objective"]
        self.violation: float = fields["violation"]
        self.feasible: bool = fields["feasible"]
        self.stop_reason: str = fields["stop_reason"]
        self.generations: int = fields["generations"]
        self.evaluations: int = fields["evaluations"]
        self.time: float = fields["time"]
        self.restarts: int = fields["restarts"]
        self.not_a_number: int = fields["not_a_number"]
        self.history: Dict[str, np.ndarray] = dict(fields["history"])
        self.islands: List[Dict[str, Any]] = [dict(i, history=dict(i["history"])) for i in fields.get("islands", [])]
        self.problem: str = fields["problem"]
        self.backend: str = fields["backend"]
        self.threads: int = fields["threads"]
        self.precision: str = fields["precision"]
        self.seed: int = fields["seed"]
        self.notices: List[str] = list(fields["notices"])

    @property
    def genes(self) -> Dict[str, Union[float, int]]:
        """``name -> value`` of the best individual's genes (Python floats, or ints for integer genes and
        integer variables)."""
        return dict(zip(self.variables, self._values()))

    def _values(self) -> List[Union[float, int]]:
        return [int(v) if integer and math.isfinite(v) else v for v, integer in zip(self.x.tolist(), self._integer)]

    def __getitem__(self, name: str) -> Union[float, int, np.ndarray]:
        """The gene named ``name``, or the elements of vector variable ``name`` as an ndarray. Raises KeyError."""
        if name in self.variables:
            return self._values()[self.variables.index(name)]
        elements = [i for i, v in enumerate(self.variables) if v.startswith(name + "[")]
        if elements:
            return self.x[elements]
        raise KeyError(f"{name!r}: no such variable (variables: {', '.join(self.variables[:20])}"
                       f"{', ...' if len(self.variables) > 20 else ''})")

    def to_pandas(self) -> "pandas.DataFrame":  # noqa: F821
        """The history as a pandas DataFrame, one row per generation. Raises ImportError without pandas."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("Result.to_pandas() needs pandas (pip install pandas); "
                              "Result.history is the same table as a dict of NumPy arrays") from e
        return pandas.DataFrame(self.history)

    def __repr__(self) -> str:
        shown = ", ".join(f"{n!r}: {v!r}" for n, v in list(self.genes.items())[:6])
        more = f", ... ({len(self.variables) - 6} more)" if len(self.variables) > 6 else ""
        return (f"Result(problem={self.problem!r}, objective={self.objective!r}, violation={self.violation!r}, "
                f"feasible={self.feasible}, genes={{{shown}{more}}}, stop_reason={self.stop_reason!r}, "
                f"generations={self.generations}, evaluations={self.evaluations}, time={self.time:.3g} s, "
                f"backend={self.backend!r})")
