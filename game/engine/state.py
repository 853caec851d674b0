"""The game state: its data, asking and applying decisions, the small rules shared by actions and words, and JSON.

`GameState.new(catalogue, players=..., seed=...)` sets a game up; `legal_options()` lists what the player in
`pending` may do, in a stable order; `apply(option)` checks the option is one of them, then runs the game forward
until the next decision. Everything is plain data: `to_json()` / `from_json()` round-trip exactly. What happens
between decisions (turns, walks, round and game end) is the flow (flow.py), run as tasks on one stack.
"""
from operator import ge
from typing import NamedTuple

from ..language.questions import EXCHANGE_ANYWHERE, EXCHANGE_EVEN_FORCED
from ..language.vocabulary import CAVE_NAMES, RESOURCES
from ..language.walk import asks_first
from . import (
    automa as solo,
    flow,  # noqa: F401  (registers the game's tasks, and through it every word)
    interpreter as fx,
)
from .decisions import IllegalDecision, MalformedDecision, Option, Pending
from .exchange import exchange_now, exchange_options, resources_cover
from .interpreter import push_ability
from .labels import explain_illegal, label
from .model import COLUMNS, NEST, Player
from .options import option_info
from .rng import Rng
from .tasks import HANDLERS
from .words.items import feed

FORMAT_VERSION = 2  # 2: the decision log is no longer saved inside the state (version 1 snapshots still load)
_new = object.__new__


class Checkpoint(NamedTuple):
    """A state to come back to within a turn (`GameState.checkpoint()`); plain JSON-able data, so a match can keep
    one beside its snapshot (`to_dict` / `from_dict`)."""

    state: dict  # the saved state (`to_json`)
    decisions: int  # how many decisions the game had taken
    player: int  # who was to decide (None if nobody)
    decks: tuple  # dragon and cave deck sizes: a draw or a reveal shrinks them
    rng: int  # a shuffle moves the generator

    def to_dict(self):
        return {"state": self.state, "decisions": self.decisions, "player": self.player, "decks": list(self.decks),
                "rng": self.rng}

    @classmethod
    def from_dict(cls, data):
        if not isinstance(data, dict) or set(data) != set(cls._fields):
            raise MalformedDecision(f"checkpoint: expected an object with {', '.join(cls._fields)}")
        return cls(data["state"], data["decisions"], data["player"], tuple(data["decks"]), data["rng"])


class GameState:
    def __init__(self, catalogue):
        self.cat = catalogue
        self.options = {}
        self.rng = Rng(0)
        self.players = []
        self.round = 1
        self.start = 0
        self.current = 0
        self.dragon_deck = []
        self.cave_deck = []
        self.display_dragons = [None, None, None]
        self.display_caves = [None, None, None]
        self.dragon_discard = []
        self.cave_discard = []
        self.revealed = []
        self.guild_tile = 0
        self.guild_board = []  # per tile row, then the END GAME VP row: a list of seats per square
        self.objectives = []  # [tile index, side] per round
        self.income_taken = {}  # Academy: income space index (as text) -> seat, this round
        self.stack = []
        self.frames = {}
        self.next_frame = 0
        self.pending = None
        self.log = []  # the decisions taken, kept in memory for replay; None when kept elsewhere (not saved)
        self.decided = 0  # how many decisions the game has taken (saved)
        self.result = None
        self.turns = 0
        self.automa = None  # the solo game's opponent (automa.py): her public state, or None
        self.events = []  # what the last decision caused (see `emit`); not saved: it is kept with the decision

    # -- setup ------------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, catalogue, players=2, seed=0, academy=False, updated=None, automa=None):
        """Set a game up by the rulebook; the first decisions are each player's starting cards and resources.

        A solo game (players=1) is played against the Automa: automa={"level": 1, "ravel": False}."""
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 5:
            raise MalformedDecision("players: a game has 1 to 5 players (1: against the Automa)")
        automa = solo.check_options(catalogue, players, automa)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise MalformedDecision("seed: expected a whole number")
        updated = academy if updated is None else bool(updated)
        st = cls(catalogue)
        st.options = {"players": players, "seed": seed, "academy": bool(academy), "updated": updated}
        if automa is not None:
            st.options["automa"] = automa
        st.rng = Rng(seed)
        cat = catalogue
        st.dragon_deck = cat.dragon_deck(academy, updated)
        st.cave_deck = cat.cave_deck(academy, updated)
        st.rng.shuffle(st.dragon_deck)
        st.rng.shuffle(st.cave_deck)
        tiles = cat.guild_tiles_for(academy)
        st.guild_tile = tiles[st.rng.below(len(tiles))] if tiles else -1
        st.guild_board = [[[] for _ in range(row["squares"])] for row in st.tile_rows()]
        st.guild_board.append([[] for _ in cat.guild_end_vp])
        st.refill_display()  # the rulebook's order: guild tile, display, objectives, then each player's cards
        pool = cat.objectives_for(academy)
        st.rng.shuffle(pool)
        st.objectives = [[tile, "ab"[st.rng.below(2)]] for tile in pool[:cat.rounds]]
        setup = cat.setup
        for seat in range(players):
            p = Player(seat)
            p.coins = setup.get("coins", 6)
            p.nest = min(setup.get("eggs", 1), cat.mat_nests)
            p.hand = [st.draw_dragon() for _ in range(setup.get("deal_dragons", 3))]
            p.caves = [st.draw_cave() for _ in range(setup.get("deal_caves", 3))]
            st.players.append(p)
            st.emit("dealt", p=seat, n=len(p.hand) + len(p.caves),
                    cards=[["dragon", d] for d in p.hand] + [["cave", c] for c in p.caves])
        st.start = st.rng.below(players)
        if automa is not None:
            solo.setup(st, pool[cat.rounds:])
        st.current = 0 if automa is not None else st.start
        st.emit("started", players=players, first=st.start, guild_tile=st.guild_tile,
                objectives=[list(o) for o in st.objectives])
        st.stack.append(solo.first_turn(st))
        for seat in reversed(range(players)):
            st.stack.append({"t": "setup_resources", "p": seat})
            st.stack.append({"t": "setup_cards", "p": seat})
        st.run()
        return st

    def tile_rows(self):
        return self.cat.guild_tiles[self.guild_tile]["rows"] if self.guild_tile >= 0 else []

    # -- cards ------------------------------------------------------------------------------------------------

    def draw_dragon(self):
        if not self.dragon_deck and self.dragon_discard:
            self.dragon_deck, self.dragon_discard = self.dragon_discard, []
            self.rng.shuffle(self.dragon_deck)
            self.emit("reshuffled", kind="dragon", n=len(self.dragon_deck))
        return self.dragon_deck.pop() if self.dragon_deck else None

    def draw_cave(self):
        if not self.cave_deck and self.cave_discard:
            self.cave_deck, self.cave_discard = self.cave_discard, []
            self.rng.shuffle(self.cave_deck)
            self.emit("reshuffled", kind="cave", n=len(self.cave_deck))
        return self.cave_deck.pop() if self.cave_deck else None

    def refill_display(self):
        if None not in self.display_dragons and None not in self.display_caves:
            return  # full (the end of every turn asks)
        filled = []
        for i in range(3):
            if self.display_dragons[i] is None:
                card = self.display_dragons[i] = self.draw_dragon()
                if card is not None:
                    filled.append(["dragon", i, card])
            if self.display_caves[i] is None:
                card = self.display_caves[i] = self.draw_cave()
                if card is not None:
                    filled.append(["cave", i, card])
        if filled:
            self.emit("refilled", slots=filled)

    def refresh_display(self):
        gone = []
        for i in range(3):
            if self.display_dragons[i] is not None:
                self.dragon_discard.append(self.display_dragons[i])
                gone.append(["dragon", self.display_dragons[i]])
                self.display_dragons[i] = None
            if self.display_caves[i] is not None:
                self.cave_discard.append(self.display_caves[i])
                gone.append(["cave", self.display_caves[i]])
                self.display_caves[i] = None
        self.emit("refreshed", cards=gone)
        self.refill_display()

    # -- decisions --------------------------------------------------------------------------------------------

    def emit(self, kind, /, **data):
        """Record that something happened: a plain dict `{"e": kind, "p": seat, ...}` in `self.events`.

        Set `self.events = None` to record nothing (random playouts that never read them)."""
        if self.events is not None:
            data["e"] = kind
            self.events.append(data)

    def ask(self, task, player, kind, options, **data):
        """Wait for `player` to pick one of `options`; a single option is taken at once (no choice to make).

        `kind` is one of the question kinds declared in game/language/questions.py, `data` its plain JSON data."""
        if not options:  # every handler returns instead of asking about nothing: reaching here is an engine bug
            raise RuntimeError(f"engine error: no legal option for a {kind!r} question")
        if kind in EXCHANGE_ANYWHERE and (len(options) > 1 or kind in EXCHANGE_EVEN_FORCED):
            swaps = exchange_options(self.cat, self.players[player])  # the exchange may be made at any point
            if swaps:
                options = [*options, *swaps]
        self.stack.append(task)
        if len(options) == 1:
            task["a"] = options[0]
            return
        self.pending = Pending(player, kind, data, tuple(options))

    def reask(self):
        """Ask the pending question again after the state changed outside a decision (determinize deals hidden cards
        again). Tests set positions up with `position.build_position` / `load_position` and the doors below."""
        if self.pending is not None:
            self.pending = None
            task = self.stack.pop()
            HANDLERS[task["t"]](self, task)
        self.run()

    def legal_options(self):
        return list(self.pending.options) if self.pending else []

    @property
    def finished(self):
        return self.result is not None

    def apply(self, option):
        """Take one decision for the pending player; raise and change nothing if it is not a legal option.

        Returns the events the decision caused (a new list; None when `self.events` is None: not recording)."""
        if not isinstance(option, Option):
            option = Option.from_dict(option)
        pending = self.pending
        if pending is None:
            raise IllegalDecision(f"You tried '{self.label(option)}', but the game is over: no decision is expected.")
        if option not in pending.options:
            raise IllegalDecision(self.explain_illegal(option))
        self.pending = None
        if self.events is not None:
            self.events = []
        self.decided += 1
        if self.log is not None:
            self.log.append({"p": pending.player, "kind": option.kind, "args": list(option.args)})
        task = self.stack.pop()
        if option.kind == "exchange" and pending.kind in EXCHANGE_ANYWHERE:
            # an exchange beside the question: made, then the same question is asked again of what is held now (the
            # task never saw the exchange, so its handler runs as when it first asked)
            exchange_now(self, pending.player, option.args)
        else:
            task["a"] = option
        HANDLERS[task["t"]](self, task)
        self.run()
        return self.events

    def run(self):
        stack = self.stack
        pop = stack.pop
        while self.pending is None and stack:
            task = pop()
            HANDLERS[task["t"]](self, task)

    # -- small rules shared by actions and words --------------------------------------------------------------

    def lay(self, p, where):
        if where == NEST:
            self.players[p].nest += 1
        else:
            self.players[p].spaces[where].eggs += 1

    def egg_room(self, p, spaces, nests):
        pl = self.players[p]
        cat = self.cat.dragons
        out = [i for i in spaces if pl.spaces[i].dragon is not None
               and pl.spaces[i].eggs < cat[pl.spaces[i].dragon].capacity]
        if nests and pl.nest < self.cat.mat_nests:
            out.insert(0, NEST)
        return out

    def place_dragon(self, p, dragon, index, fid=None, mode="free", waive=None, event=None):
        """Put a dragon on a space, then queue its when-played abilities below the payment of its eggs.

        The card is on the mat while its cost is paid, so it is never in two places or none. `event`: the kind of
        event to record and its data (the action's coins in `cost`), e.g. ("enticed", {"cost": {"coin": 1}})."""
        if event is not None and self.events is not None:
            kind, data = event
            cost = data.setdefault("cost", {})
            if mode != "free" and not self.free_to_play(p, dragon, index):
                for item, n in self.dragon_cost(dragon, mode, waive).items():
                    if n:
                        cost[item] = cost.get(item, 0) + n
            self.emit(kind, p=p, dragon=dragon, space=index, **data)
        egg_cost = self._egg_cost(dragon, index, p, mode, waive)
        resources = self.pay_dragon(p, dragon, index, fid, mode, waive, push_eggs=False)
        pl = self.players[p]
        pl.spaces[index].dragon = dragon
        pl.fresh.append(dragon)
        self.stack.append({"t": "place_dragon", "p": p, "d": dragon, "i": index})
        if egg_cost:  # `part`: this pays part of a cost its event already names
            fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": egg_cost}]}, fid, part=1)
        if resources:  # resources the player must first make by exchange are paid before anything else
            fx.push_fx(self, resources, fid, part=1)

    def push_card_abilities(self, p, dragon, kind, index=None):
        card = self.cat.dragons[dragon]
        if kind not in card.kinds or not self.active(p, dragon, index):
            return
        for ability in reversed(card.abilities):
            if ability["kind"] == kind:
                push_ability(self, p, ability["effect"], ability.get("others"), src=dragon, kind=kind)

    def active(self, p, dragon, index=None):
        """A fledgling's abilities work only once it is fully trained."""
        card = self.cat.dragons[dragon]
        if card.size != "fledgling":
            return True
        pl = self.players[p]
        index = pl.find(dragon) if index is None else index
        return index is not None and pl.spaces[index].tokens >= len(card.training)

    def place_cave(self, p, cave_card, index, fid=None, free=True, covered=True, event=None):
        """Put a cave card on a space; then (after its column's eggs are paid) its when-played ability and the
        4th column's when-covered benefit. `event`: extra data of the "excavated" event (the action's coins)."""
        self.players[p].spaces[index].cave_card = cave_card
        self.stack.append({"t": "place_cave", "p": p, "card": cave_card, "i": index, "covered": covered})
        eggs = self.cat.excavate_eggs[index % COLUMNS]
        if self.events is not None:
            data = event or {}
            cost = data.setdefault("cost", {})
            if eggs and not free:
                cost["egg"] = eggs
            self.emit("excavated", p=p, card=cave_card, space=index, **data)
        if eggs and not free:
            fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": eggs}]}, fid, part=1)

    def cave_played(self, p, cave_card, index, covered=True):
        column_4 = covered and index % COLUMNS == COLUMNS - 1 and self.cat.column_4_effect
        if column_4 and any(a["kind"] == "when_played" for a in self.cat.caves[cave_card].abilities):
            self.stack.append({"t": "cave_order", "p": p, "card": cave_card})  # "in either order"
            return
        if column_4:
            self.push_column_4(p)
        self.push_cave_abilities(p, cave_card)

    def push_column_4(self, p):
        push_ability(self, p, self.cat.column_4_effect, source="the 4th column's when-covered benefit",
                     via=["column_4"])

    def push_cave_abilities(self, p, cave_card):
        card = self.cat.caves[cave_card]
        for ability in reversed(card.abilities):
            if ability["kind"] == "when_played":
                push_ability(self, p, ability["effect"], ability.get("others"), source=f"cave card {card.number}",
                             kind="when_played", via=["cave", cave_card])

    def next_empty(self, p, cave):
        """The leftmost space of a cave without a dragon (None when the cave is full)."""
        spaces = self.players[p].spaces
        for index in range(cave * COLUMNS, cave * COLUMNS + COLUMNS):
            if spaces[index].dragon is None:
                return index
        return None

    def next_unexcavated(self, p, cave):
        """The leftmost space of a cave still to excavate (None when all are); column 1 is excavated from the start."""
        spaces = self.players[p].spaces
        for index in range(cave * COLUMNS + 1, cave * COLUMNS + COLUMNS):
            if spaces[index].cave_card is None:
                return index
        return None

    def free_to_play(self, p, dragon, index):
        """A conditional-cost dragon's condition, counted as if it were already on the space."""
        cond = self.cat.dragons[dragon].free_if
        if not cond:
            return False
        space = self.players[p].spaces[index]
        before = space.dragon
        space.dragon = dragon
        try:
            fid = fx.new_frame(self, p, dragon)
            return fx.test(self, self.frames.pop(fid), cond)
        finally:
            space.dragon = before

    def dragon_cost(self, dragon, mode="printed", waive=None):
        """What playing a dragon costs in this mode: its printed cost, less resources or one waived item."""
        cost = dict(self.cat.dragons[dragon].cost)
        if mode == "no_resources":
            for r in RESOURCES:
                cost.pop(r, None)
        if waive and cost.get(waive):
            cost[waive] -= 1
        return cost

    def discounts(self, dragon):
        """The items a 'discount of 1 egg or any resource' may take off a dragon's printed cost (never a coin)."""
        cost = self.cat.dragons[dragon].cost
        return [item for item in RESOURCES + ("egg",) if cost.get(item)]

    def can_afford_dragon(self, p, dragon, index, extra_coins=0, mode="printed", eggs=None, exchange=False,
                          waive=None):
        """Whether the player can pay; with `exchange`, resources they lack may be made by exchanges."""
        pl = self.players[p]
        card = self.cat.dragons[dragon]
        if mode == "free" or (card.free_if and self.free_to_play(p, dragon, index)):
            return pl.coins >= extra_coins
        if mode == "discount_one":
            return any(self.can_afford_dragon(p, dragon, index, extra_coins, "printed", eggs, exchange, item)
                       for item in self.discounts(dragon) or [None])
        if mode == "printed" and not waive:  # the common case, asked for every card in hand every turn: no copy
            if not exchange:
                return pl.holds(card, extra_coins, pl.eggs() if eggs is None else eggs)
            coin, egg, need = card.coin_cost, card.egg_cost, card.res_cost
        else:
            cost = self.dragon_cost(dragon, mode, waive)
            coin, egg, need = cost.get("coin", 0), cost.get("egg", 0), [cost.get(r, 0) for r in RESOURCES]
        if egg and eggs is None:
            eggs = pl.eggs()
        if pl.coins < extra_coins + coin or (egg and eggs < egg):
            return False
        return resources_cover(self.cat, pl.res, need) if exchange else all(map(ge, pl.res, need))

    def _egg_cost(self, dragon, index, p, mode, waive):
        if mode == "free" or self.free_to_play(p, dragon, index):
            return 0
        return self.dragon_cost(dragon, mode, waive).get("egg", 0)

    def pay_dragon(self, p, dragon, index, fid, mode="printed", waive=None, push_eggs=True):
        """Take a dragon's cost: coins now, resources now when held (else the returned payment, which offers the
        exchange); eggs as decisions on the stack when `push_eggs`."""
        if mode == "free" or self.free_to_play(p, dragon, index):
            return None
        pl = self.players[p]
        cost = self.dragon_cost(dragon, mode, waive)
        need = [cost.get(r, 0) for r in RESOURCES]
        resources = None
        if all(have >= n for have, n in zip(pl.res, need)):
            for i, n in enumerate(need):
                pl.res[i] -= n
        else:
            resources = {"do": "pay", "cost": [{"item": r, "count": n} for r, n in zip(RESOURCES, need) if n]}
        pl.coins -= cost.get("coin", 0)
        if push_eggs:
            if cost.get("egg"):
                fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": cost["egg"]}]}, fid, part=1)
            if resources:
                fx.push_fx(self, resources, fid, part=1)
        return resources

    def automa_cache(self, share, source="", declined=False):
        """Solo with Dragon Academy: the Automa takes cache tokens for an opponents' share (automa.py)."""
        if self.automa is not None and self.options["academy"]:
            solo.cache(self, share, source, declined)

    def queue_guild(self, p, steps):
        """Queue `steps` Dragon Guild advancements for seat `p` on the stack (none for 0), for a word's handler; the
        running loop takes them next. Not `advance_guild`, the public door, which runs the stack itself."""
        if steps > 0:
            self.stack.append({"t": "guild", "p": p, "n": steps})

    # -- public entry points: main actions, firing an ability, checkpoints -----------------------------------------

    def main_actions(self, seat):
        """The main actions `seat` may take now (or could, were it their turn): the options of their action question."""
        self._require_seat(seat)
        if self.pending is not None and self.pending.player == seat and self.stack and self.stack[-1]["t"] == "turn":
            return list(self.pending.options)
        keep = self.next_frame  # a conditional cost is tested in a scratch frame; the count stays as it was
        try:
            return flow.main_options(self, seat)
        finally:
            self.next_frame = keep

    def at_main_action(self):
        """Whether the game waits for a player's main action (between abilities, not inside one)."""
        return self.pending is not None and bool(self.stack) and self.stack[-1]["t"] == "turn"

    def idle(self):
        """Whether the game waits for a player's main action with nothing running below it (no ability, round end
        or game end left to finish once the turn is taken)."""
        return self.at_main_action() and len(self.stack) == 1

    def count(self, counter, seat):
        """What `counter` (an objective tile's `counts`, a score's `per`) counts for `seat` now; leaves no trace in
        the state."""
        keep = self.next_frame
        fid = fx.new_frame(self, seat, source="objective")
        try:
            return fx.count(self, self.frames[fid], counter)
        finally:
            self.frames.pop(fid, None)
            self.next_frame = keep

    def hidden_mark(self):
        """A mark that changes whenever something hidden comes to light: a draw from a deck, a shuffle, a card
        revealed. Equal marks before and after a decision: it showed nothing new (`undo_blocked` reads the same)."""
        return (len(self.dragon_deck), len(self.cave_deck), self.rng.state, len(self.revealed))

    def can_act(self, seat, effect, src=-1, cave=-1):
        """Whether an effect could do anything for `seat` now (an ability that cannot is skipped without asking);
        leaves no trace in the state."""
        keep = self.next_frame
        fid = fx.new_frame(self, seat, src, cave=cave)
        try:
            return fx.possible(self, effect, self.frames[fid])
        finally:
            self.frames.pop(fid, None)
            self.next_frame = keep

    def fire(self, seat, card, k=0, untrained=False):
        """Fire ability `k` of a card for `seat` as the game triggers it, and run to the ability's first question.

        `card` is a space of `seat`'s mat (0-11: the dragon there, or its cave card when no dragon is there, as if
        just excavated), `("dragon", number)`, `("cave", number)` or `("guild", row)` (a row of the game's Dragon
        Guild tile, as if a marker were just placed there). Only between actions (at a main action, or with
        nothing pending). An untrained fledgling's abilities do not work: firing its if-activated ability offers a
        training, as walking onto it does, and its other abilities do nothing, unless `untrained` (for tools that
        show what an ability does). Returns whether anything was queued; `events` holds what the firing caused.
        """
        self._require_seat(seat)
        if self.finished:
            raise IllegalDecision("The game is over: no ability can fire.")
        self._between_actions()
        pl = self.players[seat]
        if isinstance(card, int) and not isinstance(card, bool):
            if not 0 <= card < len(pl.spaces):
                raise MalformedDecision("card: a mat space is 0 to 11 (cave * 4 + column)")
            index, space = card, pl.spaces[card]
            where = f"{CAVE_NAMES[card // COLUMNS]} column {card % COLUMNS + 1}"
            if space.dragon is not None:
                kind, number = "dragon", self.cat.dragons[space.dragon].number
            elif space.cave_card is not None:
                kind, number = "cave", self.cat.caves[space.cave_card].number
            else:
                raise IllegalDecision(f"{where} of player {seat}'s mat holds no dragon and no cave card")
        elif isinstance(card, (tuple, list)) and len(card) == 2 and card[0] in ("dragon", "cave", "guild"):
            kind, number = card
            index = None
        else:
            raise MalformedDecision('card: a mat space (0-11), ("dragon", number), ("cave", number) or '
                                    '("guild", row)')
        if kind == "guild":
            return self._fire_guild(seat, number, k)
        if isinstance(number, bool) or not isinstance(number, int):
            raise MalformedDecision("card: expected a card number")
        pool = (self.cat.dragon_deck if kind == "dragon" else self.cat.cave_deck)(self.options["academy"],
                                                                                   self.options["updated"])
        cards = self.cat.dragons if kind == "dragon" else self.cat.caves
        found = [i for i in pool if cards[i].number == number]
        if not found:
            raise IllegalDecision(f"This game has no {kind} card numbered {number}")
        which = found[0]
        abilities = cards[which].abilities
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(abilities):
            raise IllegalDecision(f"{cards[which].label()} has {len(abilities)} abilit"
                                  f"{'y' if len(abilities) == 1 else 'ies'}: ability {k} is not one of them")
        ability = abilities[k]
        self.pending = None
        if self.events is not None:
            self.events = []  # what the firing causes, as `apply` keeps what a decision causes
        if kind == "dragon":
            queued = self._fire_dragon(seat, which, ability, pl.find(which), untrained)
        elif index is not None and ability["kind"] == "when_played":
            self.cave_played(seat, which, index)  # as excavating it: with the 4th column's benefit, if any
            queued = True
        else:
            push_ability(self, seat, ability["effect"], ability.get("others"), source=f"cave card {number}",
                         kind=ability["kind"])
            queued = True
        self.run()
        return queued

    def fire_ability(self, seat, ability, src=-1, cave=-1, source="", ask=True):
        """Fire an ability written in the effect language (`{"effect": ..., "others": ..., "kind": ...}`) for `seat`,
        asked yes/no like a card's (`ask=False`: it runs at once, as a forced one does), as if it belonged to dragon
        `src` (or a mat icon of `cave`); between actions."""
        self._require_seat(seat)
        if self.finished:
            raise IllegalDecision("The game is over: no ability can fire.")
        self._between_actions()
        self.pending = None
        if self.events is not None:
            self.events = []
        push_ability(self, seat, ability["effect"], ability.get("others"), src=src, cave=cave, ask=ask, source=source,
                     kind=ability.get("kind", ""))
        self.run()

    def _between_actions(self):
        if self.pending is not None and not self.at_main_action():
            raise IllegalDecision("An ability fires between actions; the game is waiting for an answer to: "
                                  f"{self.pending.prompt}")

    def _fire_dragon(self, seat, dragon, ability, index, untrained):
        kind, effect = ability["kind"], ability["effect"]
        card = self.cat.dragons[dragon]
        if card.size == "fledgling" and not untrained and not self.active(seat, dragon, index):
            if kind != "if_activated" or index is None:
                return False
            push_ability(self, seat, {"do": "train", "on": {"scope": "here"}}, src=dragon, source="training")
            return True
        if kind in ("on_feed", "on_grow_up"):
            if index is None:
                raise IllegalDecision(f"{card.label()} is fed only on a mat")
            before = len(self.stack)
            feed(self, seat, index, card.feeds_on)
            return len(self.stack) > before
        if kind == "when_played" and index is not None:
            self.players[seat].fresh.append(dragon)  # just played: its if-activated ability waits a turn
        if kind == "end_game":
            push_ability(self, seat, effect, src=dragon, ask=asks_first(effect), source=f"dragon:{dragon}",
                         kind=kind)
        else:
            push_ability(self, seat, effect, ability.get("others"), src=dragon, kind=kind, source=f"dragon:{dragon}")
        return True

    def _fire_guild(self, seat, row, k):
        rows = self.tile_rows()
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < len(rows):
            raise IllegalDecision(f"The game's Dragon Guild tile has {len(rows)} rows (0 to {len(rows) - 1})")
        if k != 0:
            raise IllegalDecision("A Dragon Guild row has one ability: 0")
        self.pending = None
        if self.events is not None:
            self.events = []
        effect = rows[row]["effect"]
        if rows[row].get("end_game"):
            push_ability(self, seat, effect, ask=False, source="guild")
        else:
            push_ability(self, seat, effect, source=f"{self.cat.guild_tiles[self.guild_tile]['name']} row {row + 1}")
        self.run()
        return True

    # -- doors for tools that set a position up (the analysis board): each moves the game as the rules would ---------

    def _require_seat(self, seat):
        """Refuse a seat that is not a whole number naming a player of this game (the public doors' one check)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.players):
            raise MalformedDecision(f"seat: expected 0 to {len(self.players) - 1}")

    def put_to_move(self, seat):
        """Make it `seat`'s turn, asking for their main action, whatever was running (an edited position): even a
        lone option (only "pass") is asked, where play would take it at once, so a tool can show it."""
        self._require_seat(seat)
        if self.finished:
            return
        self.players[seat].passed = False
        self.current = seat
        self.frames.clear()
        self.stack = [{"t": "turn"}]
        self.pending = Pending(seat, "main_action", {}, tuple(flow.main_options(self, seat)))

    def end_turn_now(self, seat):
        """End `seat`'s turn as after any action (hand limit, coins over the cap, the display refilled, the next
        player who has not passed to move, or the round's end) and run to the next question."""
        self._require_seat(seat)
        self.players[seat].passed = False
        self.current = seat
        self.frames.clear()
        self.stack = [{"t": "end_turn", "p": seat}]
        self.pending = None
        self.run()

    def end_round_now(self, last=False):
        """Everyone passes: the round ends (objective, income, the next round), or with `last` the game ends."""
        if last:
            self.round = self.cat.rounds
        for pl in self.players:
            pl.passed = True
        self.frames.clear()
        self.stack = [{"t": "turn"}]
        self.pending = None
        self.run()

    def exchange_resources(self, seat, args):
        """`seat` makes the exchange `args` (the resources given, then the kind received) now, whoever is being
        asked: the rules allow it at any point in the game. The pending question is asked again of what is held
        then. Raises IllegalDecision, changing nothing, when `seat` cannot make that exchange."""
        self._require_seat(seat)
        option = Option("exchange", tuple(args))
        if option not in exchange_options(self.cat, self.players[seat]):
            give, get = self.cat.exchange_give, self.cat.exchange_get
            raise IllegalDecision(f"An exchange gives {give} resources the player holds for {get} of another kind: "
                                  f"{', '.join(map(str, args)) or 'nothing'} is not one player {seat + 1} can make.")
        exchange_now(self, seat, option.args)
        self.reask()

    def advance_guild(self, seat, steps):
        """Move `seat` `steps` spaces on the Dragon Guild, as a guild icon does (each space's benefit, a brown space
        a marker on the tile), on top of whatever is running, and run to the next question."""
        self._require_seat(seat)
        self.pending = None
        self.stack.append({"t": "guild", "p": seat, "n": steps})
        self.run()

    def checkpoint(self):
        """This moment, to `restore` later in the same turn (see `undo_blocked`)."""
        return Checkpoint(self.to_json(), self.decided, self.pending.player if self.pending else None,
                          (len(self.dragon_deck), len(self.cave_deck)), self.rng.state)

    def undo_blocked(self, cp, since=None):
        """Why the game may no longer go back to checkpoint `cp` (None while it may): something hidden was revealed
        (a draw, a reveal, a shuffle) or another player answered or must answer.

        Who answered since is read from the log (`since`: the decisions taken since the checkpoint, for a state
        loaded without its log)."""
        if self.decided < cp.decisions or self.options != cp.state.get("options"):
            return "the checkpoint is not from this game's past"
        if (len(self.dragon_deck), len(self.cave_deck)) != tuple(cp.decks) or self.rng.state != cp.rng:
            return "a card was drawn or revealed since"
        if self.pending is not None and self.pending.player != cp.player:
            return "another player must answer now"
        if since is None and self.log is not None:
            since = self.log[cp.decisions:]
        if since is None or len(since) != self.decided - cp.decisions:
            return "the decisions taken since the checkpoint are not known"
        if any(d["p"] != cp.player for d in since):
            return "another player answered since"
        return None

    def restore(self, cp, force=False, since=None):
        """Go back to checkpoint `cp`; refused (IllegalDecision) once `undo_blocked` says why, unless `force`."""
        why = None if force else self.undo_blocked(cp, since)
        if why is not None:
            raise IllegalDecision(f"You can no longer undo: {why}.")
        log = self.log[:cp.decisions] if self.log is not None else None
        recording = self.events is not None
        back = GameState.from_json(self.cat, cp.state, log=log)
        self.__dict__.update(back.__dict__)
        self.events = [] if recording else None

    # -- labels and errors ------------------------------------------------------------------------------------

    def label(self, option):
        return label(self, option)

    def option_info(self, option):
        """An option as data: kind, args, label, cost and gain, and the card, space or cave it concerns."""
        if not isinstance(option, Option):
            option = Option.from_dict(option)
        return option_info(self, option)

    def explain_illegal(self, option):
        return explain_illegal(self, option)

    # -- copies -----------------------------------------------------------------------------------------------

    def clone(self):
        """An independent copy of the game, without JSON: its `to_json()` equals this one's, and playing on either
        never changes the other. Search makes thousands a second (about 10 µs for a 2-player game)."""
        d = self.__dict__
        c = d.copy()  # numbers, text, the catalogue and `pending` (frozen tuples) are shared as they are
        c["options"] = d["options"].copy()
        c["rng"] = Rng(self.rng.state)
        c["players"] = [p.copy() for p in self.players]
        for name in _INT_LISTS:
            c[name] = d[name][:]
        c["guild_board"] = [[sq[:] for sq in row] for row in self.guild_board]
        c["objectives"] = [o[:] for o in self.objectives]
        c["income_taken"] = d["income_taken"].copy()
        c["stack"] = [_clone_task(t) for t in self.stack]
        c["frames"] = {fid: _clone_frame(f) for fid, f in self.frames.items()}
        if self.log is not None:
            c["log"] = d["log"][:]  # its entries are never changed once written
        if self.result is not None:
            c["result"] = _deep(self.result)
        if self.events is not None:
            c["events"] = d["events"][:]
        if self.automa is not None:
            c["automa"] = _deep(self.automa)
        if len(c) != len(_CLONED) or c.keys() != _CLONED:  # an attribute this method does not know: copy it deeply
            for name in c.keys() - _CLONED:
                c[name] = _deep(c[name])
        st = _new(type(self))
        st.__dict__ = c
        return st

    # -- serialization ----------------------------------------------------------------------------------------

    def to_json(self):
        pending = None
        if self.pending is not None:
            pending = {"player": self.pending.player, "kind": self.pending.kind, "data": _copy(self.pending.data),
                       "options": [o.to_dict() for o in self.pending.options]}
        return {
            "version": FORMAT_VERSION, "options": dict(self.options), "rng": self.rng.state, "round": self.round,
            "start": self.start, "current": self.current, "turns": self.turns,
            "players": [p.to_json() for p in self.players],
            "dragon_deck": list(self.dragon_deck), "cave_deck": list(self.cave_deck),
            "display_dragons": list(self.display_dragons), "display_caves": list(self.display_caves),
            "dragon_discard": list(self.dragon_discard), "cave_discard": list(self.cave_discard),
            "revealed": list(self.revealed), "guild_tile": self.guild_tile,
            "guild_board": [[list(sq) for sq in row] for row in self.guild_board],
            "objectives": [list(o) for o in self.objectives], "income_taken": dict(self.income_taken),
            "stack": _copy(self.stack), "frames": _copy(self.frames), "next_frame": self.next_frame,
            "pending": pending, "decisions": self.decided, "result": _copy(self.result),
            "automa": _copy(self.automa),
        }

    @classmethod
    def from_json(cls, catalogue, data, log=None):
        """The state saved by `to_json`. The saved state does not hold the decision log: pass it as `log` (a list of
        `{"p", "kind", "args"}`) to replay from the loaded state later; without it `log` is None."""
        if not isinstance(data, dict) or data.get("version") not in (1, FORMAT_VERSION):
            raise MalformedDecision("not a saved game of this engine version")
        st = cls(catalogue)
        st.options = dict(data["options"])
        st.rng = Rng(data["rng"])
        st.round, st.start, st.current, st.turns = data["round"], data["start"], data["current"], data["turns"]
        st.players = [Player.from_json(i, p) for i, p in enumerate(data["players"])]
        st.dragon_deck = list(data["dragon_deck"])
        st.cave_deck = list(data["cave_deck"])
        st.display_dragons = list(data["display_dragons"])
        st.display_caves = list(data["display_caves"])
        st.dragon_discard = list(data["dragon_discard"])
        st.cave_discard = list(data["cave_discard"])
        st.revealed = list(data["revealed"])
        st.guild_tile = data["guild_tile"]
        st.guild_board = [[list(sq) for sq in row] for row in data["guild_board"]]
        st.objectives = [list(o) for o in data["objectives"]]
        st.income_taken = dict(data["income_taken"])
        st.stack = _copy(data["stack"])
        st.frames = _copy(data["frames"])
        st.next_frame = data["next_frame"]
        pending = data["pending"]
        if pending is not None:
            options = tuple(Option.from_dict(o) for o in pending["options"])
            if "kind" in pending:
                st.pending = Pending(pending["player"], pending["kind"], _copy(pending["data"]), options)
            else:  # a save from before typed questions: the kind from the waiting task, the words kept as they were
                kind = legacy_kind(st.stack[-1] if st.stack else {}, options)
                st.pending = Pending(pending["player"], kind, {"prompt": pending.get("prompt", "")}, options)
        if data["version"] == 1:  # the log used to be saved inside the state
            st.log = _copy(data["log"]) if log is None else _copy(log)
            st.decided = len(data["log"])
        else:
            st.log = None if log is None else _copy(log)
            st.decided = data["decisions"]
        if st.log is not None and len(st.log) != st.decided:
            raise MalformedDecision(f"log: {len(st.log)} decisions given for a game that has taken {st.decided}")
        st.result = _copy(data["result"])
        st.automa = _copy(data.get("automa"))
        st.events = []
        return st

    @classmethod
    def replay(cls, catalogue, options, decisions):
        """Rebuild a game from its setup options and decision log."""
        st = cls.new(catalogue, players=options["players"], seed=options["seed"],
                     academy=options.get("academy", False), updated=options.get("updated"),
                     automa=options.get("automa"))
        for decision in decisions:
            st.apply(Option(decision["kind"], tuple(decision["args"])))
        return st


_INT_LISTS = ("dragon_deck", "cave_deck", "display_dragons", "display_caves", "dragon_discard", "cave_discard",
              "revealed")
_SHARED = ("cat", "round", "start", "current", "guild_tile", "next_frame", "pending", "turns", "decided")
_CLONED = frozenset(_INT_LISTS + _SHARED + ("options", "rng", "players", "guild_board", "objectives", "income_taken",
                                            "stack", "frames", "log", "result", "events", "automa"))
_EFFECT_KEYS = frozenset(("e", "o"))  # a task's effect trees: catalogue data, never changed while they run


def _clone_task(task):
    out = task.copy()
    for key, value in task.items():
        if (type(value) is list or type(value) is dict) and key not in _EFFECT_KEYS:
            out[key] = _deep(value)
    return out


def _clone_frame(frame):
    out = frame.copy()  # its player, source and parent are numbers and text; only its variables change
    bound = frame["vars"]
    out["vars"] = _deep(bound) if bound else {}
    return out


def _deep(value):
    """A deep copy of lists and dicts that keeps everything else (tuples, Options, numbers, text) as it is."""
    t = type(value)
    if t is dict:
        return {k: _deep(v) for k, v in value.items()}
    if t is list:
        return [_deep(v) for v in value]
    return value


_LEGACY_WORDS = {"cover_dragon": "cover", "lay_egg": "lay_egg", "cache": "cache", "tuck": "tuck", "choose": "choose",
                 "may": "may", "repeat": "repeat", "excavate": "excavate", "play_dragon": "play_dragon",
                 "swap_dragons": "swap_dragons", "swap_with_hand": "swap_with_hand",
                 "swap_cave_card": "swap_cave_card", "train": "train", "activate": "activate",
                 "distribute": "distribute"}
_LEGACY_TASKS = {"turn": "main_action", "setup_cards": "setup_keep", "setup_resources": "setup_resources",
                 "once_per_round": "ability_order", "marker": "guild_marker", "cave_order": "cave_order",
                 "ability": "use_ability", "others": "opponent_offer"}


def legacy_kind(task, options):
    """The question kind of a save written before questions had kinds, read from the task that asked it."""
    first = options[0] if options else Option("")
    name = task.get("t")
    if name == "end_turn":
        return "discard_cards" if first.args and first.args[0] in ("dragon", "cave") else "discard_resources"
    if name == "fx":
        word = (task.get("e") or {}).get("do")
        if word == "pay":
            return "exchange_to_pay" if first.kind == "exchange" else "pay"
        if word == "gain":
            return "take_card" if first.kind == "take" else "gain_resource"
        return _LEGACY_WORDS.get(word, "")
    return _LEGACY_TASKS.get(name, "")


def _copy(value):
    """A deep copy of plain JSON data (faster than copy.deepcopy, and turns tuples into lists)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value
