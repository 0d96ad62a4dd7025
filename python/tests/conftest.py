"""Shared fixtures: the repository root and ga-run (for parity tests)."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    return ROOT


@pytest.fixture(scope="session")
def ga_run() -> pathlib.Path:
    """build/apps/ga-run (or $FUSEDGA_GA_RUN); the parity tests are skipped without it."""
    path = pathlib.Path(os.environ.get("FUSEDGA_GA_RUN", ROOT / "build" / "apps" / "ga-run"))
    if not path.is_file():
        pytest.skip(f"ga-run not built at {path} (bash scripts/build.sh ga-run)")
    return path


@pytest.fixture(autouse=True)
def sigint_reaches_python():
    """Python's KeyboardInterrupt handler for SIGINT during each test. A shell starts background jobs with
    SIGINT ignored, and Python then leaves it ignored: the Ctrl-C tests would wait for a signal that never
    arrives (`bash scripts/test.sh &` in a script, some CI runners)."""
    import signal

    before = signal.getsignal(signal.SIGINT)
    if before == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if before == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
