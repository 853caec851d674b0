"""The pieces of a game state: a player's mat spaces and a player. Plain mutable objects with __slots__ for speed."""
from operator import ge

_new = object.__new__

COLUMNS = 4
SPACES = 12  # 3 caves x 4 columns; a space index is cave * 4 + column
NEST = -1  # the mat's own nests, where an egg location is asked for


class Space:
    """One space of a mat: its cave card (column 0 needs none), its dragon and what lies on or under it."""

    __slots__ = ("cave_card", "dragon", "eggs", "cached", "tucked", "tokens", "fed", "grown")

    def __init__(self):
        self.cave_card = None
        self.dragon = None
        self.eggs = 0
        self.cached = [0, 0, 0, 0]
        self.tucked = []
        self.tokens = 0
        self.fed = 0
        self.grown = False

    def clear_dragon(self):
        self.dragon = None
        self.eggs = 0
        self.cached = [0, 0, 0, 0]
        self.tucked = []
        self.tokens = 0
        self.fed = 0
        self.grown = False

    def copy(self):
        """An independent copy (search clones states thousands of times a second: no JSON, no deepcopy)."""
        s = _new(Space)
        s.cave_card = self.cave_card
        s.dragon = self.dragon
        s.eggs = self.eggs
        s.cached = self.cached[:]
        s.tucked = self.tucked[:]
        s.tokens = self.tokens
        s.fed = self.fed
        s.grown = self.grown
        return s

    def to_json(self):
        return [self.cave_card, self.dragon, self.eggs, list(self.cached), list(self.tucked), self.tokens, self.fed,
                self.grown]

    @classmethod
    def from_json(cls, data):
        space = cls()
        (space.cave_card, space.dragon, space.eggs, cached, tucked, space.tokens, space.fed, space.grown) = data
        space.cached = list(cached)
        space.tucked = list(tucked)
        return space


class Player:
    __slots__ = ("seat", "coins", "res", "hand", "caves", "nest", "spaces", "guild", "markers", "objectives",
                 "explored", "passed", "income_space", "end_vp", "fresh")

    def __init__(self, seat):
        self.seat = seat
        self.coins = 0
        self.res = [0, 0, 0, 0]  # by kind, in the order of RESOURCES
        self.hand = []  # dragon cards (catalogue indices)
        self.caves = []  # cave cards in hand
        self.nest = 0  # eggs on the mat's own nests
        self.spaces = [Space() for _ in range(SPACES)]
        self.guild = 0  # advancements taken; track position is guild % track length (from its start)
        self.markers = []  # [row, square] on the Dragon Guild tile; row -1 is the END GAME VP row
        self.objectives = []  # place per scored round: 1, 2, 3 or 0 for "all others"
        self.explored = [0, 0, 0]  # explore visits per cave this round
        self.passed = False
        self.income_space = None  # Academy: index of the income space taken this round
        self.end_vp = {}  # source label -> VP scored by end-game abilities
        self.fresh = []  # dragons played this turn (their if-activated abilities wait)

    def excavated(self, index):
        return index % COLUMNS == 0 or self.spaces[index].cave_card is not None

    def dragon_count(self):
        n = 0
        for space in self.spaces:
            if space.dragon is not None:
                n += 1
        return n

    def eggs(self):
        n = self.nest
        for space in self.spaces:
            n += space.eggs
        return n

    def holds(self, card, extra_coins, eggs):
        """Whether the player holds a dragon card's printed cost and `extra_coins` more (`eggs`: those on the mat)."""
        return self.coins >= extra_coins + card.coin_cost and eggs >= card.egg_cost and all(
            map(ge, self.res, card.res_cost))

    def survey(self):
        """What the main actions read of the mat, in one pass (it is read before every main action): the eggs, the
        dragons, and per cave the leftmost space still to excavate and the leftmost space without a dragon (None
        where a cave has none)."""
        eggs, dragons = self.nest, 0
        dig, empty = [None, None, None], [None, None, None]
        spaces = self.spaces
        for cave in range(SPACES // COLUMNS):
            first = cave * COLUMNS
            for index in range(first, first + COLUMNS):
                space = spaces[index]
                eggs += space.eggs
                if space.dragon is not None:
                    dragons += 1
                elif empty[cave] is None:
                    empty[cave] = index
                if space.cave_card is None and index != first and dig[cave] is None:
                    dig[cave] = index  # column 1 is excavated from the start
        return eggs, dragons, dig, empty

    def card_count(self):
        return len(self.hand) + len(self.caves)

    def find(self, dragon):
        for i, space in enumerate(self.spaces):
            if space.dragon == dragon:
                return i
        return None

    def copy(self):
        """An independent copy: every list and dict of its own, every space copied."""
        p = _new(Player)
        p.seat = self.seat
        p.coins = self.coins
        p.res = self.res[:]
        p.hand = self.hand[:]
        p.caves = self.caves[:]
        p.nest = self.nest
        p.spaces = [s.copy() for s in self.spaces]
        p.guild = self.guild
        p.markers = [m[:] for m in self.markers]
        p.objectives = self.objectives[:]
        p.explored = self.explored[:]
        p.passed = self.passed
        p.income_space = self.income_space
        p.end_vp = self.end_vp.copy()
        p.fresh = self.fresh[:]
        return p

    def to_json(self):
        return {
            "coins": self.coins, "res": list(self.res), "hand": list(self.hand), "caves": list(self.caves),
            "nest": self.nest, "spaces": [s.to_json() for s in self.spaces], "guild": self.guild,
            "markers": [list(m) for m in self.markers], "objectives": list(self.objectives),
            "explored": list(self.explored), "passed": self.passed, "income_space": self.income_space,
            "end_vp": dict(self.end_vp), "fresh": list(self.fresh),
        }

    @staticmethod
    def saved_dragons(data):
        """The dragons (catalogue indices) on the mat of a player saved by `to_json`, read without loading the game:
        what everyone sees of a mat (`view_for` shows the same), for statistics over many finished games."""
        return [space[1] for space in data["spaces"] if space[1] is not None]

    @classmethod
    def from_json(cls, seat, data):
        p = cls(seat)
        p.coins = data["coins"]
        p.res = list(data["res"])
        p.hand = list(data["hand"])
        p.caves = list(data["caves"])
        p.nest = data["nest"]
        p.spaces = [Space.from_json(s) for s in data["spaces"]]
        p.guild = data["guild"]
        p.markers = [list(m) for m in data["markers"]]
        p.objectives = list(data["objectives"])
        p.explored = list(data["explored"])
        p.passed = data["passed"]
        p.income_space = data["income_space"]
        p.end_vp = dict(data["end_vp"])
        p.fresh = list(data["fresh"])
        return p
