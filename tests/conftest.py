"""Shared fixtures. Engine tests need no database; web tests load the catalogue once per session."""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("WYRMDEX_SHARED_DATA", ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data():
    """The reference transcriptions, or a skip with the reason when they are not beside the clone."""
    if not (SHARED_DATA / "base-game" / "dragon_cards.json").exists():
        pytest.skip(f"reference data not found at {SHARED_DATA}; set WYRMDEX_SHARED_DATA to compare")
    return SHARED_DATA
