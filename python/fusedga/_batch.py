"""fusedga.BatchProblem: a problem whose fitness is one Python call over the whole population (NumPy/PyTorch).

The engine (config/batch_entry.hpp, pagmo2's batch fitness evaluator idea) runs selection and variation in
native code, then calls ``fn`` once per generation with its own gene rows as a read-only array (no copy), then
computes violations and rank keys from what ``fn`` returned.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._options import ConfigPlan, parse

__all__ = ["BatchProblem"]


def _fn_name(fn: Any) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__


def _expected(m: int, p: int) -> str:
    if m == 0 and p == 0:
        return "f of shape (n,)"
    if p == 0:
        return f"a tuple (f, G) with f of shape (n,) and G of shape (n, {m})" + (" or (n,)" if m == 1 else "")
    g = f"G of shape (n, {m})" if m > 0 else "G None or of shape (n, 0)"
    return f"a tuple (f, G, H) with f of shape (n,), {g} and H of shape (n, {p})" + (" or (n,)" if p == 1 else "")


def _array(label: str, what: str, value: Any, n: int, cols: int, expected: str) -> np.ndarray:
    """``value`` as a float64 C-ordered array of shape (n,) (cols 0: f) or (n, cols); raises TypeError or
    ValueError naming fn, what it returned and what was expected."""
    if hasattr(value, "detach") and hasattr(value, "numpy") and hasattr(value, "device"):  # a torch.Tensor
        if getattr(value.device, "type", "cpu") != "cpu":
            raise TypeError(f"{label}: returned {what} as a tensor on {value.device}; expected a CPU array "
                            f"({expected})")
        value = value.detach().numpy()
    try:
        a = np.asarray(value)
    except Exception as e:
        raise TypeError(f"{label}: returned {what} of type {type(value).__name__}, not an array ({e}); expected "
                        f"{expected}") from None
    if a.dtype.kind not in "iuf":
        raise TypeError(f"{label}: returned {what} of dtype {a.dtype}; expected real numbers (float64; "
                        f"{expected})")
    return np.ascontiguousarray(a, dtype=np.float64).reshape(_shape(label, what, tuple(a.shape), n, cols, expected))


def _shape(label: str, what: str, shape: Tuple[int, ...], n: int, cols: int, expected: str) -> Tuple[int, ...]:
    """The shape a returned part of ``shape`` takes: (n,) for f (cols 0), (n, cols) else; (n,) is accepted for a
    single column and (n, 1) for f. Raises ValueError naming fn, the part and what was expected."""
    want = (n,) if cols == 0 else (n, cols)
    if shape == want or (len(shape) == 1 and shape[0] == n and cols == 1) or (cols == 0 and shape == (n, 1)):
        return want
    raise ValueError(f"{label}: returned {what} of shape {shape} for n = {n} individuals; expected {expected}")


def _parts(label: str, value: Any, m: int, p: int, size: Callable[[Any], int],
           convert: Callable[[str, Any, int], Any]) -> Tuple[Any, Any, Any]:
    """What ``fn`` returned as (f, G, H), each part checked and converted in that order by ``convert(what, item,
    cols)`` (cols 0 for f; None for a zero count); ``size(item)`` counts an item's values."""
    expected = _expected(m, p)
    parts = value if isinstance(value, tuple) else (value,)
    if not 1 <= len(parts) <= 3:
        raise TypeError(f"{label}: returned a tuple of {len(parts)} items; expected {expected}")
    if value is None:
        raise TypeError(f"{label}: returned None; expected {expected}")
    out = [convert("f", parts[0], 0)]
    for what, count, i in (("G", m, 1), ("H", p, 2)):
        item = parts[i] if i < len(parts) else None
        if count == 0:
            if item is not None and size(item) != 0:
                raise ValueError(f"{label}: returned {what} with values but the problem has "
                                 f"{'n_ineq' if what == 'G' else 'n_eq'}=0; expected {expected}")
            out.append(None)
        elif item is None:
            raise TypeError(f"{label}: returned no {what} ({'inequality' if what == 'G' else 'equality'} values, "
                            f"{count} per individual); expected {expected}")
        else:
            out.append(convert(what, item, count))
    return out[0], out[1], out[2]


def _coerce(label: str, value: Any, n: int, m: int, p: int) -> Tuple[np.ndarray, Optional[np.ndarray],
                                                                       Optional[np.ndarray]]:
    """What ``fn`` returned as (f, G, H): float64, C order, shapes (n,), (n, m), (n, p) (None for a zero
    count). Called by the native side when the return value is not already exactly that."""
    expected = _expected(m, p)
    return _parts(label, value, m, p, np.size,
                  lambda what, item, cols: _array(label, what, item, n, cols, expected))


def _call_device(label: str, fn: Callable[[Any], Any], X: Any, f_out: Any, G_out: Any, H_out: Any) -> None:
    """backend="cuda": ``fn(X)`` with ``X`` the engine's (n, d) rows as a float64 (int32) CUDA tensor (no copy); what it
    returned is checked as for the CPU backends and copied into the engine's objective (n,) and constraint
    buffers (n, m), (n, p) -- CUDA tensors over the device memory, None for a zero count -- then the device is
    synchronized, so the engine reads complete values. Called by the native side once per generation."""
    import torch

    n = int(X.shape[0])
    m = 0 if G_out is None else int(G_out.shape[1])
    p = 0 if H_out is None else int(H_out.shape[1])
    expected = _expected(m, p)

    def size(item: Any) -> int:
        return int(item.numel()) if isinstance(item, torch.Tensor) else int(np.size(item))

    def tensor(what: str, item: Any, cols: int) -> Any:
        if not isinstance(item, torch.Tensor):  # the CPU path's checks and messages (dtype, not an array)
            item = _array(label, what, item, n, cols, expected)
        try:
            t = torch.as_tensor(item, device=X.device)  # a CPU array or tensor is copied to the device
        except Exception as e:
            raise TypeError(f"{label}: returned {what} of type {type(item).__name__}, not an array ({e}); "
                            f"expected {expected}") from None
        if t.is_complex() or t.dtype == torch.bool:
            raise TypeError(f"{label}: returned {what} of dtype {t.dtype}; expected real numbers (float64; "
                            f"{expected})")
        return t.reshape(_shape(label, what, tuple(t.shape), n, cols, expected))

    f, G, H = _parts(label, fn(X), m, p, size, tensor)
    f_out.copy_(f)
    if G is not None:
        G_out.copy_(G)
    if H is not None:
        H_out.copy_(H)
    torch.cuda.synchronize(X.device)


def _as_torch(fn: Callable[[Any], Any]) -> Callable[[np.ndarray], Any]:
    """``fn`` called with ``torch.from_numpy(X)``: a CPU tensor on the same memory (no copy)."""
    import warnings

    import torch

    first = [True]

    def call(X: np.ndarray) -> Any:
        if first[0]:  # PyTorch warns once per process that X is read-only: said in BatchProblem's docstring
            first[0] = False
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
                t = torch.from_numpy(X)
        else:
            t = torch.from_numpy(X)
        return fn(t)

    return call


class BatchProblem:
    """A problem evaluated by one call of ``fn`` over the whole population (NumPy- or PyTorch-vectorised).

    Parameters
    ----------
    fn : callable
        ``fn(X)`` with ``X`` the population, shape ``(n, d)``, float64 (int32 with ``integer=True``), C order: a
        read-only NumPy array that
        is a view of the engine's own gene buffer (no copy; ``X.flags.writeable`` is False, ``X.flags.owndata``
        False). ``X`` is valid during the call only: copy it (``X.copy()``) to keep it. ``n`` is the population
        size for initial populations and DE, ``population - elitism`` for the GA's offspring. It returns
        ``f`` (m = p = 0), ``(f, G)`` or ``(f, G, H)`` -- only a ``tuple`` is read as parts; anything else is
        ``f`` -- each array-like (NumPy array, list, CPU ``torch.Tensor`` through DLPack or ``__array__``) of
        real numbers: ``f`` the objective, shape ``(n,)``; ``G`` the inequality values g_j(x) <= 0, shape
        ``(n, n_ineq)``; ``H`` the equality values h_j(x) = 0 (feasible when ``|h| <= equality_tolerance``),
        shape ``(n, n_eq)``; ``(n,)`` is accepted for a single column. Raw values, not violations: the engine
        computes violations and ranks. NaN is allowed and ranks the individual worst. float64 C-ordered
        returns are copied without running Python code; others are converted (``numpy.asarray``).
    bounds : sequence of (lower, upper) pairs, or array of shape (d, 2)
        The genes' inclusive box bounds, finite, lower <= upper; d = len(bounds) >= 1. With ``integer=True``,
        integers in int32's range.
    n_ineq, n_eq : int, optional
        The number of inequality (m) and equality (p) constraints, >= 0 (default 0).
    sense : {"minimize", "maximize"}, optional
    names : sequence of str, optional
        d gene names for ``Result.genes`` (default ``x[0]``, ``x[1]``, ...).
    name : str, optional
        The problem's name in results (default ``python:<fn's qualified name>``).
    integer : bool or sequence of d bool, optional
        ``True``: integer genes: ``X`` is int32, each gene one of the integers of its bounds, and the run
        is the GA with the integer operators (uniform crossover, uniform-reset mutation, as for the integer
        built-ins; ``algorithm="auto"`` picks it, ``"de"`` is a ConfigError: DE needs real genes).
        ``Result.x`` is then int64.
        A sequence of d booleans: a mixed-integer problem (pymoo's mixed variables, pagmo's integer part). ``X``
        stays float64; the marked genes are integer variables that the engine keeps integral (each integer of
        the bounds equally likely initially, rounded half up after every variation step), so every real-gene
        algorithm runs (SHADE, DE, the GA with SBX). Their bounds must be integers within +-2^51 spanning fewer
        than 2^32 values. ``False`` (default) or all ``False``: real genes.
    array : {"numpy", "torch"}, optional
        ``"torch"`` hands ``X`` as ``torch.from_numpy(X)``: a CPU float64 (int32) ``torch.Tensor`` sharing the engine's
        buffer (no copy; PyTorch has no read-only tensors: do not write to it). With ``backend="cuda"``
        (``array="torch"`` only) ``X`` is a float64 (int32) CUDA tensor on the run's device over the engine's own
        device rows (no copy, valid during the call only); ``fn`` may return CUDA or CPU tensors or arrays, which
        are copied into the engine's device buffers, then the device is synchronized. ``backend="auto"`` runs
        batch problems on tbb. Double precision only.

    Raises
    ------
    TypeError
        ``fn`` not callable, counts not integers.
    ConfigError
        Bad bounds (shape, non-finite, lower > upper, not integers with ``integer=True`` or on a marked gene),
        ``integer`` a sequence of other than d booleans, negative counts,
        names not d distinct non-empty strings, unknown sense
        or array. At solve(): ``backend="cuda"`` with ``array="numpy"``,
        ``precision="float"``, or the gradient repair
        (``constraint_handling={"gradient_repair": {"rate": ...}}`` above 0: it needs per-individual
        constraints; ``algorithm="auto"`` never chooses it here).
    ImportError
        ``array="torch"`` without PyTorch.

    During solve(), a return value of the wrong shape or dtype raises TypeError/ValueError naming ``fn``, what
    it returned and what was expected; any exception raised by ``fn`` propagates unchanged out of solve()
    (no result). Ctrl-C while ``fn`` runs stops the run at the end of that generation (stop reason
    ``"interrupted"``): that generation's individuals are left unevaluated (NaN, ranked worst) and the
    result is the best found before (a notice in ``Result.notices`` says so). ``fn`` runs on the thread that
    called solve(), with the GIL held, never concurrently. One solve() at a time per BatchProblem.
    """

    __slots__ = ("fn", "bounds", "n_ineq", "n_eq", "sense", "names", "name", "integer", "array", "_spec")

    def __init__(
        self,
        fn: Callable[[Any], Any],
        bounds: Any,
        *,
        n_ineq: int = 0,
        n_eq: int = 0,
        sense: str = "minimize",
        names: Optional[Sequence[str]] = None,
        name: Optional[str] = None,
        integer: Union[bool, Sequence[bool]] = False,
        array: str = "numpy",
    ) -> None:
        if not callable(fn):
            raise TypeError(f"BatchProblem(fn=...): expected a callable fn(X), got {type(fn).__name__}")
        for arg, value in (("n_ineq", n_ineq), ("n_eq", n_eq)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"BatchProblem({arg}=...): expected an integer >= 0, got {type(value).__name__}")
        try:
            b = np.asarray(bounds, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise _core.ConfigError(f"BatchProblem(bounds=...): expected (lower, upper) pairs or a (d, 2) array "
                                    f"of numbers: {e}") from None
        if b.ndim != 2 or b.shape[1] != 2 or b.shape[0] < 1:
            raise _core.ConfigError(f"BatchProblem(bounds=...): expected (lower, upper) pairs or a (d, 2) array "
                                    f"with d >= 1, got shape {b.shape}")
        marks = []  # the integer variables among real genes
        if not isinstance(integer, (bool, np.bool_)):
            if isinstance(integer, (str, bytes)) or not hasattr(integer, "__len__"):
                raise TypeError(f"BatchProblem(integer=...): expected True, False or a sequence of d booleans, "
                                f"got {type(integer).__name__}")
            marks = list(integer)
            if len(marks) != b.shape[0] or not all(isinstance(v, (bool, np.bool_)) for v in marks):
                raise _core.ConfigError(f"BatchProblem(integer=...): expected True, False or a sequence of "
                                        f"d = {b.shape[0]} booleans (one per gene), got {marks!r}")
            integer = False
        if array not in ("numpy", "torch"):
            raise _core.ConfigError(f"BatchProblem(array=...): expected numpy or torch, got {array!r}")
        if array == "torch":
            try:
                import torch  # noqa: F401
            except ImportError as e:
                raise ImportError("BatchProblem(array='torch') needs PyTorch (pip install torch)") from e
        if names is not None and (isinstance(names, str) or not all(isinstance(v, str) for v in names)):
            raise _core.ConfigError("BatchProblem(names=...): expected a sequence of d strings")
        self.fn = fn
        self.bounds = b
        self.bounds.flags.writeable = False
        self.n_ineq = int(n_ineq)
        self.n_eq = int(n_eq)
        self.sense = sense
        self.names = list(names) if names is not None else None
        self.name = name if name is not None else "python:" + _fn_name(fn)
        self.integer = tuple(bool(v) for v in marks) if any(marks) else bool(integer)
        self.array = array
        self._spec = _core.BatchSpec(_as_torch(fn) if array == "torch" else fn, b[:, 0].tolist(),
                                     b[:, 1].tolist(), self.names or [], self.n_ineq, self.n_eq, sense, self.name,
                                     _coerce, f"BatchProblem(fn={_fn_name(fn)})", bool(integer),
                                     [int(v) for v in marks] if any(marks) else [],
                                     fn if array == "torch" else None, _call_device)

    # The problem-object protocol of solve() (docs/python.md, "Extending"): no problem: section; the options are
    # parsed for this spec (parse_batch_config) and the run goes through run_batch.
    def _add_to(self, plan: ConfigPlan) -> None:
        pass

    def _parse(self, plan: ConfigPlan) -> Any:
        return parse(plan, lambda text, source, overrides: _core.parse_batch_config(self._spec, text, source,
                                                                                     overrides))

    def _run(self, config: Any, hook: Any, **checkpoints: Any) -> Any:
        return _core.run_batch(self._spec, config, hook, **checkpoints)

    @property
    def dimension(self) -> int:
        """d, the number of genes."""
        return int(self.bounds.shape[0])

    def __repr__(self) -> str:
        return (f"BatchProblem(fn={_fn_name(self.fn)}, d={self.dimension}, n_ineq={self.n_ineq}, n_eq={self.n_eq}, "
                f"sense={self.sense!r}, name={self.name!r}, integer={self.integer}, array={self.array!r})")
