"""The schema now lives with the language (game/language/schema.py); this door stays for callers outside the engine."""
from game.language.schema import *  # noqa: F401,F403
