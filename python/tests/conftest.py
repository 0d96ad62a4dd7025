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
