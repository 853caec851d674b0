"""Engine tests are pure Python. Their long fuzz runs (marked slow) run only when asked for with `-m slow`."""
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long fuzz run: use -m slow")
    for item in items:
        if "slow" in item.keywords and HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)
