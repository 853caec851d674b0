"""The ability-resolution checker: build a small situation, run one card's ability through the engine step by step,
and say what may happen (every legal option) and what may not (the engine's refusals).

`cards`, `situation` and `resolve` are pure Python over the engine; `catalogue` reads the database and `services`
is what the page and the API call.
"""
