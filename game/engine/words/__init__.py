"""Every word of the effect language, one handler each. Importing this package registers them all.

To add a word: create a module here, decorate its handler with `@word("name")` (and a `@can("name")` check if
the word can have nothing to do), and import the module below.
"""
from . import cards, control, fledglings, items, scoring  # noqa: F401
