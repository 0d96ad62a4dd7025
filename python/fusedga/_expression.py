"""fusedga.Expression: an expression problem, the ``problem:`` section of a YAML config without ``builtin:``."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from ._options import ConfigPlan

__all__ = ["Expression"]

Bounds = Union[Tuple[float, float], Sequence[float]]
VariableSpec = Union[Bounds, Mapping[str, Any]]


class Expression:
    """A problem written as expressions, evaluated by the CPU JIT (compiled C++), the interpreter, or on the
    GPU by the GPU JIT -- the same as a YAML expression problem (docs/expressions.md).

    Parameters
    ----------
    variables : dict
        ``name -> (lower, upper)`` for a real scalar gene, or ``name -> {"size": n, "bounds": (lower, upper)}``
        for a vector ``name[0] .. name[n-1]`` (0-based in expressions). Bounds are inclusive box constraints.
        ``"integer": True`` in the dict form (``{"bounds": (1, 70), "integer": True}`` for a scalar) makes an
        integer variable: it takes the integers within its bounds, and the engine keeps its genes integral; for
        a vector, a list of n booleans marks single elements (``"integer": [False, True, True]``).
    objective : str
        The objective, e.g. ``"x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z"``.
    constraints : list of str, optional
        Each ``"lhs <= rhs"``, ``"lhs >= rhs"`` or ``"lhs == rhs"`` (an equality holds when
        ``|lhs - rhs| <= ga.constraint_handling.equality_tolerance``).
    sense : {"minimize", "maximize"}, optional
        Default ``"minimize"``.
    constants : dict, optional
        ``name -> number``, usable in the expressions, or ``name -> list of numbers`` (or a 1-D NumPy array):
        a table constant, e.g. standard wire diameters, read as ``T[e]``: ``e`` may be any expression, rounded
        half up (entry ``floor(e + 0.5)``, 0-based); outside the table the value is NaN. At most 65,536
        entries.
    name : str, optional
        The problem's name in results.
    engine : {"auto", "jit", "interpreter"}, optional
        How it is evaluated on the CPU; ``auto`` (the default) takes the JIT when a C++ compiler is usable.

    Nothing is checked here: ``solve`` parses it and raises ``ConfigError`` located at the field, e.g.
    ``Expression(objective=...): problem.objective: column 5: unknown name 'q'; the names here are 'x', pi and e``.
    """

    __slots__ = ("variables", "objective", "constraints", "sense", "constants", "name", "engine")

    def __init__(
        self,
        variables: Mapping[str, VariableSpec],
        objective: str,
        constraints: Optional[Sequence[str]] = None,
        sense: Optional[str] = None,
        constants: Optional[Mapping[str, Union[float, Sequence[float]]]] = None,
        name: Optional[str] = None,
        engine: Optional[str] = None,
    ) -> None:
        self.variables = dict(variables)
        self.objective = objective
        # A lone string stays a string, which the parser refuses as a list would be expected: list("x <= 1")
        # would make each character a constraint.
        self.constraints = list(constraints) if constraints is not None and not isinstance(constraints, str) \
            else constraints
        self.sense = sense
        self.constants = dict(constants) if constants is not None else None
        self.name = name
        self.engine = engine

    def _fields(self) -> Dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__ if getattr(self, k) is not None}

    def _add_to(self, plan: ConfigPlan) -> None:
        """The ``problem:`` section as overrides, one per field, each labelled ``Expression(field=...)``."""
        for key, value in self._fields().items():
            if key in ("objective", "constraints"):
                plan.set_expressions(f"Expression({key}=...)", f"problem.{key}", value)
            else:
                plan.set(f"Expression({key}=...)", f"problem.{key}", value)

    def __repr__(self) -> str:
        return "Expression(" + ", ".join(f"{k}={v!r}" for k, v in self._fields().items()) + ")"
