"""The game state: its data, asking and applying decisions, the small rules shared by actions and words, and JSON.

`GameState.new(catalogue, players=..., seed=...)` sets a game up; `legal_options()` lists what the player in
`pending` may do, in a stable order; `apply(option)` checks the option is one of them, then runs the game forward
until the next decision. Everything is plain data: `to_json()` / `from_json()` round-trip exactly. What happens
between decisions (turns, walks, round and game end) is the flow (flow.py), run as tasks on one stack.
"""
from ..language.vocabulary import RESOURCES
from . import flow  # noqa: F401  (registers the game's tasks, and through it every word)
from . import interpreter as fx
from .decisions import IllegalDecision, MalformedDecision, Option, Pending
from .exchange import resources_cover
from .interpreter import push_ability
from .labels import explain_illegal, label
from .model import COLUMNS, NEST, Player
from .rng import Rng
from .tasks import HANDLERS

FORMAT_VERSION = 1


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
        self.log = []
        self.result = None
        self.turns = 0

    # -- setup ------------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, catalogue, players=2, seed=0, academy=False, updated=None):
        """Set a game up by the rulebook; the first decisions are each player's starting cards and resources."""
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 5:
            raise MalformedDecision("players: a game has 2 to 5 players")
        if players == 1:  # the rulebook's solo game needs the Automa, which the engine does not play yet
            raise MalformedDecision("players: a game has 2 to 5 players; solo play against the Automa is not "
                                    "supported yet")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise MalformedDecision("seed: expected a whole number")
        updated = academy if updated is None else bool(updated)
        st = cls(catalogue)
        st.options = {"players": players, "seed": seed, "academy": bool(academy), "updated": updated}
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
        st.refill_display()
        st.start = st.rng.below(players)
        st.current = st.start
        st.stack.append({"t": "turn"})
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
        return self.dragon_deck.pop() if self.dragon_deck else None

    def draw_cave(self):
        if not self.cave_deck and self.cave_discard:
            self.cave_deck, self.cave_discard = self.cave_discard, []
            self.rng.shuffle(self.cave_deck)
        return self.cave_deck.pop() if self.cave_deck else None

    def refill_display(self):
        for i in range(3):
            if self.display_dragons[i] is None:
                self.display_dragons[i] = self.draw_dragon()
            if self.display_caves[i] is None:
                self.display_caves[i] = self.draw_cave()

    def refresh_display(self):
        for i in range(3):
            if self.display_dragons[i] is not None:
                self.dragon_discard.append(self.display_dragons[i])
                self.display_dragons[i] = None
            if self.display_caves[i] is not None:
                self.cave_discard.append(self.display_caves[i])
                self.display_caves[i] = None
        self.refill_display()

    # -- decisions --------------------------------------------------------------------------------------------

    def ask(self, task, player, prompt, options):
        """Wait for `player` to pick one of `options`; a single option is taken at once (no choice to make)."""
        if not options:  # every handler returns instead of asking about nothing: reaching here is an engine bug
            raise RuntimeError(f"engine error: no legal option for {prompt!r}")
        self.stack.append(task)
        if len(options) == 1:
            task["a"] = options[0]
            return
        self.pending = Pending(player, prompt, tuple(options))

    def reask(self):
        """Ask the pending question again after the state was edited by hand (tests, setting up a position)."""
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
        """Take one decision for the pending player; raise and change nothing if it is not a legal option."""
        if not isinstance(option, Option):
            option = Option.from_dict(option)
        if self.pending is None:
            raise IllegalDecision(f"You tried '{self.label(option)}', but the game is over: no decision is expected.")
        if option not in self.pending.options:
            raise IllegalDecision(self.explain_illegal(option))
        player = self.pending.player
        self.pending = None
        self.log.append({"p": player, "kind": option.kind, "args": list(option.args)})
        task = self.stack.pop()
        task["a"] = option
        HANDLERS[task["t"]](self, task)
        self.run()

    def run(self):
        stack = self.stack
        while self.pending is None and stack:
            task = stack.pop()
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

    def place_dragon(self, p, dragon, index, fid=None, mode="free", waive=None):
        """Put a dragon on a space, then queue its when-played abilities below the payment of its eggs.

        The card is on the mat while its cost is paid, so it is never in two places or none."""
        egg_cost = self._egg_cost(dragon, index, p, mode, waive)
        resources = self.pay_dragon(p, dragon, index, fid, mode, waive, push_eggs=False)
        pl = self.players[p]
        pl.spaces[index].dragon = dragon
        pl.fresh.append(dragon)
        self.stack.append({"t": "place_dragon", "p": p, "d": dragon, "i": index})
        if egg_cost:
            fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": egg_cost}]}, fid)
        if resources:  # resources the player must first make by exchange are paid before anything else
            fx.push_fx(self, resources, fid)

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

    def place_cave(self, p, cave_card, index, fid=None, free=True, covered=True):
        """Put a cave card on a space; then (after its column's eggs are paid) its when-played ability and the
        4th column's when-covered benefit."""
        self.players[p].spaces[index].cave_card = cave_card
        self.stack.append({"t": "place_cave", "p": p, "card": cave_card, "i": index, "covered": covered})
        eggs = self.cat.excavate_eggs[index % COLUMNS]
        if eggs and not free:
            fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": eggs}]}, fid)

    def cave_played(self, p, cave_card, index, covered=True):
        column_4 = covered and index % COLUMNS == COLUMNS - 1 and self.cat.column_4_effect
        if column_4 and any(a["kind"] == "when_played" for a in self.cat.caves[cave_card].abilities):
            self.stack.append({"t": "cave_order", "p": p, "card": cave_card})  # "in either order"
            return
        if column_4:
            self.push_column_4(p)
        self.push_cave_abilities(p, cave_card)

    def push_column_4(self, p):
        push_ability(self, p, self.cat.column_4_effect, source="the 4th column's when-covered benefit")

    def push_cave_abilities(self, p, cave_card):
        card = self.cat.caves[cave_card]
        for ability in reversed(card.abilities):
            if ability["kind"] == "when_played":
                push_ability(self, p, ability["effect"], ability.get("others"), source=f"cave card {card.number}",
                             kind="when_played")

    def next_empty(self, p, cave):
        """The leftmost space of a cave without a dragon (None when the cave is full)."""
        spaces = self.players[p].spaces
        for col in range(COLUMNS):
            if spaces[cave * COLUMNS + col].dragon is None:
                return cave * COLUMNS + col
        return None

    def next_unexcavated(self, p, cave):
        pl = self.players[p]
        for col in range(COLUMNS):
            if not pl.excavated(cave * COLUMNS + col):
                return cave * COLUMNS + col
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
        if mode == "free" or (self.cat.dragons[dragon].free_if and self.free_to_play(p, dragon, index)):
            return pl.coins >= extra_coins
        if mode == "discount_one":
            return any(self.can_afford_dragon(p, dragon, index, extra_coins, "printed", eggs, exchange, item)
                       for item in self.discounts(dragon) or [None])
        cost = self.dragon_cost(dragon, mode, waive)
        if cost.get("egg") and eggs is None:
            eggs = pl.eggs()
        if pl.coins < extra_coins + cost.get("coin", 0) or (cost.get("egg") and eggs < cost["egg"]):
            return False
        need = [cost.get(r, 0) for r in RESOURCES]
        return resources_cover(self.cat, pl.res, need) if exchange else all(have >= n for have, n in zip(pl.res, need))

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
                fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": cost["egg"]}]}, fid)
            if resources:
                fx.push_fx(self, resources, fid)
        return resources

    def advance_guild(self, p, steps):
        if steps > 0:
            self.stack.append({"t": "guild", "p": p, "n": steps})

    # -- labels and errors ------------------------------------------------------------------------------------

    def label(self, option):
        return label(self, option)

    def explain_illegal(self, option):
        return explain_illegal(self, option)

    # -- serialization ----------------------------------------------------------------------------------------

    def to_json(self):
        pending = None
        if self.pending is not None:
            pending = {"player": self.pending.player, "prompt": self.pending.prompt,
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
            "pending": pending, "log": _copy(self.log), "result": _copy(self.result),
        }

    @classmethod
    def from_json(cls, catalogue, data):
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
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
            st.pending = Pending(pending["player"], pending["prompt"],
                                 tuple(Option.from_dict(o) for o in pending["options"]))
        st.log = _copy(data["log"])
        st.result = _copy(data["result"])
        return st

    @classmethod
    def replay(cls, catalogue, options, decisions):
        """Rebuild a game from its setup options and decision log."""
        st = cls.new(catalogue, players=options["players"], seed=options["seed"],
                     academy=options.get("academy", False), updated=options.get("updated"))
        for decision in decisions:
            st.apply(Option(decision["kind"], tuple(decision["args"])))
        return st


def _copy(value):
    """A deep copy of plain JSON data (faster than copy.deepcopy, and turns tuples into lists)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value
