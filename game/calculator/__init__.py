"""The score calculator: input checking, scoring through the engine, saved sheets and statistics."""
