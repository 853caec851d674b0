"""The engine's bots: they decide from what their seat may see, play whole legal games, and the stronger levels beat
the weaker ones on seeded games. Strength in numbers is measured by scripts/bench_bots.py, not asserted here."""
import random

import pytest

from game.engine import bots
from game.engine.position import export_position, load_position
from game.engine.state import GameState
from game.engine.view import view_for

from .helpers import real_catalogue

pytest.importorskip("game.engine.determinize", reason="the bots sample hidden information with determinize")

FAST_STRONG = {"iterations": 4, "keep": 2, "own_turns": 1}


def play(state, players, until=None):
    """Let `players` (one bot per seat) decide until the game ends or `until(state)` holds."""
    while state.pending is not None and not (until and until(state)):
        seat = state.pending.player
        option = players[seat].choose(state, seat)
        assert option in state.pending.options
        state.apply(option)
    return state


def mid_game(seed, players=3, decisions=40):
    st = GameState.new(real_catalogue(), players=players, seed=seed)
    greedy = [bots.GreedyBot(seed + p) for p in range(players)]
    return play(st, greedy, until=lambda s: len(s.log) >= decisions and len(s.pending.options) > 2)


def hidden_twin(state, seat, seed):
    """The same game as `seat` sees it, with everything hidden from `seat` dealt differently (a position with the
    other hands and the decks dealt again, and another state of the generator)."""
    table = export_position(state)
    rng = random.Random(seed)
    others = [p for i, p in enumerate(table["players"]) if i != seat]
    for deck, hand in (("dragons", "hand"), ("caves", "cave_cards")):
        pool = table["decks"][deck] + [card for p in others for card in p[hand]]
        rng.shuffle(pool)
        for p in others:
            p[hand] = [pool.pop() for _ in p[hand]]
        table["decks"][deck] = pool
    table["engine"]["rng"] = rng.getrandbits(62)
    return load_position(state.cat, table)


def seen(state, seat):
    """What `seat` sees, but the count of decisions taken: a position starts its own log (docs/positions.md)."""
    view = view_for(state, seat)
    view.pop("decisions")
    return view


@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_a_bot_decides_the_same_when_only_hidden_information_differs(level):
    st = mid_game(seed=7)
    seat = st.pending.player
    twin = hidden_twin(st, seat, seed=1)
    assert seen(twin, seat) == seen(st, seat)
    hidden = [(pl.hand, pl.caves) for pl in st.players if pl.seat != seat] + [st.dragon_deck]
    assert hidden != [(pl.hand, pl.caves) for pl in twin.players if pl.seat != seat] + [twin.dragon_deck]
    settings = FAST_STRONG if level == "strong" else {}
    for bot_seed in range(3):
        first = bots.make_bot(level, bot_seed, **settings).choose(st, seat)
        again = bots.make_bot(level, bot_seed, **settings).choose(twin, seat)
        assert first == again


def test_strong_search_and_its_estimate_ignore_hidden_information():
    st = mid_game(seed=11, players=2)
    seat = st.pending.player
    twin = hidden_twin(st, seat, seed=2)
    assert bots.suggest(st, seat, budget=0.02, seed=5) == bots.suggest(twin, seat, budget=0.02, seed=5)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", ["random", "greedy", "strong"])
def test_each_level_plays_a_whole_game_of_legal_moves(level, players):
    st = GameState.new(real_catalogue(), players=players, seed=3, academy=players == 4)
    settings = {"iterations": 2, "keep": 2, "own_turns": 1} if level == "strong" else {}
    # One seat of the level under test, the others random (a whole game of strong seats takes long).
    play(st, [bots.make_bot(level if seat == 0 else "random", seat, **settings) for seat in range(players)])
    assert st.finished and len(st.result["scores"]) == players
    assert GameState.replay(st.cat, st.options, st.log).to_json() == st.to_json()


def test_greedy_beats_random_on_seeded_games():
    wins, greedy_vp, random_vp = 0, 0, 0
    for seed in range(4):
        st = GameState.new(real_catalogue(), players=2, seed=100 + seed)
        greedy_seat = seed % 2
        seats = [bots.GreedyBot(seed), bots.RandomBot(seed)]
        play(st, seats if greedy_seat == 0 else seats[::-1])
        wins += greedy_seat in st.result["winners"]
        greedy_vp += st.result["scores"][greedy_seat]["total"]
        random_vp += st.result["scores"][1 - greedy_seat]["total"]
    # A random player may win a game on a lucky deal; over four it scores far less.
    assert wins >= 3 and greedy_vp > 1.5 * random_vp


def test_the_evaluation_is_the_real_score_once_the_game_is_over():
    st = play(GameState.new(real_catalogue(), players=2, seed=4), [bots.RandomBot(1), bots.RandomBot(2)])
    assert [bots.evaluate(st, p) for p in range(2)] == [s["total"] for s in st.result["scores"]]


def test_the_evaluation_values_a_dragon_on_the_mat_above_the_coin_and_card_it_cost():
    st = GameState.new(real_catalogue(), players=2, seed=9)
    greedy = [bots.GreedyBot(1), bots.GreedyBot(2)]
    play(st, greedy, until=lambda s: len(s.log) > 20 and any(o.kind == "entice" for o in s.pending.options))
    seat = st.pending.player
    entices = [o for o in st.pending.options if o.kind == "entice"]
    before = bots.evaluate(st, seat)
    after = GameState.from_json(st.cat, st.to_json())
    after.apply(entices[0])
    bots.finish_turn(after, seat)
    assert bots.evaluate(after, seat) > before - 1


def test_suggest_names_a_legal_option_and_an_estimate():
    st = mid_game(seed=5, players=2)
    seat = st.pending.player
    advice = bots.suggest(st, seat, budget=0.02, seed=1)
    assert advice["option"] in st.pending.options
    assert 0.0 <= advice["win"] <= 1.0
    assert isinstance(advice["margin"], float)
    assert advice["options"][0]["option"] in st.pending.options


def test_suggest_refuses_a_seat_that_is_not_to_decide():
    st = mid_game(seed=5, players=2)
    with pytest.raises(ValueError, match="seat"):
        bots.suggest(st, 1 - st.pending.player, budget=0.02)


def test_an_unknown_level_is_refused_naming_the_field():
    with pytest.raises(ValueError, match="level"):
        bots.make_bot("grandmaster")


def test_the_strong_bot_plays_a_solo_game_against_the_automa():
    st = GameState.new(real_catalogue(), players=1, seed=6, automa={"level": 1, "ravel": False})
    assert len(bots.evaluate_all(st)) == 1  # the player's own value: the Automa's draws are not hers to choose
    play(st, [bots.make_bot("strong", 1, **FAST_STRONG)])
    assert st.finished and bots.evaluate_all(st) == [st.result["scores"][0]["total"]]


def first_main_action(seed, **player):
    """A solo game at its first main action, the player's coins, resources, ... set as given (position fields)."""
    st = GameState.new(real_catalogue(), players=1, seed=seed, automa={"level": 1, "ravel": False})
    play(st, [bots.GreedyBot(seed)], until=lambda s: s.pending.kind == "main_action")
    table = export_position(st)
    table["players"][0].update(player)
    return load_position(st.cat, table)


def test_no_bot_exchanges_resources_when_it_has_no_coin_left_to_use_them():
    """With no coin, an exchange can lead to no dragon this turn: it only loses a resource (the bots once cycled
    resources round and round before passing)."""
    st = first_main_action(3, coins=0, resources={"meat": 3, "gold": 2, "crystal": 1, "milk": 0})
    assert any(o.kind == "exchange" for o in st.pending.options)
    for bot in (bots.GreedyBot(1), bots.StrongBot(1, **FAST_STRONG)):
        assert bot.choose(st, 0).kind == "pass"


def test_an_exchange_counts_only_for_a_dragon_it_lets_the_bot_entice_at_once():
    for seed in range(6):
        st = first_main_action(seed, resources={"meat": 4, "gold": 0, "crystal": 2, "milk": 0})
        options = list(st.pending.options)
        scores = bots.one_ahead(bots.sample(st, 0, 1), 0, options)
        before = {o for o in options if o.kind == "entice"}
        for option, score in zip(options, scores):
            if option.kind != "exchange":
                assert score > float("-inf")
                continue
            after = st.clone()
            after.apply(option)
            opens = any(o.kind == "entice" and o not in before for o in after.pending.options)
            assert (score > float("-inf")) == opens, (seed, option)


def test_the_strong_search_plays_out_each_kind_of_main_action():
    """One move ahead, excavating looks poor (an egg or a coin for a space); its worth shows in the entice it
    allows, so the search keeps the best excavation, enticement and exploration whatever greedy's ranking."""
    st = first_main_action(3, coins=6, resources={"meat": 2, "gold": 2, "crystal": 2, "milk": 2})
    kinds = {o.kind for o in st.pending.options} & {"excavate", "entice", "explore"}
    assert kinds == {"excavate", "entice", "explore"}
    result = bots.StrongBot(1, iterations=3, keep=1, own_turns=1).search(st, 0)
    assert kinds <= {row["option"].kind for row in result["options"]}


def test_the_evaluation_prefers_dragons_in_one_row_an_explore_walks_along():
    """Each dragon in a cave's unbroken row takes an explore one mat icon further, and the richest cave is explored
    most: the same two dragons are worth more in one cave than split between two."""
    st = first_main_action(3)
    cat = st.cat
    decks = export_position(st)["decks"]
    by_number = {d.number: d for d in cat.dragons if d is not None}
    first, second = [n for n in decks["dragons"] if {0, 1} <= set(by_number[n].habitats)][:2]
    card = decks["caves"][0]

    def with_mat(crimson, golden):
        table = export_position(st)
        table["decks"]["dragons"] = [n for n in table["decks"]["dragons"] if n not in (first, second)]
        table["decks"]["caves"] = table["decks"]["caves"][1:]
        table["players"][0]["mat"].update({"crimson_cavern": crimson, "golden_grotto": golden})
        return load_position(cat, table)

    together = with_mat([{"dragon": first}, {"cave_card": card, "dragon": second}, None, None], [{}, None, None, None])
    apart = with_mat([{"dragon": first}, {"cave_card": card}, None, None], [{"dragon": second}, None, None, None])
    assert bots.row_length(together, 0, 0) == 2 and bots.row_length(apart, 0, 0) == 1
    assert bots.evaluate(together, 0) > bots.evaluate(apart, 0)


def with_objectives(st, objectives, automa_coins=0, nest=None):
    """The same position with the round objectives (tile number, side) given, her coins on the current one and the
    player's mat-nest eggs set."""
    table = export_position(st)
    table["objectives"] = [{"tile": tile, "side": side} for tile, side in objectives]
    table["automa"]["coins"] = automa_coins
    if nest is not None:
        table["players"][0]["nest_eggs"] = nest
    return load_position(st.cat, table)


EGGS = (3, "b")  # tile 3: eggs, those on the mat's nests included; her counts by round: 1, 2, 5, 10
LATER = [(1, "a"), (2, "a"), (5, "a")]


def test_in_a_solo_game_the_objective_standing_is_taken_against_the_automas_count():
    st = first_main_action(3)
    eggs = st.players[0].eggs()
    vp = st.cat.objective_vp[1]  # 1st 4, 2nd 1
    level = with_objectives(st, [EGGS, *LATER], automa_coins=eggs - 1)  # she counts 1 + coins
    behind = with_objectives(st, [EGGS, *LATER], automa_coins=eggs)
    assert bots.objective_standing(level) == [vp[0]]  # a tie is friendly: both are first
    assert bots.objective_standing(behind) == [vp[1]]
    assert bots.evaluate(level, 0) - bots.evaluate(behind, 0) == pytest.approx(bots.OBJECTIVE_NOW * (vp[0] - vp[1]))


def test_later_objectives_are_credited_from_the_counts_now_against_what_the_automa_will_have():
    """Round 2 counts eggs and she will have 2: no egg earns nothing, one egg the 2nd place's VP and a third of
    the step to 1st, two eggs two thirds of it; the evaluation counts OBJECTIVE_LATER of that credit."""
    st = first_main_action(3)
    assert st.players[0].eggs() == st.players[0].nest  # no dragon on the mat holds an egg yet
    first, second = st.cat.objective_vp[2][:2]
    nests = [with_objectives(st, [LATER[0], EGGS, *LATER[1:]], nest=n) for n in range(3)]
    credit = [bots.objective_outlook(s)[0] for s in nests]
    assert credit[1] - credit[0] == pytest.approx(second + (first - second) / 3)
    assert credit[2] - credit[1] == pytest.approx((first - second) / 3)


def test_a_pass_that_ends_the_round_is_judged_where_the_other_options_are():
    """The search plays each option out to the end of the round of the decision. In a solo game the player's pass
    ends the round at once (the Automa plays out her turns, none of them a question): its playout must stop
    there, not play the next round through, which judged passing on a round more of actions than any other
    option and made the bot pass early."""
    st = first_main_action(4)
    rnd = st.round
    passed = bots.sample(st, 0, 1)
    passed.apply(next(o for o in passed.pending.options if o.kind == "pass"))
    assert passed.round == rnd + 1
    at_once = passed.clone()
    bots.playout(at_once, 0, random.Random(1), rnd=rnd)
    assert export_position(at_once) == export_position(passed)
    bots.playout(passed, 0, random.Random(1))  # the round the pass began is played out
    assert passed.round == rnd + 2
    # The search does so: with one playout per option, its pass is the value of the sample just after passing.
    found = bots.StrongBot(5, iterations=1, keep=99).search(st, 0)
    row = next(r for r in found["options"] if r["option"].kind == "pass")
    draws = random.Random(5)
    draws.getrandbits(62)  # the sample greedy's ranking is made on
    after = bots.sample(st, 0, draws.getrandbits(62))
    after.apply(next(o for o in after.pending.options if o.kind == "pass"))
    assert row["playouts"] == 1 and row["margin"] == pytest.approx(bots.evaluate(after, 0))


def test_coins_beyond_what_a_turn_may_end_with_are_worth_nothing():
    """A player ends each turn with at most 9 coins (the rest go back): a bot that valued the rest held on to a
    round's coins and passed at once with 10 and 15 (seed 10193: 43 VP; valuing only 9 of them, 70)."""
    cap = real_catalogue().cap_coins
    at_cap, above = first_main_action(3, coins=cap), first_main_action(3, coins=cap + 3)
    below = first_main_action(3, coins=cap - 1)
    assert bots.evaluate(above, 0) == bots.evaluate(at_cap, 0) > bots.evaluate(below, 0)


# -- honesty in every kind of hidden place: twins that differ only in what the seat cannot see ------------------

HONEST_BUDGET = 0.02


def twin_of(state, change):
    """A copy of `state` whose stored form `change(data, rng)` edited (hidden places only)."""
    data = state.to_json()
    change(data, random.Random(1))
    return GameState.from_json(state.cat, data)


def automas_unseen_cards_dealt_again(data, rng):
    a = data["automa"]
    unseen = a["aside"] + a["deck"]
    order = list(unseen)
    while order == unseen:
        rng.shuffle(order)
    a["aside"], a["deck"] = order[:len(a["aside"])], order[len(a["aside"]):]


@pytest.mark.parametrize("seed", range(6))
def test_in_a_solo_game_the_search_ignores_the_order_of_the_automas_unseen_cards(seed):
    st = first_main_action(seed)
    twin = twin_of(st, automas_unseen_cards_dealt_again)
    assert twin.automa["deck"] != st.automa["deck"] and view_for(twin, 0) == view_for(st, 0)
    assert bots.suggest(st, 0, budget=HONEST_BUDGET, seed=5) == bots.suggest(twin, 0, budget=HONEST_BUDGET, seed=5)
    first = bots.make_bot("strong", 3, **FAST_STRONG).choose(st, 0)
    assert first == bots.make_bot("strong", 3, **FAST_STRONG).choose(twin, 0)


def with_tucked_cards(seed, players=2):
    """A game played by greedy bots until a dragon on some mat holds face-down tucked cards, at a main action."""
    st = GameState.new(real_catalogue(), players=players, seed=seed)
    greedy = [bots.GreedyBot(seed + p) for p in range(players)]
    return play(st, greedy, until=lambda s: s.at_main_action() and len(s.pending.options) > 2 and any(
        space.tucked for pl in s.players for space in pl.spaces))


def tucked_cards_swapped_with_the_deck(data, rng):
    deck = data["dragon_deck"]
    for pl in data["players"]:
        for space in pl["spaces"]:
            for k in range(len(space[4])):
                j = rng.randrange(len(deck))
                space[4][k], deck[j] = deck[j], space[4][k]


@pytest.mark.parametrize("seed", [3, 8])
def test_the_search_ignores_which_cards_lie_tucked_face_down(seed):
    st = with_tucked_cards(seed)
    seat = st.pending.player
    twin = twin_of(st, tucked_cards_swapped_with_the_deck)
    tucked = [space.tucked for pl in st.players for space in pl.spaces if space.tucked]
    assert tucked != [space.tucked for pl in twin.players for space in pl.spaces if space.tucked]
    assert seen(twin, seat) == seen(st, seat)
    assert bots.suggest(st, seat, budget=HONEST_BUDGET, seed=5) == \
        bots.suggest(twin, seat, budget=HONEST_BUDGET, seed=5)


def cards_named_by_running_abilities(st):
    """("dragon" | "cave", index) of every card the tasks on the stack or the running abilities' variables name."""
    named = set()

    def walk(value):
        if isinstance(value, (list, tuple)):
            if len(value) == 2 and value[0] in ("dragon", "cave") and isinstance(value[1], int):
                named.add(tuple(value))
            else:
                for v in value:
                    walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    for task in st.stack:
        walk({k: v for k, v in task.items() if k not in ("e", "o")})  # effect trees are card text, not cards
    for frame in st.frames.values():
        walk(frame["vars"])
    return named


def inside_an_ability_that_names_cards(seed, kind, players=3):
    """A game played at random until the seat to decide is inside an ability whose tasks or variables name cards of
    `kind` (a cave card being excavated, a dragon being taken or paid for), with more than one option."""
    st = GameState.new(real_catalogue(), players=players, seed=seed)
    rng = random.Random(seed)
    while st.pending is not None:
        if len(st.pending.answers) > 1 and not st.at_main_action() and any(
                named[0] == kind for named in cards_named_by_running_abilities(st)):
            return st
        st.apply(rng.choice(st.pending.answers))
    raise AssertionError("no ability named a card in a whole game")


DRAGON_SEEDS = (4, 5)  # games in which a dragon is named: one taken (seed 4), one paid for (seed 5)


def hidden_places_dealt_again(seat):
    """Other hands, both decks and every face-down tucked card dealt again among themselves (each keeping its
    size), and another state of the generator."""
    def change(data, rng):
        for hand, deck in (("hand", "dragon_deck"), ("caves", "cave_deck")):
            places = [data[deck]] + [pl[hand] for k, pl in enumerate(data["players"]) if k != seat]
            if hand == "hand":
                places += [space[4] for pl in data["players"] for space in pl["spaces"] if space[4]]
            pool = [card for cards in places for card in cards]
            rng.shuffle(pool)
            for cards in places:
                cards[:], pool = pool[:len(cards)], pool[len(cards):]
        data["rng"] = rng.getrandbits(64)
    return change


@pytest.mark.parametrize("kind, seed", [("cave", 1), ("cave", 2), ("dragon", DRAGON_SEEDS[0]),
                                        ("dragon", DRAGON_SEEDS[1])])
def test_the_search_inside_an_ability_that_names_cards_ignores_hidden_information(kind, seed):
    st = inside_an_ability_that_names_cards(seed, kind)
    seat = st.pending.player
    twin = twin_of(st, hidden_places_dealt_again(seat))
    assert twin.dragon_deck != st.dragon_deck and seen(twin, seat) == seen(st, seat)
    assert cards_named_by_running_abilities(twin) == cards_named_by_running_abilities(st)
    assert bots.suggest(st, seat, budget=HONEST_BUDGET, seed=5) == \
        bots.suggest(twin, seat, budget=HONEST_BUDGET, seed=5)
    first = bots.make_bot("strong", 3, **FAST_STRONG).choose(st, seat)
    assert first == bots.make_bot("strong", 3, **FAST_STRONG).choose(twin, seat)
