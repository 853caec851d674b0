"""The code passes the linter as configured in pyproject.toml (ruff: unused and undefined names, statement errors,
import order), so a stray import or a name that is never defined fails the suite, not a reader later."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    try:
        import ruff  # noqa: F401  (installed with the dev extras)
    except ImportError:
        if shutil.which("ruff") is None:
            pytest.fail("ruff is not installed: pip install -e .[dev]")
    found = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                           cwd=ROOT, capture_output=True, text=True)
    assert found.returncode == 0, found.stdout + found.stderr
