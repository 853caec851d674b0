"""Decisions: small frozen values a player picks from `state.legal_options()`, and the two ways to get one wrong."""
from typing import NamedTuple

from ..language.questions import EXCHANGE_ANYWHERE, render_question


class MalformedDecision(ValueError):
    """The input could not be read as a decision at all."""


class IllegalDecision(ValueError):
    """The input is a decision, but the rules forbid it now; the message says what was tried and why not."""


class Option(NamedTuple):
    """One legal choice: a kind ("entice", "yes", "space", ...) and flat arguments (ints and strings)."""

    kind: str
    args: tuple = ()

    def to_dict(self):
        return {"kind": self.kind, "args": list(self.args)}

    @classmethod
    def from_dict(cls, data):
        if isinstance(data, Option):
            return data
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise MalformedDecision('a decision is an object such as {"kind": "pass", "args": []}')
        args = data.get("args", [])
        if not isinstance(args, (list, tuple)) or not all(
                isinstance(a, (int, str)) and not isinstance(a, bool) for a in args):
            raise MalformedDecision("a decision's args must be a list of numbers and words")
        unknown = set(data) - {"kind", "args", "label", "info"}  # an option as listed may be sent back whole
        if unknown:
            raise MalformedDecision(f"a decision has no field {sorted(unknown)[0]!r}")
        return cls(data["kind"], tuple(args))


class Pending(NamedTuple):
    """Who must decide, what kind of question it is (game/language/questions.py declares each kind and its data),
    its data (plain JSON: the card or ability concerned, counts left, ...), and the legal options in a stable order."""

    player: int
    kind: str
    data: dict
    options: tuple

    @property
    def answers(self):
        """The question's own options, without the exchanges a question of an EXCHANGE_ANYWHERE kind offers beside
        them (the player may always exchange first; bots answer the question itself)."""
        if self.kind not in EXCHANGE_ANYWHERE:
            return self.options
        return tuple(o for o in self.options if o.kind != "exchange")

    @property
    def prompt(self):
        """The question in plain English, rendered from its kind and data when asked for."""
        return render_question(self.kind, self.data)
