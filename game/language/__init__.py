"""Wyrmdex's effect language: the ground floor every other part of the house reads.

`vocabulary` names the game's nouns once; `words` declares each word of the language once; `schema` validates,
`render` writes English, `walk` walks nested effects, all derived from those declarations. Nothing here imports the
engine, Django or the catalogue (tests/engine/test_imports.py checks).
"""
