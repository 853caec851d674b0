"""The card query language: `cave:crimson size:large vp>=5 cost.meat>=1 trait:shy kind:if_activated tuck -cost.milk`.

`parse(text)` turns a query into a small tree (`And`, `Or`, `Not`, `Term`, `Text`) or raises `QueryError` saying
where the query broke and what was expected there. `compile_query(tree, model)` turns the tree into a Django `Q`
for one card model; a field that a model does not have (a cave card has no size) matches none of its cards, so
`size:large` finds no cave cards and `-size:large` finds all of them. The grammar and every field are documented in
docs/query-language.md and on the /cards/help/ page.
"""
import re
from dataclasses import dataclass, field

from django.db.models import Q

from cardsite.catalogue.models import CAVES, AbilityKind, Dragon, Expansion, Printing, Size, Trait
from game.language.vocabulary import FEEDS_ON, PRINTED_COST_ITEMS
from game.language.words import SEARCH_WORDS as LANGUAGE_WORDS

MAX_LENGTH = 300
MAX_TERMS = 40
MAX_DEPTH = 12

_FIELD_RE = re.compile(r"([A-Za-z_][A-Za-z_.]*)(>=|<=|!=|:|=|>|<)")
_PLAIN_WORD_RE = re.compile(r"[^\W_]+")
_SPECIAL = set('()"') | {" ", "\t", "\n", "\r"}


class QueryError(ValueError):
    """A query that cannot be read; `position` is the 0-based character where it went wrong."""

    def __init__(self, message, position, expected=None):
        self.position = position
        self.expected = expected
        text = f"{message} (at character {position + 1})"
        if expected:
            text += f"; expected {expected}"
        super().__init__(text)


# --- the tree -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Term:
    field: str
    op: str
    value: object  # a tuple of choices, an int, a (low, high) range, or a string
    position: int
    value_position: int = field(default=-1, compare=False)


@dataclass(frozen=True)
class Text:
    """Bare words or a quoted phrase, matched against the name and the rendered ability text."""

    text: str
    phrase: bool
    position: int


@dataclass(frozen=True)
class Not:
    child: object


@dataclass(frozen=True)
class And:
    children: tuple


@dataclass(frozen=True)
class Or:
    children: tuple


# --- fields ---------------------------------------------------------------------------------------------------

CAVE_NAMES = {
    "crimson": "crimson_cavern", "crimson_cavern": "crimson_cavern", "cavern": "crimson_cavern",
    "golden": "golden_grotto", "golden_grotto": "golden_grotto", "grotto": "golden_grotto", "gold": "golden_grotto",
    "amethyst": "amethyst_abyss", "amethyst_abyss": "amethyst_abyss", "abyss": "amethyst_abyss",
}
KIND_NAMES = {
    **{kind: kind for kind in AbilityKind.values},
    "played": "when_played", "activated": "if_activated", "round": "once_per_round", "end": "end_game",
    "endgame": "end_game", "none": "",
}
EFFECT_WORDS = LANGUAGE_WORDS  # declared once, in the effect language
COST_FIELDS = PRINTED_COST_ITEMS

NUMBER_FIELDS = {
    "vp": "vp",
    "capacity": "capacity",
    "nests": "capacity",
    "cost": "cost_total",
    "cost.total": "cost_total",
    "number": "number",
    **{f"cost.{item}": f"cost_{item}" for item in COST_FIELDS},
}
CHOICE_FIELDS = {
    "size": {value: value for value in Size.values},
    "trait": {value: value for value in Trait.values},
    "kind": KIND_NAMES,
    "printing": {value: value for value in Printing.values},
    "feeds": {food: food for food in FEEDS_ON},
    "type": {"dragon": "dragon", "dragons": "dragon", "cave": "cave", "caves": "cave", "guild": "guild",
             "guilds": "guild", "objective": "objective", "objectives": "objective"},
    "does": {word: word for word in EFFECT_WORDS},
}
OPEN_FIELDS = ("expansion", "name", "text")
FIELD_ALIASES = {"habitat": "cave", "exp": "expansion", "is": "size", "nest": "nests", "total": "cost"}
KNOWN_FIELDS = tuple(sorted(set(NUMBER_FIELDS) | set(CHOICE_FIELDS) | set(OPEN_FIELDS) | {"cave"}))


def is_plain_word(text):
    """A run of letters and digits only: matched as the start of a word, not as a phrase."""
    return _PLAIN_WORD_RE.fullmatch(text) is not None


def _known_fields_text():
    return ", ".join(KNOWN_FIELDS)


# --- tokens ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Token:
    kind: str   # "(", ")", "-", "or", "and", "not", "word", "phrase", "end"
    text: str
    position: int


def tokenize(text):
    tokens = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char.isspace():
            i += 1
        elif char in "()":
            tokens.append(Token(char, char, i))
            i += 1
        elif char == "-" and (_may_start_term(text, i) or (tokens and tokens[-1].kind == "-"
                                                           and tokens[-1].position == i - 1)):
            if i + 1 == n or text[i + 1].isspace() or text[i + 1] == ")":
                raise QueryError("'-' needs a term right after it, with no space", i, "a term after '-'")
            tokens.append(Token("-", "-", i))
            i += 1
        elif char == '"':
            end = text.find('"', i + 1)
            if end == -1:
                raise QueryError("this quote is never closed", i, 'a closing "')
            tokens.append(Token("phrase", text[i + 1:end], i))
            i = end + 1
        else:
            start = i
            while i < n and text[i] not in _SPECIAL:
                i += 1
            word = text[start:i]
            # A field whose value is quoted: name:"fire drake".
            if i < n and text[i] == '"' and _FIELD_RE.fullmatch(word):
                end = text.find('"', i + 1)
                if end == -1:
                    raise QueryError("this quote is never closed", i, 'a closing "')
                word = word + text[i:end + 1]
                i = end + 1
            lowered = word.lower()
            kind = lowered if lowered in ("or", "and", "not") else "word"
            tokens.append(Token(kind, word, start))
    tokens.append(Token("end", "", n))
    return tokens


def _may_start_term(text, i):
    return i == 0 or text[i - 1].isspace() or text[i - 1] == "("


# --- parser ---------------------------------------------------------------------------------------------------

class _Parser:
    def __init__(self, text):
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0
        self.terms = 0

    @property
    def token(self):
        return self.tokens[self.index]

    def advance(self):
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self):
        if self.token.kind == "end":
            return And(())
        tree = self.parse_or(0)
        if self.token.kind != "end":
            if self.token.kind == ")":
                raise QueryError("this ')' closes nothing", self.token.position, "a term, 'or', or the end")
            raise QueryError(f"unexpected {self.token.text!r}", self.token.position, "a term, 'or', or the end")
        return tree

    def parse_or(self, depth):
        if depth > MAX_DEPTH:
            raise QueryError(f"the query nests deeper than {MAX_DEPTH} levels", self.token.position)
        children = [self.parse_and(depth)]
        while self.token.kind == "or":
            self.advance()
            if self.token.kind in ("end", ")", "or"):
                raise QueryError("'or' needs something on its right", self.token.position, "a term after 'or'")
            children.append(self.parse_and(depth))
        return children[0] if len(children) == 1 else Or(tuple(children))

    def parse_and(self, depth):
        children = []
        while self.token.kind not in ("end", ")", "or"):
            if self.token.kind == "and":
                self.advance()
                if self.token.kind in ("end", ")", "or"):
                    raise QueryError("'and' needs something on its right", self.token.position,
                                     "a term after 'and'")
                continue
            children.append(self.parse_unary(depth))
        if not children:
            if self.token.kind == ")" and depth == 0:
                raise QueryError("this ')' closes nothing", self.token.position, "a term before it")
            raise QueryError("nothing to search for here", self.token.position, "a term")
        return children[0] if len(children) == 1 else And(tuple(children))

    def parse_unary(self, depth):
        token = self.token
        if token.kind in ("-", "not"):
            self.advance()
            if self.token.kind in ("end", ")", "or"):
                raise QueryError(f"{token.text!r} needs a term right after it", self.token.position,
                                 f"a term after {token.text!r}")
            if depth > MAX_DEPTH:
                raise QueryError(f"the query nests deeper than {MAX_DEPTH} levels", token.position)
            return Not(self.parse_unary(depth + 1))
        if token.kind == "(":
            self.advance()
            if self.token.kind == ")":
                raise QueryError("these parentheses are empty", self.token.position, "a term inside '( )'")
            inner = self.parse_or(depth + 1)
            if self.token.kind != ")":
                raise QueryError("this '(' is never closed", token.position, "')'")
            self.advance()
            return inner
        self.advance()
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise QueryError(f"the query has more than {MAX_TERMS} terms", token.position)
        if token.kind == "phrase":
            if not token.text.strip():
                raise QueryError("this quoted phrase is empty", token.position, "words inside the quotes")
            return Text(" ".join(token.text.split()), phrase=True, position=token.position)
        return parse_word(token.text, token.position)


def parse_word(word, position):
    match = _FIELD_RE.match(word)
    if match:
        name, op = match.group(1).lower(), match.group(2)
        raw = word[match.end():]
        value_position = position + match.end()
        if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
            raw = raw[1:-1]
            value_position += 1
        return _term(name, op, raw, position, value_position)
    lowered = word.lower()
    if lowered.startswith("cost.") or lowered in ("cost", "cost.total"):
        # A bare cost field means "costs at least one of it": `-cost.milk` is a dragon with no milk in its cost.
        if lowered not in NUMBER_FIELDS:
            raise QueryError(f"unknown field {word!r}; known fields: {_known_fields_text()}", position,
                             "a known field")
        return Term(lowered, ">=", 1, position)
    if any(op in word for op in (">", "<", "=")) or word.endswith(":"):
        raise QueryError(f"cannot read {word!r} as a field and a value", position,
                         "a field, an operator (: = != > >= < <=) and a value, e.g. vp>=5")
    return Text(word, phrase=not _PLAIN_WORD_RE.fullmatch(word), position=position)


def _term(name, op, raw, position, value_position):
    name = FIELD_ALIASES.get(name, name)
    if name not in KNOWN_FIELDS:
        raise QueryError(f"unknown field {name!r}; known fields: {_known_fields_text()}", position, "a known field")
    if raw == "":
        raise QueryError(f"{name}{op} needs a value", value_position, _expected_value(name))
    if name in NUMBER_FIELDS:
        return Term(name, op, _number_value(name, op, raw, value_position), position)
    if op not in (":", "=", "!="):
        raise QueryError(f"{name} cannot be compared with {op!r}", position + len(name),
                         "':' '=' or '!=' for this field")
    if name in ("name", "text"):
        return Term(name, op, raw, position)
    if name == "cave":
        return Term(name, op, _cave_value(raw, value_position), position)
    if name == "expansion":
        values = tuple(part.lower() for part in raw.split(","))
        if any(not re.fullmatch(r"[a-z0-9_-]+", part) for part in values):
            raise QueryError(f"{raw!r} is not an expansion name", value_position, "an expansion such as base, academy")
        return Term(name, op, values, position, value_position)
    choices = CHOICE_FIELDS[name]
    values = []
    offset = value_position
    for part in raw.split(","):
        key = part.lower()
        if key not in choices:
            raise QueryError(f"{part!r} is not a {name}; known: {', '.join(sorted(k for k in choices if k))}",
                             offset, f"one of {', '.join(sorted(k for k in choices if k))}")
        values.append(choices[key])
        offset += len(part) + 1
    return Term(name, op, tuple(values), position)


def _expected_value(name):
    if name in NUMBER_FIELDS:
        return "a whole number or a range such as 2..4"
    if name == "cave":
        return "a cave: crimson, golden, amethyst"
    if name in CHOICE_FIELDS:
        return "one of " + ", ".join(sorted(k for k in CHOICE_FIELDS[name] if k))
    return "a value"


def _number_value(name, op, raw, position):
    if ".." in raw:
        if op != ":" and op != "=":
            raise QueryError(f"a range needs ':' not {op!r}", position - len(op), "':' before a range")
        low, _, high = raw.partition("..")
        low_value = _whole_number(low, position) if low else None
        high_value = _whole_number(high, position + len(low) + 2) if high else None
        if low_value is None and high_value is None:
            raise QueryError("a range needs at least one end", position, "a range such as 2..4, 2.. or ..4")
        if low_value is not None and high_value is not None and low_value > high_value:
            raise QueryError(f"the range {raw} runs backwards", position, f"{high_value}..{low_value}")
        return (low_value, high_value)
    return _whole_number(raw, position)


def _whole_number(raw, position):
    if re.fullmatch(r"\d{5,}", raw):
        raise QueryError(f"{raw} is too large for any card", position, "a whole number below 10000")
    if not re.fullmatch(r"\d{1,4}", raw):
        raise QueryError(f"{raw!r} is not a whole number", position, "a whole number such as 3")
    return int(raw)


def _cave_value(raw, position):
    """`crimson,golden` is any of them, `crimson+golden` all of them."""
    separator = "+" if "+" in raw else ","
    if "+" in raw and "," in raw:
        raise QueryError("mix of ',' (any of) and '+' (all of)", position, "either crimson,golden or crimson+golden")
    caves = []
    offset = position
    for part in raw.split(separator):
        cave = CAVE_NAMES.get(part.lower())
        if cave is None:
            raise QueryError(f"{part!r} is not a cave; known: crimson, golden, amethyst", offset,
                             "a cave: crimson, golden, amethyst")
        caves.append(cave)
        offset += len(part) + 1
    return ("all" if separator == "+" else "any", tuple(dict.fromkeys(caves)))


def parse(text):
    """Parse a query; an empty query matches every card."""
    if text is None:
        text = ""
    if len(text) > MAX_LENGTH:
        raise QueryError(f"the query is {len(text)} characters long, more than the {MAX_LENGTH} allowed",
                         MAX_LENGTH, f"at most {MAX_LENGTH} characters")
    return _Parser(text).parse()


# --- compiling to Django --------------------------------------------------------------------------------------

NOTHING = Q(pk__in=[])
# Not Q(): Django drops an empty Q, so ~Q() would match every card too (`type!=dragon` found every dragon).
EVERYTHING = ~NOTHING


def compile_query(tree, model, text_match):
    """A Q for `model`. `text_match(field_or_None, text, phrase)` builds the text-matching Q (see search.py)."""
    if isinstance(tree, And):
        q = Q()
        for child in tree.children:
            q &= compile_query(child, model, text_match)
        return q
    if isinstance(tree, Or):
        q = NOTHING
        for child in tree.children:
            q |= compile_query(child, model, text_match)
        return q
    if isinstance(tree, Not):
        return ~compile_query(tree.child, model, text_match)
    if isinstance(tree, Text):
        return text_match(model, None, tree.text, tree.phrase)
    return _compile_term(tree, model, text_match)


def _compile_term(term, model, text_match):
    is_dragon = model is Dragon
    q = _positive_term(term, model, is_dragon, text_match)
    return ~q if term.op == "!=" else q


def _positive_term(term, model, is_dragon, text_match):
    name, op, value = term.field, term.op, term.value
    if name in NUMBER_FIELDS:
        column = NUMBER_FIELDS[name]
        if column != "number" and not is_dragon:
            return NOTHING
        if isinstance(value, tuple):
            low, high = value
            q = Q()
            if low is not None:
                q &= Q(**{f"{column}__gte": low})
            if high is not None:
                q &= Q(**{f"{column}__lte": high})
            return q
        lookup = {":": "exact", "=": "exact", "!=": "exact", ">": "gt", ">=": "gte", "<": "lt", "<=": "lte"}[op]
        return Q(**{f"{column}__{lookup}": value})
    if name == "type":
        wanted = "dragon" if is_dragon else "cave"
        return EVERYTHING if wanted in value else NOTHING
    if name == "expansion":
        known = list(Expansion.objects.order_by("id").values_list("slug", flat=True))
        unknown = [slug for slug in value if slug not in known]
        if unknown:
            raise QueryError(f"{unknown[0]!r} is not an expansion; known: {', '.join(known)}",
                             term.value_position, "one of " + ", ".join(known))
        return Q(expansion__slug__in=value)
    if name == "printing":
        return Q(printing__in=value)
    if name in ("name", "text"):
        if name == "name" and not is_dragon:
            return NOTHING
        return text_match(model, name, value, not _PLAIN_WORD_RE.fullmatch(value))
    if name == "does":
        from cardsite.catalogue.search import cards_using_words
        return Q(pk__in=cards_using_words(model, value))
    if name == "kind":
        return _kind_q(value, is_dragon)
    if not is_dragon:
        return NOTHING  # size, trait, feeds and cave belong to dragons only
    if name == "cave":
        mode, caves = value
        if op == "=":
            q = Q()
            for cave in CAVES:
                q &= Q(**{cave: cave in caves})
            return q
        q = Q() if mode == "all" else NOTHING
        for cave in caves:
            q = (q & Q(**{cave: True})) if mode == "all" else (q | Q(**{cave: True}))
        return q
    if name == "feeds":
        return Q(feeds_on__in=value)
    return Q(**{f"{name}__in": value})


def _kind_q(kinds, is_dragon):
    q = NOTHING
    for kind in kinds:
        if is_dragon:
            if kind == "":
                q |= Q(has_when_played=False, has_if_activated=False, has_once_per_round=False, has_end_game=False)
            else:
                q |= Q(**{f"has_{kind}": True})
        else:
            q |= Q(ability_kind=kind)
    return q


def ranking_texts(tree):
    """The bare words and phrases of a query that are not negated, for ranking."""
    if isinstance(tree, Text):
        return [tree.text]
    if isinstance(tree, (And, Or)):
        return [text for child in tree.children for text in ranking_texts(child)]
    return []
