"""The searchable catalogue held in memory, and query-language answers computed over it in Python.

A new query on the live search used to cost a 42-filter FilterSet with its form and two compiled SQL queries per
keystroke. With a few hundred cards it is cheaper to keep, per process and per catalogue version, every card's
facts, words and serialised representation, and to evaluate a parsed query as bit sets (bit i = the i-th card in
number order). Answers are the SQL path's card for card and in the same order (`tests/search/test_index_oracle.py`
compares both on SQLite and PostgreSQL): words match as `search.text_match` matches them, and ranking repeats
PostgreSQL's `ts_rank` in single precision, or SQLite's sum, by the database in use.

Guild tiles and objective tiles have no SQL twin: the search page's type toggle and their `q` parameter read them
from here only, with words matched in their name and row or side texts and ranked as SQLite ranks cards.
"""
import bisect
import logging
import re
import struct
import threading
from dataclasses import dataclass

from django.db import connection, connections

from cardsite.catalogue import catalogue_version, models as m, query, search

logger = logging.getLogger(__name__)
_ALNUM_RUN = re.compile(r"[^\W_]+")
_WORD_ONLY = re.compile(r"[0-9A-Za-z]+")

# PostgreSQL's ts_rank: weights D, C, B, A as single-precision floats, and the series constant of calc_rank_or.
_FLOAT = struct.Struct("f")
_ZETA2 = 1.64493406685


def _f32(value):
    """`value` rounded to single precision, as PostgreSQL's C float arithmetic rounds each step."""
    return _FLOAT.unpack(_FLOAT.pack(value))[0]


_WEIGHT_A, _WEIGHT_B = _f32(1.0), _f32(0.4)


def _ascii_safe(text):
    """True when case-insensitive matching of this text is the same under SQLite's LIKE, PostgreSQL's UPPER and
    ILIKE, Python's regex and the tsvector parser: plain ASCII."""
    return text.isascii()


def _tokens(text):
    return [token.lower() for token in _ALNUM_RUN.findall(text)]


@dataclass
class _Card:
    pk: int
    number: int
    printing: str
    expansion: str
    name: str  # "" for cave cards: they have no name field
    text: str
    name_tokens: tuple
    text_tokens: tuple
    representation: dict
    json: bytes  # the representation as the API's JSON renderer writes it
    lexemes: tuple  # (lexemes in byte order, their ts_rank terms): see _lexeme_terms


class _Field:
    """One searchable text field of every card: tokens to bit sets, for word-prefix lookups."""

    def __init__(self, texts):
        by_token = {}
        for bit, text in enumerate(texts):
            for token in set(_tokens(text)):
                by_token[token] = by_token.get(token, 0) | (1 << bit)
        self.tokens = sorted(by_token)
        self.masks = [by_token[token] for token in self.tokens]
        self.lowered = [text.lower() for text in texts]

    def prefix(self, word):
        """Cards with a word of this field starting with `word` (lower case, alnum only)."""
        mask = 0
        i = bisect.bisect_left(self.tokens, word)
        while i < len(self.tokens) and self.tokens[i].startswith(word):
            mask |= self.masks[i]
            i += 1
        return mask

    def phrase(self, text):
        lowered = text.lower()
        mask = 0
        for bit, field_text in enumerate(self.lowered):
            if lowered in field_text:
                mask |= 1 << bit
        return mask


class ModelIndex:
    """Every card of one kind (dragons, cave cards, guild tiles, objective tiles) in the model's own order."""

    def __init__(self, kind, cards, facts, known_expansions, words_by_card, postgres=False):
        self.kind = kind
        # Ranked as PostgreSQL's ts_rank (dragons and cave cards on PostgreSQL), else as SQLite's sum: fixed at build,
        # as the database of a process is.
        self.ranks_like_postgres = postgres and kind in ("dragon", "cave")
        self.cards = cards
        self.all = (1 << len(cards)) - 1
        self.known_expansions = known_expansions
        self.ascii = all(_ascii_safe(card.name) and _ascii_safe(card.text) for card in cards)
        self.name = _Field([card.name for card in cards])
        self.text = _Field([card.text for card in cards])
        self.has_name = kind in ("dragon", "guild")
        self.facts = {}  # (fact, value) -> mask
        for bit, card_facts in enumerate(facts):
            for key in card_facts:
                self.facts[key] = self.facts.get(key, 0) | (1 << bit)
        self.numbers = {}  # column -> [(value, mask)]
        if cards and kind == "dragon":
            columns = set(query.NUMBER_FIELDS.values())
        else:
            columns = {"number"}
        for column in columns:
            by_value = {}
            for bit, card_facts in enumerate(facts):
                value = _number_fact(card_facts, column)
                by_value[value] = by_value.get(value, 0) | (1 << bit)
            self.numbers[column] = sorted(by_value.items())
        self.words = {}
        for bit, words in enumerate(words_by_card):
            for word in words:
                self.words[word] = self.words.get(word, 0) | (1 << bit)
        # Every card's ts_rank terms by lexeme, for ranking all found cards in one pass per query word: (bit, the
        # term as added, and the sum it makes when it is the card's first) for each card holding the lexeme.
        postings = {}
        for bit, card in enumerate(cards):
            for lexeme, term in zip(*card.lexemes):
                postings.setdefault(lexeme, []).append((bit, term / _ZETA2, _f32(term / _ZETA2)))
        self.lexemes = sorted(postings, key=str.encode)
        self.postings = [tuple(postings[lexeme]) for lexeme in self.lexemes]
        # Ties in rank go by number, then printing: each bit's place in that order.
        by_number = sorted(range(len(cards)), key=lambda bit: (cards[bit].number, cards[bit].printing))
        self.tie_order = [0] * len(cards)
        for place, bit in enumerate(by_number):
            self.tie_order[bit] = place
        self.ties_in_bit_order = by_number == sorted(by_number)  # dragons and cave cards: bits are in number order
        # The bits set in each byte of a mask, by the byte's place: turning a mask into cards costs a step a byte.
        self._byte_bits = [[tuple(8 * place + j for j in range(8) if value >> j & 1) for value in range(256)]
                           for place in range((len(cards) + 7) // 8)]
        self._text_cache = {}
        self._lock = threading.Lock()

    # --- evaluation -------------------------------------------------------------------------------------------

    def check(self, tree):
        """Raise the QueryError the SQL path raises for an unknown expansion, at the first one in the query."""
        if isinstance(tree, (query.And, query.Or)):
            for child in tree.children:
                self.check(child)
        elif isinstance(tree, query.Not):
            self.check(tree.child)
        elif isinstance(tree, query.Term) and tree.field == "expansion":
            known = self.known_expansions
            unknown = [slug for slug in tree.value if slug not in known]
            if unknown:
                raise query.QueryError(f"{unknown[0]!r} is not an expansion; known: {', '.join(known)}",
                                       tree.value_position, "one of " + ", ".join(known))

    def mask(self, tree):
        if isinstance(tree, query.And):
            mask = self.all
            for child in tree.children:
                mask &= self.mask(child)
            return mask
        if isinstance(tree, query.Or):
            mask = 0
            for child in tree.children:
                mask |= self.mask(child)
            return mask
        if isinstance(tree, query.Not):
            return self.all & ~self.mask(tree.child)
        if isinstance(tree, query.Text):
            return self._text(None, tree.text, tree.phrase)
        positive = self._term(tree)
        return self.all & ~positive if tree.op == "!=" else positive

    def _text(self, field, text, phrase):
        key = (field, text, phrase)
        mask = self._text_cache.get(key)
        if mask is None:
            fields = []
            if field in (None, "name") and self.has_name:
                fields.append(self.name)
            if field in (None, "text"):
                fields.append(self.text)
            mask = 0
            for searched in fields:
                mask |= searched.phrase(text) if phrase else searched.prefix(text.lower())
            with self._lock:
                if len(self._text_cache) > 2000:
                    self._text_cache.clear()
                self._text_cache[key] = mask
        return mask

    def _fact(self, name, values):
        mask = 0
        for value in values:
            mask |= self.facts.get((name, value), 0)
        return mask

    def _term(self, term):
        name, op, value = term.field, term.op, term.value
        if name in query.NUMBER_FIELDS:
            pairs = self.numbers.get(query.NUMBER_FIELDS[name])
            if pairs is None:
                return 0
            if isinstance(value, tuple):
                low, high = value
                test = lambda v: (low is None or v >= low) and (high is None or v <= high)  # noqa: E731
            else:
                test = {
                    ":": value.__eq__, "=": value.__eq__, "!=": value.__eq__, ">": value.__lt__,
                    ">=": value.__le__, "<": value.__gt__, "<=": value.__ge__,
                }[op]
            mask = 0
            for number, cards in pairs:
                if test(number):
                    mask |= cards
            return mask
        if name == "type":
            return self.all if self.kind in value else 0
        if name == "expansion":
            return self._fact("expansion", value)
        if name in ("name", "text"):
            if name == "name" and not self.has_name:
                return 0
            return self._text(name, value, not query.is_plain_word(value))
        if name == "does":
            mask = 0
            for word in value:
                mask |= self.words.get(word, 0)
            return mask
        if name == "cave" and self.kind == "dragon":
            mode, caves = value
            if op == "=":
                return self._fact("caves", [tuple(cave in caves for cave in m.CAVES)])
            mask = self.all if mode == "all" else 0
            for cave in caves:
                found = self.facts.get((cave, True), 0)
                mask = (mask & found) if mode == "all" else (mask | found)
            return mask
        if name in ("printing", "kind", "size", "trait", "feeds"):
            return self._fact(name, value)
        return 0  # a field this kind of card does not have

    # --- ranking ----------------------------------------------------------------------------------------------

    def bits(self, mask):
        """The bits set in `mask`, lowest first."""
        found = []
        for place, value in enumerate(mask.to_bytes(len(self._byte_bits), "little")):
            if value:
                found += self._byte_bits[place][value]
        return found

    def order(self, mask, texts):
        """The cards of `mask` best first for the query's words, as `search.ranked` orders them; else by number."""
        cards = self.cards
        bits = self.bits(mask)
        words = [word.lower() for text in texts for word in _ALNUM_RUN.findall(text)]
        if not words:
            return [cards[bit] for bit in bits]
        if self.ranks_like_postgres:
            ranks = self._postgres_ranks(bits, words)
        else:
            ranks = {bit: self._plain_rank(cards[bit], words) for bit in bits}
        if not self.ties_in_bit_order:  # `bits` is lowest first
            bits.sort(key=self.tie_order.__getitem__)
        bits.sort(key=ranks.__getitem__, reverse=True)  # stable: equal ranks stay in number order
        return [cards[bit] for bit in bits]

    def _plain_rank(self, card, words):
        """SQLite's rank: 1 per word starting a word of the name, 0.4 per word starting a word of the text."""
        rank = 0.0
        for word in words:
            if self.has_name:
                rank += 1.0 if any(token.startswith(word) for token in card.name_tokens) else 0.0
            rank += 0.4 if any(token.startswith(word) for token in card.text_tokens) else 0.0
        return rank

    def _postgres_ranks(self, bits, words):
        """{bit: `ts_rank(setweight(name, 'A') || setweight(text, 'B'), 'w1:* | w2:*')`} for the cards `bits`:
        calc_rank_or of PostgreSQL's tsrank.c in single precision. Each lexeme starting with a query word adds its
        term (`_lexeme_terms`) to the card's sum, in the order PostgreSQL visits them: query words sorted and made
        unique, then each card's lexemes in byte order, which is the order of `self.lexemes`."""
        unique = sorted(set(words), key=str.encode)
        sums = dict.fromkeys(bits, 0.0)
        lexemes, postings = self.lexemes, self.postings
        pack, unpack = _FLOAT.pack, _FLOAT.unpack
        for word in unique:
            i = bisect.bisect_left(lexemes, word)
            while i < len(lexemes) and lexemes[i].startswith(word):
                for bit, addend, first in postings[i]:
                    total = sums.get(bit)
                    if total is None:
                        continue
                    sums[bit] = unpack(pack(total + addend))[0] if total else first  # terms are positive
                i += 1
        count = len(unique)
        if count == 1:
            return sums  # each sum is already single precision, and so is a sum divided by 1
        return {bit: unpack(pack(total / count))[0] for bit, total in sums.items()}


def _lexeme_terms(name_tokens, text_tokens):
    """(lexemes in byte order, the term each adds to ts_rank): the term depends on the weights of its positions
    only, name positions (A) before text positions (B) as `||` concatenates the two vectors."""
    counts = {}
    for token in name_tokens:
        counts.setdefault(token, [0, 0])[0] += 1
    for token in text_tokens:
        counts.setdefault(token, [0, 0])[1] += 1
    lexemes = sorted(counts, key=str.encode)
    terms = []
    for lexeme in lexemes:
        in_name, in_text = counts[lexeme]
        weights = [_WEIGHT_A] * in_name + [_WEIGHT_B] * in_text
        resj, wjm, jm = 0.0, -1.0, 0
        for j, weight in enumerate(weights):
            resj = _f32(resj + _f32(weight / ((j + 1) * (j + 1))))
            if weight > wjm:
                wjm, jm = weight, j
        terms.append(_f32(_f32(wjm + resj) - _f32(wjm / ((jm + 1) * (jm + 1)))))
    return lexemes, terms


def _number_fact(card_facts, column):
    for key in card_facts:
        if key[0] == ("#" + column):
            return key[1]
    return None


# --- building ---------------------------------------------------------------------------------------------------

def _dragon_facts(dragon):
    facts = {("printing", dragon.printing), ("expansion", dragon.expansion.slug), ("size", dragon.size),
             ("trait", dragon.trait), ("feeds", dragon.feeds_on),
             ("caves", tuple(getattr(dragon, cave) for cave in m.CAVES))}
    facts |= {(cave, getattr(dragon, cave)) for cave in m.CAVES}
    kinds = [kind for kind in m.AbilityKind.values if getattr(dragon, f"has_{kind}")]
    facts |= {("kind", kind) for kind in kinds} | ({("kind", "")} if not kinds else set())
    for column in set(query.NUMBER_FIELDS.values()):
        facts.add(("#" + column, getattr(dragon, column)))
    return facts


def _cave_facts(cave):
    return {("printing", cave.printing), ("expansion", cave.expansion.slug), ("kind", cave.ability_kind),
            ("#number", cave.number)}


def _tile_facts(tile):
    return {("expansion", tile.expansion.slug), ("#number", tile.number)}


def _build_cards(kind):
    from rest_framework.renderers import JSONRenderer

    from cardsite.catalogue import serializers as s

    render = JSONRenderer().render

    if kind == "dragon":
        rows = m.Dragon.objects.select_related("expansion", "original").order_by("number", "printing")
        serializer, facts_of = s.DragonSerializer(), _dragon_facts
        text_of = lambda card: card.ability_text  # noqa: E731
    elif kind == "cave":
        rows = m.CaveCard.objects.select_related("expansion", "original").order_by("number", "printing")
        serializer, facts_of = s.CaveCardSerializer(), _cave_facts
        text_of = lambda card: card.ability_text  # noqa: E731
    elif kind == "guild":
        rows = m.GuildTile.objects.select_related("expansion").prefetch_related("guild_abilities").order_by(
            "expansion_id", "number")
        serializer, facts_of = s.GuildTileSerializer(), _tile_facts
        text_of = lambda tile: "\n".join(row.text for row in tile.guild_abilities.all())  # noqa: E731
    else:
        rows = m.ObjectiveTile.objects.select_related("expansion").prefetch_related("sides").order_by(
            "expansion_id", "number")
        serializer, facts_of = s.ObjectiveTileSerializer(), _tile_facts
        text_of = lambda tile: "\n".join(side.text for side in tile.sides.all())  # noqa: E731
    cards, facts, words = [], [], []
    for row in rows:
        name = getattr(row, "name", "") if kind in ("dragon", "guild") else ""
        text = text_of(row)
        representation = serializer.to_representation(row)
        cards.append(_Card(
            pk=row.pk, number=row.number, printing=getattr(row, "printing", ""), expansion=row.expansion.slug,
            name=name, text=text, name_tokens=tuple(_tokens(name)), text_tokens=tuple(_tokens(text)),
            representation=representation, json=render(representation),
            lexemes=_lexeme_terms(_tokens(name), _tokens(text)),
        ))
        facts.append(facts_of(row))
        words.append(search.card_effect_words(row))  # the one reading of a card's effects, as the SQL path's
    return cards, facts, words


KINDS = {m.Dragon: "dragon", m.CaveCard: "cave", m.GuildTile: "guild", m.ObjectiveTile: "objective"}
_indexes = {}
_build_lock = threading.Lock()


def index_for(model):
    """The index of `model`'s cards for the current catalogue version, built at most once per version."""
    version = catalogue_version.current()
    kind = KINDS[model]
    key = (kind, version, connection.vendor)
    found = _indexes.get(key)
    if found is None:
        with _build_lock:
            found = _indexes.get(key)
            if found is None:
                cards, facts, words = _build_cards(kind)
                known = list(m.Expansion.objects.order_by("id").values_list("slug", flat=True))
                found = ModelIndex(kind, cards, facts, known, words, postgres=key[2] == "postgresql")
                for old in [old for old in _indexes if old[0] == kind]:
                    del _indexes[old]
                _indexes[key] = found
    return found


def prewarm():
    """Build every index now (at worker start), so the first search a worker answers is as fast as the rest."""
    for model in KINDS:
        index_for(model)


WARM_UP_PATHS = ("/api/dragons/?q=warm+up&page_size=1", "/api/caves/?q=warm+up&page_size=1",
                 "/api/guild-tiles/?q=warm&page_size=1", "/cards/?q=warm+up")


def prewarm_at_start(application):
    """For wsgi.py: build the indexes and send a few requests through `application` before the first real one, so
    the code, URL patterns and templates a search needs are loaded. A database that is not ready (not migrated, or
    not to be touched, as under pytest) is only logged: the first search then builds the index itself, and a
    worker must start whatever happens here."""
    import io
    import sys

    from django.conf import settings

    hosts = [host for host in settings.ALLOWED_HOSTS if host and not host.startswith((".", "*"))]
    try:
        prewarm()
        for path in WARM_UP_PATHS:
            path_info, _, query_string = path.partition("?")
            environ = {
                "REQUEST_METHOD": "GET", "PATH_INFO": path_info, "QUERY_STRING": query_string,
                "SERVER_NAME": hosts[0] if hosts else "localhost", "SERVER_PORT": "80",
                "HTTP_HOST": hosts[0] if hosts else "localhost", "HTTP_ACCEPT": "application/json",
                "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr, "wsgi.url_scheme": "http",
            }
            for _ in application(environ, lambda status, headers, exc_info=None: None):
                pass
    except Exception as error:  # noqa: BLE001 - see the docstring
        logger.warning("search index not prewarmed: %s", error)
    finally:
        connections.close_all()  # a worker forked after this (gunicorn --preload) must not share the connection


# --- answering ---------------------------------------------------------------------------------------------------

def can_answer(text):
    """Whether the in-memory path gives exactly the SQL path's answer for this `q`: plain ASCII without NUL (other
    text goes to the database, whose Unicode case rules differ between backends) and not too long (the form's own
    error then answers)."""
    text = (text or "").strip()
    return text.isascii() and "\x00" not in text and len(text) <= query.MAX_LENGTH


def search_cards(model, text):
    """The cards of `model` (each with its `representation` and `json`) that match the query `text`, best first;
    raises QueryError.

    Call only when `can_answer(text)`; the index must be ASCII-safe too, else None says "ask the database".
    """
    index = index_for(model)
    if model in (m.Dragon, m.CaveCard) and not index.ascii:
        return None
    tree = query.parse((text or "").strip())
    index.check(tree)
    return index.order(index.mask(tree), query.ranking_texts(tree))


def search_pks(model, text):
    """Primary keys of the matching cards, best first (guild and objective tiles' `q` filter)."""
    index = index_for(model)
    tree = query.parse((text or "").strip())
    index.check(tree)
    return [card.pk for card in index.order(index.mask(tree), query.ranking_texts(tree))]
