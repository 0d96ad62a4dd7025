"""solve()'s arguments -> a parsed run configuration, through the same parser and validation as ga-run.

Every option becomes a ``key.path=value`` override (ga-run's ``--set``) applied to a YAML document: the
problem's file, or an empty one. Errors come back located at the Python argument that set the value
(``solve(crossover=...): ga.crossover.eta: expected a number >= 0``) or, for values from a file, at its
``file:line:col``. Shared by every problem kind: a new kind supplies a base document and overrides.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from . import _core
from ._yaml import UnwritableValue, to_yaml

__all__ = ["ConfigPlan", "ga_overrides", "parse"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Sections that are maps with a `type:`; a string stands for {type: string}.
_OPERATOR_SECTIONS = ("selection", "crossover", "mutation", "constraint_handling", "de")


@dataclass
class ConfigPlan:
    """A YAML document and the overrides to apply to it, each with the label its errors carry."""

    text: str = "{}"
    source: str = "solve()"
    overrides: List[Tuple[str, str]] = field(default_factory=list)  # (label, "key.path=value")

    def set(self, label: str, path: str, value: Any) -> None:
        try:
            text = to_yaml(value)
        except UnwritableValue as e:
            raise _core.ConfigError(f"{label}: {path}: {e}") from None
        self.overrides.append((label, f"{path}={text}"))

    def set_expressions(self, label: str, path: str, value: Any) -> None:
        """Like ``set`` for an expression string or a list of them, always double-quoted (a YAML string
        whatever its text); the parser gives an error's column within the string."""
        if isinstance(value, str):
            self.overrides.append((label, f"{path}={json.dumps(value, ensure_ascii=False)}"))
            return
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            self.set(label, path, value)  # the parser says what it expected
            return
        pieces = [json.dumps(v, ensure_ascii=False) for v in value]
        self.overrides.append((label, f"{path}=[{', '.join(pieces)}]"))


def _relabel(message: str, plan: ConfigPlan) -> str:
    """The parser's ``--set TEXT: `` prefix replaced by the argument's label (an error inside an expression
    given as an override reads ``LABEL: problem.objective: column C: ...``)."""
    for label, text in reversed(plan.overrides):
        for prefix in ("--set " + text + ": ", "--set '" + text + "': "):
            if message.startswith(prefix):
                return label + ": " + message[len(prefix):]
    return message


def parse(plan: ConfigPlan, parser: Any = None) -> "_core.RunConfig":
    """Parses ``plan`` with ``parser(text, source, overrides)`` (default ``_core.parse_config``); raises
    ConfigError (or BackendUnavailable) with the argument's label."""
    try:
        return (parser or _core.parse_config)(plan.text, plan.source, [text for _, text in plan.overrides])
    except _core.ConfigError as e:
        message = _relabel(str(e), plan)
        raise type(e)(message) from None


def ga_overrides(plan: ConfigPlan, fn: str, options: Dict[str, Any]) -> None:
    """Adds the run options of solve() (already without the problem) to ``plan``: ``backend``, ``precision``,
    ``threads``, ``device`` at the top level, ``stop`` key by key under ``stop:``, everything else under ``ga:``.
    None means "not given" (the file's value, or the default)."""
    for name, value in options.items():
        if value is None:
            continue
        label = f"{fn}({name}=...)"
        if not _NAME.match(name):
            raise _core.ConfigError(f"{label}: not an option name")
        if name in ("backend", "precision", "threads", "device"):
            plan.set(label, name, value)
        elif name == "stop":
            if isinstance(value, dict):  # rule by rule: the file's other stop rules stay
                for key, rule in value.items():
                    if not isinstance(key, str) or not _NAME.match(key):
                        raise _core.ConfigError(f"{label}: stop: not a key: {key!r}")
                    plan.set(label, f"stop.{key}", rule)
            else:
                plan.set(label, "stop", value)  # the parser says what it expected
        else:
            if name in _OPERATOR_SECTIONS and isinstance(value, str):
                value = {"type": value}
            elif name == "islands":
                value = _island_sections(value)
            plan.set(label, f"ga.{name}", value)


def _island_sections(islands: Any) -> Any:
    """``islands=`` with each variant's operator sections given as strings made ``{"type": string}``, as
    solve()'s own (anything else is left for the parser to judge)."""
    if not isinstance(islands, dict) or not isinstance(islands.get("variants"), (list, tuple)):
        return islands
    variants = [{k: ({"type": v} if k in _OPERATOR_SECTIONS and isinstance(v, str) else v) for k, v in variant.items()}
                if isinstance(variant, dict) else variant for variant in islands["variants"]]
    return dict(islands, variants=variants)


def is_config_path(problem: Any) -> bool:
    """Whether ``problem`` names a YAML config file rather than a built-in problem."""
    if isinstance(problem, os.PathLike):
        return True
    if not isinstance(problem, str):
        return False
    if any(p["name"] == problem for p in _core.problems()):
        return False
    return problem.endswith((".yaml", ".yml")) or os.path.isfile(problem)
