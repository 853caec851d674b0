"""Engine tests are pure Python. Long fuzz runs (marked slow) run only when asked for with `-m slow`."""
import pytest


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long fuzz run: use -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
