"""What the baseline scripts (numpy_baseline.py, torch_baseline.py) share: their timings as rows of
ga-bench's JSON format, the progress line for one, and writing a JSON file atomically."""

import json
import os
import statistics


def timing_row(tier, backend, n, times_ms):
    """ga-bench's row (workload "eval", one thread) for per-call times in milliseconds."""
    median = statistics.median(times_ms)
    return {"tier": tier, "workload": "eval", "backend": backend, "threads": 1, "population": n,
            "repeats": len(times_ms), "median_ms": median, "min_ms": min(times_ms), "max_ms": max(times_ms),
            "individuals_per_s": n / (median * 1e-3)}


def print_row(label, workload, row):
    print(f"{label} {workload:22s} N = {row['population']:>9d}: {row['median_ms']:9.4f} ms median "
          f"({row['min_ms']:.4f} .. {row['max_ms']:.4f})", flush=True)


def write_json_atomic(path, data):
    """Writes `data` to `path` through a temporary file and a rename: never a half-written file."""
    with open(path + ".tmp", "w") as f:
        json.dump(data, f, indent=2)
    os.replace(path + ".tmp", path)
