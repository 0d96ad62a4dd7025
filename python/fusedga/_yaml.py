"""Python values as YAML flow text, for the ``key.path=value`` overrides that carry solve()'s options.

Only what the YAML schema holds is written: None, bool, int, float, str, lists/tuples, dicts with
string keys, NumPy scalars and arrays. Strings that YAML would read back as the same string are written
plain (``sbx``, ``seed/constrained-quadratic``, ``auto``), any other string double-quoted, so a Python str
is never read as a number, boolean or null.
"""

from __future__ import annotations

import json
import math
import numbers
import re
from typing import Any

__all__ = ["to_yaml"]

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./+-]*\Z")
# YAML 1.1 and 1.2 words that a plain scalar would turn into booleans or null.
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


class UnwritableValue(TypeError):
    """A value with no YAML form (the caller names the argument)."""


def _string(s: str) -> str:
    if _PLAIN.match(s) and s.lower() not in _RESERVED:
        return s
    return json.dumps(s, ensure_ascii=False)  # JSON's escapes are YAML double-quoted escapes


def _number(v: float) -> str:
    if math.isnan(v):
        return ".nan"
    if math.isinf(v):
        return ".inf" if v > 0 else "-.inf"
    return repr(float(v))  # shortest text that reads back as the same double


def to_yaml(value: Any) -> str:
    """``value`` as a YAML flow scalar, list or map. Raises UnwritableValue for other types."""
    if value is None:
        return "null"
    if isinstance(value, bool) or type(value).__name__ == "bool_":  # bool before int (bool is an int)
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return _number(float(value))
    if isinstance(value, str):
        return _string(value)
    if hasattr(value, "tolist") and hasattr(value, "ndim"):  # a NumPy array or scalar
        return to_yaml(value.tolist())
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            if not isinstance(k, str):
                raise UnwritableValue(f"a map key must be a string, got {k!r}")
            items.append(f"{_string(k)}: {to_yaml(v)}")
        return "{" + ", ".join(items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(to_yaml(v) for v in value) + "]"
    raise UnwritableValue(f"expected None, a bool, number, string, list or dict, got {type(value).__name__}")
