"""The Wyrmspan rules engine: pure Python, no Django import (tests/engine/test_purity.py checks)."""
