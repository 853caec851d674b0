"""The analysis board: any position, any action or ability tried for any seat, step by step (docs/analysis.md)."""
