"""progress=True: a tqdm bar when tqdm is installed, else one line on stderr rewritten in place."""

from __future__ import annotations

import sys
import time
from typing import Any, Optional


class Progress:
    """Shows generation k of ``total`` (None: no generation limit, as with ``stop.evaluations`` alone), the best
    objective and the feasible share. ``update`` takes a GenerationStats; ``close`` ends the display."""

    def __init__(self, total: Optional[int]) -> None:
        self.total = total
        self.shown = 0
        self.last = 0.0
        try:
            from tqdm.auto import tqdm
        except ImportError:
            self.bar: Any = None
        else:
            self.bar = tqdm(total=total, unit="gen", desc="fusedga")

    def update(self, s: Any) -> None:
        if self.bar is not None:
            if s.generation > self.shown:
                self.bar.update(s.generation - self.shown)
                self.shown = s.generation
            self.bar.set_postfix(best=f"{s.best_objective:.10g}", feasible=f"{100 * s.feasible_fraction:.1f}%",
                                 refresh=False)
            return
        now = time.monotonic()
        if s.generation != 0 and s.generation != self.total and now - self.last < 0.1:
            return
        self.last = now
        rate = s.evaluations / s.elapsed_s if s.elapsed_s > 0 else 0.0
        of = "" if self.total is None else f"/{self.total}"
        sys.stderr.write(f"\rgeneration {s.generation}{of}  best {s.best_objective:.10g}  "
                         f"feasible {100 * s.feasible_fraction:5.1f}%  {rate:.3g} evals/s   ")
        sys.stderr.flush()
        self.shown = max(self.shown, 1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
