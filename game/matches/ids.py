"""How a match is named: by its primary key inside the site (services, tasks, bots, the log) and by its public id
outside it (every URL, the API's `id`, emails, records).

Primary keys count up, so anyone could read match 4 by trying 4. A public id is drawn at random from an alphabet
without look-alike characters (no 0/o, 1/l/i): 12 of its 31 characters are about 59 bits, far past guessing, and
short enough to read out. The id names a match; it does not by itself let anyone watch a private one
(game/matches/access.py decides that).

Doors: `new_public_id()` draws one (the model's default), `lookup(key)` is the filter that finds a match by either
name, and `MatchIdConverter` is the URL converter `<match:...>` (registered in game/urls.py).
"""
import re
import secrets

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
LENGTH = 12
PATTERN = f"[{ALPHABET}]{{{LENGTH}}}"
_WHOLE = re.compile(PATTERN)


def new_public_id():
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def is_public_id(value):
    return isinstance(value, str) and _WHOLE.fullmatch(value) is not None


def lookup(key):
    """The filter finding a match by its key: a public id (text, from a URL or a token) or a primary key (a whole
    number, inside the site). Text that is no public id finds nothing, whatever digits it holds, so an old numeric
    URL never reaches a match."""
    if isinstance(key, str):
        return {"public_id": key}
    return {"pk": key}


class MatchIdConverter:
    """`<match:name>` in a URL: a public id (an old numeric id does not match the pattern, so it is a 404). Reversing
    takes a match or its public id."""

    regex = PATTERN

    def to_python(self, value):
        return value

    def to_url(self, value):
        value = getattr(value, "public_id", value)
        if not is_public_id(value):
            raise ValueError(f"{value!r} is not a match's public id")
        return value
