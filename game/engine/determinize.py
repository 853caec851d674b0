"""Fair copies for search: a state in which everything one seat cannot see is dealt again at random.

A bot that searched the real state would read its opponents' hands and the order of the decks. `determinize(state,
seat, seed)` gives it instead one possible world that agrees with everything `seat` knows: the same `view_for(state,
seat)`, the same cards in the game, and the hidden ones (other players' hands, both decks, every face-down tucked
card, the generator's state and the seed; solo, the Automa's deck order and set-aside card) shuffled among the
hidden places, each place keeping its size. Sampling many seeds and searching each is the usual way to play a game
of hidden information ("determinized" search).

Cards that a running ability has already named (a card just drawn and about to be tucked, a pool being handed out)
stay where they are, so the ability can finish: such a card is rarely hidden, and moving it would break the game.
"""
import random

from . import automa as solo
from .rng import Rng

TRIES = 20  # samples tried before the pending player's own hand is kept as it is


def determinize(state, seat, seed):
    """A copy of `state` with what `seat` cannot see resampled from `seed`; the original is not changed."""
    rng = random.Random(seed)  # the sample's own chance, not the game's: search needs it fast, not replayable
    pending = state.pending
    if pending is None or pending.player == seat:
        return _sample(state, seat, rng, keep=None)
    # Another player is being asked, and what they may answer was listed from their real hand. A sample must give
    # them a hand that asks the same question (seat saw it asked): ask again, and draw again if it does not.
    for _ in range(TRIES):
        st = _sample(state, seat, rng, keep=None)
        depth = len(st.stack)
        st.reask()
        if st.pending is not None and st.pending.player == pending.player and st.pending.kind == pending.kind \
                and st.pending.data == pending.data and len(st.stack) == depth:
            return st
    return _sample(state, seat, rng, keep=pending.player)  # rare: their hand stays, the rest is dealt again


def _sample(state, seat, rng, keep):
    st = state.clone()
    dragons = [st.dragon_deck]  # the places of hidden cards: lists whose every card is dealt again
    caves = [st.cave_deck]
    for pl in st.players:
        if pl.seat != seat and pl.seat != keep:
            dragons.append(pl.hand)
            caves.append(pl.caves)
        # face down to everyone, their owner too (the view shows only how many)
        dragons.extend(space.tucked for space in pl.spaces if space.tucked)
    pinned_dragons, pinned_caves = _named_by_running_abilities(st)
    _deal_again(rng, dragons, pinned_dragons)
    _deal_again(rng, caves, pinned_caves)
    solo.resample_hidden(st, rng)  # solo: the order of the Automa's deck and the card she set aside
    st.rng = Rng(rng.getrandbits(64))
    st.options["seed"] = rng.getrandbits(62)  # the real seed would give away every shuffle still to come
    st.log = None  # the real log names hidden cards (what others kept, tucked, discarded); a sample has none
    if st.events is not None:
        st.events = []
    return st


def _deal_again(rng, places, pinned):
    """Shuffle the cards of `places` (lists) among them, each list keeping its length; pinned cards stay put."""
    slots = [(cards, i) for cards in places for i, card in enumerate(cards) if card not in pinned] if pinned else None
    pool = [cards[i] for cards, i in slots] if pinned else [card for cards in places for card in cards]
    # Sorted first, so the sample depends only on the seed and on what is hidden, never on where it lay: two
    # states that differ only in hidden information give the same sample (a bot's decision cannot leak it).
    pool.sort()
    draw = rng.random
    # a shuffle by random keys: C does the work, where a Fisher-Yates loop would run in Python card by card
    pool = [card for _, card in sorted([(draw(), card) for card in pool])]
    if pinned:
        for (cards, i), card in zip(slots, pool):
            cards[i] = card
        return
    k = 0
    for cards in places:
        n = len(cards)
        cards[:] = pool[k:k + n]
        k += n


def _named_by_running_abilities(st):
    """Dragon and cave cards that tasks on the stack or variables of running abilities refer to."""
    dragons, caves = set(), set()

    def walk(value):
        if isinstance(value, (list, tuple)):
            if len(value) == 2 and isinstance(value[1], int) and value[0] in ("dragon", "cave"):
                (dragons if value[0] == "dragon" else caves).add(value[1])
            else:
                for v in value:
                    walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    for task in st.stack:
        for key, value in task.items():
            if key not in ("e", "o"):  # effect trees are card text, not cards
                walk(value)
    for frame in st.frames.values():
        walk(frame["vars"])
    return dragons, caves
