"""Every key the language declares for a word is read by the engine when that word runs.

Every ability of every card (and the board's own effects, through seeded games) runs with its effect trees held in
dicts that note each key the engine's code reads (the renderer's reads, for prompts, are not counted). A declared
key no handler ever reads is a key the game silently ignores: the declaration or the handler is wrong.
"""
import random
import sys

import pytest

from game.engine.catalogue import load_fixtures
from game.engine.state import GameState
from game.language.words import WORDS, sources

from .helpers import CAVE_KEYS, FIXTURES, fire_abilities, stocked_game

READ = set()
ENGINE = "/game/engine/"


class Noting(dict):
    """An effect node that notes (word, key) whenever code of the engine reads one of its keys."""

    def _note(self, key):
        caller = sys._getframe(2)
        if caller.f_code is sources.__code__:  # the language's reading of `from`, on the engine's behalf
            caller = caller.f_back
        if ENGINE in caller.f_code.co_filename:
            READ.add((dict.get(self, "do"), key))

    def __getitem__(self, key):
        self._note(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self._note(key)
        return dict.get(self, key, default)

    def __contains__(self, key):
        self._note(key)
        return dict.__contains__(self, key)


def noting(value):
    if isinstance(value, dict):
        return Noting({k: noting(v) for k, v in value.items()})
    if isinstance(value, list):
        return [noting(v) for v in value]
    return value


def noting_catalogue():
    cat = load_fixtures(FIXTURES)
    for card in list(cat.dragons) + list(cat.caves):
        card.abilities = noting(card.abilities)
    for tile in cat.guild_tiles:
        tile["rows"] = noting(tile.get("rows", []))
    cat.mat_icons = noting(cat.mat_icons)
    cat.guild_spaces = noting(cat.guild_spaces)
    cat.column_4_effect = noting(cat.column_4_effect)
    cat.income_effect = noting(cat.income_effect)
    cat.academy_income = {rnd: noting(effects) for rnd, effects in cat.academy_income.items()}
    return cat


def answer_randomly(st, rng, until_main_action=True):
    steps = 0
    while st.pending is not None and not (until_main_action and st.pending.kind == "main_action"):
        options = st.legal_options()
        yes = [o for o in options if o.kind == "yes"]
        st.apply(yes[0] if yes and rng.random() < 0.8 else rng.choice(options))
        steps += 1
        assert steps < 500


def fire(st, abilities, src, seed):
    rng = random.Random(seed)
    fire_abilities(st, abilities, src, lambda st: answer_randomly(st, rng))


# Keys no card of the catalogue happens to use with these words, run once each on a mat with an untrained fledgling.
COIN = {"do": "gain", "item": "coin"}
EXTRA = [
    {"do": "swap", "what": "cover", "if_done": COIN},
    {"do": "swap", "what": "cave_card", "if_done": COIN},
    {"do": "swap", "what": "with_hand", "if_done": COIN},
    {"do": "swap", "what": "dragons", "if_done": COIN},
    {"do": "train", "count": 2, "up_to": True, "free": True, "as": "covered", "on": {"scope": "mat"}, "if_done": COIN},
    {"do": "train", "full": True, "on": {"scope": "mat"}},
]


def fire_extra(cat, effect, seed):
    fledgling = next(i for i in cat.dragon_deck(True, True) if cat.dragons[i].size == "fledgling")
    # an untrained fledgling, and an uncovered cave card to swap in another cave
    other = next(c for c in CAVE_KEYS if c != CAVE_KEYS[cat.dragons[fledgling].habitats[0]])
    st = stocked_game(cat, seed, dragon=fledgling, training=0, excavated={other: 2})
    fire(st, [{"kind": "when_played", "effect": noting(effect)}], -1, seed)


@pytest.fixture(scope="module")
def reads():
    READ.clear()
    cat = noting_catalogue()
    for seed in range(2):
        for dragon, card in enumerate(cat.dragons):
            if card.abilities:
                fire(stocked_game(cat, seed, dragon=dragon), card.abilities, dragon, seed)
        for cave, card in enumerate(cat.caves):
            if card.abilities:
                fire(stocked_game(cat, seed), card.abilities, -1, seed)
    for seed in range(5):
        for effect in EXTRA:
            fire_extra(cat, effect, seed)
    for seed in range(4):
        st = GameState.new(cat, players=3, seed=seed, academy=seed % 2 == 1)
        answer_randomly(st, random.Random(seed), until_main_action=False)
    return set(READ)


@pytest.mark.parametrize("word", sorted(WORDS))
def test_every_declared_key_is_read_by_the_words_handler(reads, word):
    unread = sorted(key for key in WORDS[word].keys if (word, key) not in reads)
    assert unread == [], f"'{word}' declares keys its handler never reads: {unread}"


def test_the_engine_reads_no_key_a_word_does_not_declare(reads):
    undeclared = sorted((word, key) for word, key in reads if word in WORDS and key != "do"
                        and key not in WORDS[word].keys)
    assert undeclared == []
