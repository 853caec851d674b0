"""Bots of three levels for any seat: random, greedy and strong, plus `suggest` for the analysis board.

A bot sees only what its seat may see. It never reads the real state beyond that: every look ahead runs on
`determinize(state, seat, seed)`, a copy in which everything the seat cannot see (other hands, deck order, face-down
tucked cards, the generator) is sampled afresh, so two states that differ only in hidden information give the same
decision for the same bot seed (tests/engine/test_bots.py).

- random: `agents.RandomAgent`, leaning towards acting.
- greedy: one move ahead. Each option is tried on a sampled copy; the player's own follow-up questions of that turn
  are answered by the quick rule below; the position reached is scored by `evaluate` (see there) and the option
  with the best margin over the strongest opponent is taken. An exchange (two resources for one) is made only for
  a dragon it lets the bot entice at once: kept for later it would only lose an item.
- strong: determinized Monte Carlo search. The options are ranked by greedy's look ahead and the best eight kept,
  with the best excavation, enticement and exploration among them whatever their rank (a plan of two turns, such
  as excavating and then enticing into the new space, looks poor one move ahead);
  each round of the budget samples the hidden information once and plays every kept option on that same sample
  with the same dice (a paired comparison): the bot's own main actions greedily (one ahead on that sample), everyone
  else by the quick rule drawn at random, to the end of the round of the decision (a pass that ends it is judged
  right there; in the last round, to the final count), where `evaluate` scores the position. The best mean
  margin wins. The budget is counted in playouts, so a decision does not depend on the machine's load; the
  benchmark (scripts/bench_bots.py, docs/benchmarks.md) reports the time it takes.
"""
import math
import random
import time

from ..language.vocabulary import RES_INDEX
from . import automa
from .agents import RandomAgent
from .determinize import determinize
from .model import COLUMNS
from .scoring import base_breakdown, guild_marker_vp, objective_places, objective_vp
from .view import objective_counts

LEVELS = ("random", "greedy", "strong")
# The strong bot's playouts per decision unless told otherwise: well under a second of one core (docs/benchmarks.md,
# "Bots"); the site plays at this budget.
STRONG_ITERATIONS = 32

# -- the one copy -------------------------------------------------------------------------------------------------


def copy_state(state):
    """A full, independent copy of a state (a sampled one: the bots copy only what determinize gave them)."""
    return state.clone()


def sample(state, seat, seed):
    """What `seat` may believe the state is: hidden information sampled by `determinize`. Its decision log and
    events are dropped (nothing in a look ahead reads them, and every copy would carry them)."""
    st = determinize(state, seat, seed)
    st.log = None
    st.events = None
    return st


# -- the evaluation -------------------------------------------------------------------------------------------------

# What each thing on or beside a mat is worth, in VP, while the game runs. At the game's end only the scoring
# counts (a coin 1 VP, 4 items 1 VP, ...); earlier, what buys actions is worth more than it scores, in proportion to
# the part of the game left (`left`: 1 at the start, 0 once the last round is over).
COIN = (1.0, 1.0)  # (at the end, extra while the game runs): a coin buys an action
RESOURCE = (0.25, 0.3)  # pays for dragons
RESOURCE_MATCHED = 1.0  # while the game runs, instead of RESOURCE's: a resource that pays for a dragon in hand
DRAGON_CARD = (0.25, 1.0)  # a dragon in hand may be enticed
CAVE_CARD = (0.25, 0.6)  # a cave card in hand may be excavated
EXCAVATED = 1.2  # per excavated space beyond column 1, while the game runs: richer explores, room for dragons
EGG_ROOM = 0.25  # per free egg place on a dragon, while the game runs
ACTIVATED = 1.0  # an if-activated ability, per round left
ONCE_PER_ROUND = 1.5  # a once-per-round ability, per round left (the current one included if not yet resolved)
END_GAME = 2.5  # an end-game ability whose VP are not known before the end
GUILD_STEP = 0.4  # per Dragon Guild advancement, while the game runs (the next brown space comes sooner)
OBJECTIVE_NOW = 0.8  # share of the current round's objective VP counted at today's standing
OBJECTIVE_LATER = 0.4  # share of the later rounds' objective VP counted from today's counts (`objective_outlook`)
EGG = 0.5  # per egg, while the game runs, beyond its 1 VP at the end: eggs pay for deep excavations and explores
HAND_VP = 0.15  # per printed VP of a dragon in hand that still has room in one of its caves, while the game runs
HAND_USEFUL = 2  # dragons in hand worth more than their end value: at most this many per round left, and two more,
HAND_SPARE = 1  # and at most this many beyond the spaces they could go to (cave cards come from explores too)
ROWS = (0.8, 0.5, 0.2)  # per dragon in a cave's unbroken row from column 1, per round left, caves richest first:
# an explore walks past one more mat icon for each, and the richest cave is explored most
INCOME = (6, 1)  # coins and eggs of each round's income still to come (valued like coins and eggs in hand), so
# that passing, which brings the next income sooner, does not look like a gain of its own


def game_left(state, seat):
    """The part of the game still to play for `seat`, from 1 (before the first turn) to 0 (last round passed)."""
    rounds = state.cat.rounds
    rnd = min(state.round, rounds)
    left = rounds - rnd + (0.0 if state.players[seat].passed else 0.8)
    return max(0.0, min(1.0, left / rounds))


def table_counts(state, rnd):
    """Round `rnd`'s objective counts as a player at the table sees them (the view's own, changing nothing), the
    Automa's last in a solo game: for the current round hers now, for a later one what she will have then."""
    values = objective_counts(state, rnd)
    if values is not None and state.automa is not None:
        values.append(automa.objective_count(state, *state.objectives[rnd - 1], rnd))
    return values


def objective_standing(state):
    """Each player's VP from the current round's objective if it were scored now (0s when none is left); in a solo
    game the player's place is taken against the Automa's count, as the round's end will."""
    rnd = state.round
    if rnd - 1 >= len(state.objectives) or state.result is not None:
        return [0] * len(state.players)
    if any(len(pl.objectives) >= rnd for pl in state.players):
        return [0] * len(state.players)  # already scored this round
    values = table_counts(state, rnd)
    table = state.cat.objective_vp.get(rnd, ())
    places = objective_places(values)[:len(state.players)]
    return [table[place - 1] if 1 <= place <= len(table) else 0 for place in places]


def objective_outlook(state):
    """Each player's credit towards the later rounds' objectives, from their counts now: a player with none of
    what a tile counts gets nothing; one who has some gets the VP of 2nd place and a share of the step to 1st, in
    proportion to their count against the best other count (in a solo game, the count the Automa will have then)."""
    credit = [0.0] * len(state.players)
    if state.result is not None:
        return credit
    for rnd in range(state.round + 1, len(state.objectives) + 1):
        values = table_counts(state, rnd)
        if values is None:
            break
        table = state.cat.objective_vp.get(rnd, ())
        if len(table) < 2:
            continue
        first, second = table[0], table[1]
        for p in range(len(credit)):
            mine = values[p]
            if mine > 0:
                best = max((v for q, v in enumerate(values) if q != p), default=0)
                credit[p] += second + (first - second) * min(1.0, mine / (best + 1))
    return credit


def hand_value(cat, pl, left, rounds_left):
    """The dragons in hand: each worth its end value (an item); while the game runs, those that can still find a
    space are worth more, the more so the higher their printed VP, but only as many as there are spaces to put
    them in (empty excavated spaces, and one per cave card in hand while unexcavated spaces remain) and turns left
    to play them. The resources are valued here too: those that pay for the dragons counted (the most valuable
    first) are worth RESOURCE_MATCHED while the game runs, the others RESOURCE's smaller share, so that a bot gains
    the kinds its hand needs rather than the first kind listed."""
    empty = [0, 0, 0]
    closed = 0
    for i, space in enumerate(pl.spaces):
        if space.dragon is None:
            if pl.excavated(i):
                empty[i // COLUMNS] += 1
            else:
                closed += 1
    room = [empty[cave] > 0 or closed > 0 for cave in range(3)]
    running = sorted(((DRAGON_CARD[1] + HAND_VP * cat.dragons[d].vp, d) for d in pl.hand
                      if any(room[h] for h in cat.dragons[d].habitats)), reverse=True)
    useful = int(min(HAND_USEFUL * (rounds_left + 1), sum(empty) + min(len(pl.caves), closed) + HAND_SPARE))
    kept = running[:useful]
    # The resources: those that pay for the dragons kept, the most valuable first, are worth more than the others
    # (which pay only through an exchange, two for one, or for a dragon not yet drawn).
    pool = list(pl.res)
    matched = 0
    for _, d in kept:
        for r, need in enumerate(cat.dragons[d].res_cost):
            if need and pool[r]:
                used = min(need, pool[r])
                pool[r] -= used
                matched += used
    spare = sum(pool)
    resources = (matched + spare) * RESOURCE[0] + left * (matched * RESOURCE_MATCHED + spare * RESOURCE[1])
    return len(pl.hand) * DRAGON_CARD[0] + left * sum(v for v, _ in kept) + resources


def row_length(state, seat, cave):
    """How many dragons an explore of `cave` walks onto before its first stop sign (its first space without one)."""
    index = state.next_empty(seat, cave)
    return COLUMNS if index is None else index - cave * COLUMNS


def evaluate(state, seat, standing=None, outlook=None):
    """The VP `seat` may expect to end with, judged from the position now.

    What is scored already counts in full (printed dragon VP, eggs, cached and tucked items, objective places,
    guild markers on the END GAME VP row); the current round's objective at today's standing counts in part (in a
    solo game the standing is taken against the Automa's count), and so, for a smaller part, does the credit the
    counts now earn towards the later rounds' objectives (`objective_outlook`); what buys future VP (coins,
    resources, cards in hand, excavated spaces, free egg places, dragons' abilities, guild advancements, the
    dragons an explore walks onto before its stop sign, most in the richest cave) is valued by the part of the
    game left, a resource the more if it pays for a dragon in hand (see `hand_value`). At the
    game's end it is the real score.
    """
    if state.result is not None:
        return float(state.result["scores"][seat]["total"])
    cat = state.cat
    pl = state.players[seat]
    left = game_left(state, seat)
    rounds_left = left * cat.rounds
    score = base_breakdown(cat, pl, objective_vp(cat, pl.objectives), guild_marker_vp(cat, pl.markers))
    value = (score["dragons"] + score["eggs"] + score["cached"] + score["tucked"] + score["objectives"]
             + score["guild"] + score["abilities"])
    value += min(pl.coins, cat.cap_coins) * (COIN[0] + COIN[1] * left)  # the rest go at the end of the turn
    value += hand_value(cat, pl, left, rounds_left)
    value += pl.eggs() * EGG * left
    value += len(pl.caves) * (CAVE_CARD[0] + CAVE_CARD[1] * left)
    value += pl.guild * GUILD_STEP * left
    incomes = max(0, cat.rounds - state.round)
    value += incomes * (INCOME[0] * (COIN[0] + COIN[1] * left) + INCOME[1])
    for i, space in enumerate(pl.spaces):
        if i % COLUMNS and space.cave_card is not None:
            value += EXCAVATED * left
        dragon = space.dragon
        if dragon is None:
            continue
        card = cat.dragons[dragon]
        value += max(0, card.capacity - space.eggs) * EGG_ROOM * left
        kinds = card.kinds
        if not kinds or not state.active(seat, dragon, i):
            continue
        if "if_activated" in kinds:
            value += ACTIVATED * rounds_left
        if "once_per_round" in kinds:
            value += ONCE_PER_ROUND * (rounds_left + (0.2 if pl.passed else 0))
        if "end_game" in kinds:
            value += END_GAME
    rows = sorted((row_length(state, seat, cave) for cave in range(3)), reverse=True)
    value += rounds_left * sum(w * k for w, k in zip(ROWS, rows))
    if standing is None:
        standing = objective_standing(state)
    value += OBJECTIVE_NOW * standing[seat]
    if outlook is None:
        outlook = objective_outlook(state)
    value += OBJECTIVE_LATER * outlook[seat]
    return value


def evaluate_all(state):
    """Every player's `evaluate`. The Automa of a solo game is left out: her score comes from her own deck, mostly
    whatever the player does, and counting her turns' draws would only add noise to the player's choices."""
    if state.result is not None:
        return [float(s["total"]) for s in state.result["scores"][:len(state.players)]]
    standing = objective_standing(state)
    outlook = objective_outlook(state)
    return [evaluate(state, p, standing, outlook) for p in range(len(state.players))]


def margin(values, seat):
    """How far `seat` is ahead of the strongest other player (its own value alone in a solo game)."""
    others = [v for p, v in enumerate(values) if p != seat]
    return values[seat] - max(others) if others else values[seat]


# -- the quick rule: an option's worth read from the option alone, without a copy ----------------------------------

QUICK_NEED = 2.0  # a resource gained: per one the dragons in hand still lack
QUICK = {"exchange": 0.15, "pass": 0.25, "stop": 0.4, "no": 0.6, "yes": 3.0, "excavate": 4.0, "explore": 3.0}


def quick_weight(state, option):
    """A rough, cheap worth of one option (used to answer follow-up questions and in playouts)."""
    kind = option.kind
    if kind == "entice" or kind == "play":
        card = state.cat.dragons[option.args[0]]
        return 6.0 + card.vp + 0.5 * len(card.abilities)
    if kind == "explore":
        pl = state.players[state.pending.player]
        cave = option.args[0]
        dragons = sum(1 for s in pl.spaces[cave * COLUMNS:(cave + 1) * COLUMNS] if s.dragon is not None)
        return QUICK["explore"] + 1.5 * dragons
    if kind == "resource" and option.args and option.args[0] in RES_INDEX:
        pl = state.players[state.pending.player]
        r = RES_INDEX[option.args[0]]
        need = sum(state.cat.dragons[d].res_cost[r] for d in pl.hand) - pl.res[r]
        return 1.0 + QUICK_NEED * max(0, need)
    return QUICK.get(kind, 1.0)


def quick_pick(state, options, rng=None):
    """The option the quick rule likes best (or one drawn in proportion to its worth, given `rng`)."""
    weights = [quick_weight(state, o) for o in options]
    if rng is None:
        return options[max(range(len(options)), key=weights.__getitem__)]
    return rng.choices(options, weights)[0]


# -- looking ahead ----------------------------------------------------------------------------------------------------

FOLLOW_UP_LIMIT = 40


def finish_turn(state, seat):
    """Answer `seat`'s own follow-up questions of the action just taken by the quick rule, until the game asks
    someone else, or asks `seat` for a new main action."""
    for _ in range(FOLLOW_UP_LIMIT):
        pending = state.pending
        if pending is None or pending.player != seat or at_main_action(state):
            return
        state.apply(quick_pick(state, pending.answers))


def at_main_action(state):
    return state.pending is not None and state.pending.kind == "main_action"


def one_ahead(sample, seat, options, exchanges=True):
    """Greedy's look ahead on one sampled state: each option's margin after it and its follow-ups. An exchange
    before the main action is judged by the best enticement it makes possible that was not before, and is -inf
    when there is none: on its own it only loses an item (bots that judged it by any action it led to cycled
    resources round and round before passing)."""
    scores = []
    before = {o for o in options if o.kind == "entice"}
    for option in options:
        st = copy_state(sample)
        st.apply(option)
        if option.kind == "exchange" and at_main_action(st) and st.pending.player == seat:
            acts = [o for o in st.pending.options if o.kind == "entice" and o not in before]
            scores.append(max(one_ahead(st, seat, acts, exchanges=False)) if exchanges and acts else float("-inf"))
            continue
        finish_turn(st, seat)
        scores.append(margin(evaluate_all(st), seat))
    return scores


def playout(state, seat, rng, own_turns=4, rnd=None, max_decisions=3000):
    """Play on to the end of round `rnd` (the current round by default; in the last round, to the game's end):
    `seat` takes its next `own_turns` main actions greedily (one ahead on this same sample) and answers the rest by
    the quick rule; the others follow the quick rule, drawn in proportion to its worths."""
    rnd = state.round if rnd is None else rnd
    last = rnd >= state.cat.rounds  # in the last round, on to the final count: the real score, no estimate
    turns = 0
    for _ in range(max_decisions):
        pending = state.pending
        if pending is None or (state.round != rnd and not last):
            return
        options = pending.answers
        if pending.player != seat:
            state.apply(quick_pick(state, options, rng) if len(options) > 1 else options[0])
        elif turns < own_turns and at_main_action(state) and len(options) > 1:
            turns += 1
            acts = [o for o in options if o.kind != "exchange"]  # exchanges: only when nothing else remains
            scores = one_ahead(state, seat, acts)
            state.apply(acts[max(range(len(acts)), key=scores.__getitem__)])
        else:
            state.apply(quick_pick(state, options))


# -- the bots -----------------------------------------------------------------------------------------------------------


class RandomBot:
    level = "random"

    def __init__(self, seed=0):
        self.agent = RandomAgent(seed)

    def choose(self, state, seat):
        return self.agent.choose(list(state.pending.answers))


class GreedyBot:
    """One move ahead, judged by `evaluate` on a state whose hidden information is sampled."""

    level = "greedy"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, state, seat):
        options = list(state.pending.answers)
        if len(options) == 1:
            return options[0]
        sample_ = sample(state, seat, self.rng.getrandbits(62))
        scores = one_ahead(sample_, seat, options)
        return options[max(range(len(options)), key=scores.__getitem__)]


class StrongBot:
    """Determinized Monte Carlo search over greedy's best few options (see the module's docstring)."""

    level = "strong"

    def __init__(self, seed=0, iterations=STRONG_ITERATIONS, keep=8, own_turns=8, scale=8.0):
        self.rng = random.Random(seed)
        self.iterations = iterations  # playouts per decision, shared among the options kept
        self.keep = keep  # options kept from greedy's ranking
        self.own_turns = own_turns  # the bot's own main actions chosen greedily in a playout (8: a whole round's)
        self.scale = scale  # VP of margin that make a win chance of about 73 % (the logistic's unit)

    def choose(self, state, seat):
        answers = state.pending.answers
        if len(answers) == 1:  # one answer beside the exchanges: nothing to search (and no draw of the generator)
            return answers[0]
        return self.search(state, seat)["option"]

    def search(self, state, seat, iterations=None, deadline=None):
        """The preferred option and what the search found for each option it tried. `deadline` (a
        time.process_time) is a safety stop only, for a server that must answer: the budget is in playouts."""
        options = list(state.pending.answers)
        budget = self.iterations if iterations is None else iterations
        first = sample(state, seat, self.rng.getrandbits(62))
        prior = one_ahead(first, seat, options) if len(options) > 1 else [0.0]
        ranked = sorted(range(len(options)), key=lambda i: -prior[i])
        ranked = [i for i in ranked if prior[i] > float("-inf")] or ranked[:1]
        order = ranked[:self.keep]
        # Each kind of main action keeps its best option in the search, so that a plan of two steps whose first
        # step looks poor one move ahead (excavate, then entice into the new space) is still played out.
        kinds = {options[i].kind for i in order}
        for i in ranked[self.keep:]:
            kind = options[i].kind
            if kind in ("excavate", "entice", "explore") and kind not in kinds:
                kinds.add(kind)
                order.append(i)
        stats = {i: [0, 0.0, 0.0, []] for i in order}  # playouts, win chance sum, margin sum, margins in order
        rounds = max(1, budget // len(order)) if len(order) > 1 else 1
        for _ in range(rounds):
            # Every option kept meets the same sampled hidden information and the same dice: a paired comparison.
            seed = self.rng.getrandbits(62)
            for i in order:
                st = sample(state, seat, seed)
                st.apply(options[i])
                # Every option is judged at the end of the round of the decision, the pass that ends it included.
                playout(st, seat, random.Random(seed), self.own_turns, state.round)
                m = margin(evaluate_all(st), seat)
                s = stats[i]
                s[0] += 1
                s[1] += 1.0 / (1.0 + math.exp(-m / self.scale))
                s[2] += m
                s[3].append(m)
            if deadline is not None and time.process_time() > deadline:
                break
        best = max(order, key=lambda j: (stats[j][2] / stats[j][0], prior[j]))
        table = [{"option": options[j], "playouts": stats[j][0], "greedy": prior[j],
                  "win": stats[j][1] / stats[j][0], "margin": stats[j][2] / stats[j][0],
                  "margins": stats[j][3]} for j in order]
        return {"option": options[best], "win": stats[best][1] / stats[best][0],
                "margin": stats[best][2] / stats[best][0], "options": table}


def make_bot(level, seed=0, **settings):
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed)
    if level == "strong":
        return StrongBot(seed, **settings)
    raise ValueError(f"level: expected one of {', '.join(LEVELS)}")


# Iterations of the strong bot for a time budget in seconds: calibrated by scripts/bench_bots.py on one core of
# the build machine (docs/benchmarks.md), so the same budget searches the same amount under any load.
ITERATIONS_PER_SECOND = 64


def suggest(state, seat, budget=1.0, seed=0):
    """For the analysis board: the option the strong bot prefers for `seat` at the pending decision, and its
    estimate (win chance from the margin, and the expected VP margin over the strongest opponent).

    `budget` is in seconds of search on one core (turned into iterations, see ITERATIONS_PER_SECOND). Returns
    `{"option", "win", "margin", "options": [{"option", "playouts", "greedy", "win", "margin", "margins"}, ...]}`
    (`margins`: each playout's margin in order; the k-th playouts of all options share their sample and dice, so
    two options compare pairwise); raises
    ValueError when `seat` is not the one to decide. The search stops early, whatever it was asked, once it has
    used twice the budget and a second more in CPU time: a safety stop for a server, which on a machine as fast
    as the calibration's never fires, so the answer stays a function of the seed.
    """
    if state.pending is None:
        raise ValueError("the game is over: there is nothing to decide")
    if state.pending.player != seat:
        raise ValueError(f"seat: it is seat {state.pending.player}'s decision, not seat {seat}'s")
    iterations = max(8, int(budget * ITERATIONS_PER_SECOND))
    return StrongBot(seed).search(state, seat, iterations, deadline=time.process_time() + 2 * budget + 1.0)
