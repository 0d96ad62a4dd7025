"""fusedga.solve: one run, options mirroring the YAML schema of ga-run."""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Mapping, Optional, Union

from . import _core
from ._batch import BatchProblem
from ._expression import Expression
from ._options import ConfigPlan, _relabel, ga_overrides, is_config_path, parse
from ._progress import Progress
from ._result import Result

__all__ = ["solve", "run_parsed"]

Problem = Union[str, "os.PathLike[str]", Expression, BatchProblem]


def _plan(problem: Any, params: Optional[Mapping[str, Any]]) -> ConfigPlan:
    """The base document and problem overrides for ``problem``."""
    if hasattr(problem, "_add_to"):  # Expression (and other problem objects): their own problem: section
        plan = ConfigPlan()
        problem._add_to(plan)
    elif is_config_path(problem):
        path = os.fspath(problem)
        plan = ConfigPlan(text=_core.read_config_text(path), source=path)
    elif isinstance(problem, str):
        plan = ConfigPlan()
        plan.set("solve(problem=...)", "problem.builtin", problem)
    else:
        raise TypeError("solve(problem=...): expected a built-in problem name (fusedga.problems()), a YAML config "
                        f"path, a fusedga.Expression or a fusedga.BatchProblem, got {type(problem).__name__}")
    if params is not None:
        plan.set("solve(params=...)", "problem.params", params)
    return plan


def run_parsed(config: Any, callback: Optional[Callable[[Any], Any]], progress: bool,
               native_run: Callable[[Optional[Callable[[Any], Any]]], Dict[str, Any]]) -> Result:
    """Runs a parsed config: ``native_run(hook)`` calls the native run with the per-generation hook (None when
    there is neither a callback nor a progress display). Shared by every problem kind."""
    # 2^31 - 1: no generation limit (stop.evaluations without ga.generations), so no total to show
    bar = Progress(config.generations if config.generations < 2**31 - 1 else None) if progress else None
    hook = None
    if bar is not None or callback is not None:
        def hook(stats: Any) -> Any:
            if bar is not None:
                bar.update(stats)
            if callback is not None:
                return callback(stats)
            return None
    try:
        fields = native_run(hook)
    finally:
        if bar is not None:
            bar.close()
    return Result(fields)


def solve(
    problem: Problem,
    *,
    population: Optional[int] = None,
    generations: Optional[int] = None,
    seed: Optional[int] = None,
    backend: Optional[str] = None,
    threads: Optional[int] = None,
    device: Optional[int] = None,
    precision: Optional[str] = None,
    algorithm: Optional[str] = None,
    crossover: Union[str, Mapping[str, Any], None] = None,
    mutation: Union[str, Mapping[str, Any], None] = None,
    selection: Union[str, Mapping[str, Any], None] = None,
    constraint_handling: Union[str, Mapping[str, Any], None] = None,
    stop: Optional[Mapping[str, Any]] = None,
    islands: Optional[Mapping[str, Any]] = None,
    params: Optional[Mapping[str, Any]] = None,
    callback: Optional[Callable[[Any], Any]] = None,
    progress: bool = False,
    checkpoint: Union[str, "os.PathLike[str]", None] = None,
    checkpoint_every: Optional[int] = None,
    checkpoint_every_s: Optional[float] = None,
    resume: Union[str, "os.PathLike[str]", None] = None,
    **ga: Any,
) -> Result:
    """Solves ``problem`` with FusedGA and returns the best individual found.

    The options are those of a ga-run YAML config (README "YAML config", ``ga-run --list-operators``), with
    the same names, defaults and validation; ``None`` (the default) means "not given": the YAML file's value
    for a config path, else the schema's default (``algorithm="auto"``, ``backend="auto"``).

    Parameters
    ----------
    problem : str, os.PathLike, Expression or BatchProblem
        A built-in problem by name (``fusedga.problems()``, e.g. ``"seed/constrained-quadratic"``), a YAML
        config path (its settings apply; arguments given here override them), a ``fusedga.Expression``, or a
        ``fusedga.BatchProblem`` (a Python fitness over the whole population; double only; on ``backend="cuda"``
        with ``array="torch"``, a CUDA tensor).
    population, generations, seed : int
        ``ga.population`` (>= 2), ``ga.generations``, ``ga.seed`` (equal seeds give bitwise equal runs, for any
        thread count).
    backend : {"auto", "serial", "tbb", "cuda"}
    threads : int
        TBB threads, 0 = all cores.
    device : int
        The GPU of ``backend="cuda"`` (a CUDA device ordinal, >= 0; default 0).
    precision : {"double", "float"}
    algorithm : {"auto", "ga", "de"}
    crossover, mutation, selection, constraint_handling : dict or str
        The ``ga:`` sections, e.g. ``crossover={"type": "sbx", "rate": 0.9, "eta": 15}``; a string is
        ``{"type": string}``. A dict replaces the file's whole section.
    stop : dict
        ``stop:`` rules (``evaluations``, ``target``, ``stall_generations``, ``time_limit_s``), set one by one
        (a file's other rules stay). A budget in ``evaluations`` with no ``generations`` given (here or in the
        file) lifts the generation limit: the budget ends the run. Given neither, ``algorithm="auto"``'s
        differential evolution gets a budget of 10**4 x the dimension (CEC's MaxFES; not for a BatchProblem).
    islands : dict
        ``ga.islands``: the island model (docs/islands.md), e.g. ``dict(count=8, migration=dict(every=10,
        size=2, topology="ring"), variants=[dict(algorithm="de"), dict(crossover="blx-alpha")])``: ``count``
        sub-populations (of ``population / count`` individuals each; the run's ``population`` is the total)
        exchange their ``size`` best every ``every`` generations along the ``topology`` (``"ring"``,
        ``"random"``, ``"fully-connected"``), replacing the receiver's worst (``policy="best-replace-worst"``).
        ``variants`` (optional) are heterogeneous islands: island i runs ``variants[i % len(variants)]``, each
        a dict of ``ga:`` search settings (``algorithm``, ``selection``, ``crossover``, ``mutation``,
        ``elitism``, ``survival``, ``de``, ``constraint_handling``) over the run's own. With ``restarts``
        (which ``algorithm="auto"`` sets where they are not given) each island restarts
        on its own. The result's ``islands`` lists each island's outcome, with its ``restarts``.
    params : dict
        ``problem.params`` of a built-in problem, e.g. ``{"dimension": 30}`` for ``classic/*``.
    callback : callable, optional
        ``callback(stats: GenerationStats)`` after every generation (generation 0 = the initial population),
        with the GIL held. Returning ``False`` stops the run after that generation (stop reason
        ``"interrupted"``; an island run stops at the end of that migration epoch, as on Ctrl-C); an exception
        stops it and is raised by solve().
    progress : bool
        Show a progress bar on stderr (tqdm when installed, else one line rewritten in place).
    checkpoint : str or os.PathLike
        Write the whole run state to this file (atomically), as ``ga-run --checkpoint``: every
        ``checkpoint_every`` generations or ``checkpoint_every_s`` seconds (60 s when neither is given), when
        Ctrl-C or the callback stops the run, and at its end (docs/checkpoints.md). A write that fails does not
        stop the run: ``Result.notices`` says so.
    checkpoint_every : int
        With ``checkpoint``: every N >= 1 generations.
    checkpoint_every_s : float
        With ``checkpoint``: every S > 0 seconds of wall time.
    resume : str or os.PathLike
        Continue the run of this checkpoint: give the same problem and options (a ``BatchProblem``'s function
        cannot be stored). The run then ends bitwise as it would have uninterrupted (wall-clock fields aside); a
        larger ``generations`` continues a finished run. Checkpoints go on to ``checkpoint``, else to this file.
    **ga
        Any other ``ga:`` key: ``elitism``, ``survival``, ``de``, ``restarts``.

    Returns
    -------
    Result

    Raises
    ------
    ConfigError
        An invalid option or problem, located at the argument (``solve(crossover=...): ga.crossover.eta:
        expected a number >= 0``), the file position, or the Expression field; unknown options and problems
        are errors too (with a did-you-mean). A ``resume`` file that cannot be read, or that is of another run
        (the message names each field that differs, e.g. ``ga.seed: checkpoint 7, this run 8``).
    BackendUnavailable
        ``backend="cuda"`` where the CUDA backend is not built or no GPU is usable.
    TypeError
        ``problem`` of another type.

    The GIL is released while the engine runs (other Python threads go on). Ctrl-C (SIGINT) stops the run at
    the end of the current generation and returns the result so far, with ``stop_reason == "interrupted"``
    and ``generations`` the number of that generation; signals are seen only when solve runs on the main
    thread. Concurrent solve() calls from several threads have not been verified: run one at a time.
    """
    if callback is not None and not callable(callback):
        raise TypeError(f"solve(callback=...): expected a callable or None, got {type(callback).__name__}")
    plan = _plan(problem, params)
    options: Dict[str, Any] = dict(
        backend=backend, precision=precision, threads=threads, device=device, population=population,
        generations=generations, seed=seed, algorithm=algorithm, selection=selection, crossover=crossover,
        mutation=mutation, constraint_handling=constraint_handling, stop=stop, islands=islands)
    options.update(ga)
    ga_overrides(plan, "solve", options)
    checkpoints = _checkpoint_arguments(checkpoint, checkpoint_every, checkpoint_every_s, resume)
    config = problem._parse(plan) if hasattr(problem, "_parse") else parse(plan)
    run = problem._run if hasattr(problem, "_run") else _core.run
    try:
        return run_parsed(config, callback, progress, lambda hook: run(config, hook, **checkpoints))
    except _core.ConfigError as e:  # found as the run starts (BackendUnavailable): labelled as parse() labels
        message = _relabel(str(e), plan)
        if message == str(e):
            raise
        raise type(e)(message) from None


def _checkpoint_arguments(checkpoint: Any, every: Any, every_s: Any, resume: Any) -> Dict[str, Any]:
    """The native run's checkpoint arguments, checked as ga-run checks its --checkpoint options."""
    def path(name: str, value: Any) -> Optional[str]:
        if value is None:
            return None
        if not isinstance(value, (str, os.PathLike)):
            raise _core.ConfigError(f"solve({name}=...): expected a file path, got {type(value).__name__}")
        return os.fspath(value)
    def number(name: str, value: Any, kind: type) -> Any:
        if value is None:
            return kind(0)
        if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) or value <= 0:
            what = "an integer >= 1" if kind is int else "a number > 0"
            raise _core.ConfigError(f"solve({name}=...): expected {what}, got {value!r}")
        return kind(value)
    out = dict(checkpoint=path("checkpoint", checkpoint), resume=path("resume", resume),
               checkpoint_every=number("checkpoint_every", every, int),
               checkpoint_every_s=number("checkpoint_every_s", every_s, float))
    if out["checkpoint"] is None:
        out["checkpoint"] = out["resume"]  # a resumed run goes on writing to its checkpoint, as ga-run --resume
    if out["checkpoint"] is None and (every is not None or every_s is not None):
        raise _core.ConfigError("solve(checkpoint_every=...): give checkpoint=PATH too" if every is not None
                                else "solve(checkpoint_every_s=...): give checkpoint=PATH too")
    return out
