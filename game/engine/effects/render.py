"""The renderer now lives with the language (game/language/render.py); this door stays for callers outside the engine."""
from game.language.render import *  # noqa: F401,F403
