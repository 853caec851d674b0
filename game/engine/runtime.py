"""What running an effect needs, shared by the interpreter and the words: the registry of word handlers (each
registered against a declaration of game/language/words.py), frames and variables, targets, counters, conditions,
and queuing effects and abilities on the state's stack.

Frames hold what an ability knows while it runs: whose it is (`p`), the dragon it belongs to (`src`, so `here`
follows the card if it moves), the cave a mat icon sits in, and the variables bound with `as`.
"""
from ..language.vocabulary import SIZE_SET, TRAITS
from ..language.words import IF_DONE, declared
from .catalogue import CAVE_INDEX, RES_INDEX
from .decisions import Option
from .model import COLUMNS

WORDS = {}
CAN = {}

YES = Option("yes")
NO = Option("no")
YES_NO = (YES, NO)


def word(name):
    """Register the handler of a declared effect word (game/language/words.py): handler(state, task, frame)."""
    declared(name)  # behaviour for a word the language does not declare is refused here

    def register(fn):
        WORDS[name] = fn
        return fn
    return register


def can(name):
    """Register a check: can this word do anything now? (Used to skip asking about abilities that cannot act.)"""
    declared(name)

    def register(fn):
        CAN[name] = fn
        return fn
    return register


# -- frames and variables -------------------------------------------------------------------------------------

def new_frame(st, p, src=-1, owner=None, cave=-1, parent=None, source=""):
    st.next_frame += 1
    fid = str(st.next_frame)
    st.frames[fid] = {"p": p, "src": src, "owner": p if owner is None else owner, "cave": cave, "parent": parent,
                      "vars": {}, "source": source}
    return fid


def get_var(st, frame, name):
    while frame is not None:
        if name in frame["vars"]:
            return frame["vars"][name]
        frame = st.frames.get(frame["parent"]) if frame["parent"] else None
    return None


def set_var(frame, name, value):
    frame["vars"][name] = value


def push_fx(st, node, fid, **extra):
    task = {"t": "fx", "e": node, "f": fid}
    if extra:
        task.update(extra)
    st.stack.append(task)


def push_then(st, node, fid):
    """Push an acting word's follow-up (`if_done`), once it has acted."""
    then = node.get(IF_DONE)
    if then is not None:
        push_fx(st, then, fid)


def then_if_done(st, task, node):
    """A counted word's `if_done` runs only if the word acted at least once."""
    if task["done"]:
        push_then(st, node, task["f"])


def possible(st, node, frame):
    check = CAN.get(node["do"])
    return True if check is None else check(st, node, frame)


# -- where an ability looks -----------------------------------------------------------------------------------

def here(st, frame):
    """The space of the dragon that owns the ability, on its owner's mat (None for opponents and mat icons)."""
    if frame["src"] < 0 or frame["p"] != frame["owner"]:
        return None
    return st.players[frame["p"]].find(frame["src"])


def scope_spaces(st, frame, tgt):
    """Space indices a target or counter looks at, before filters."""
    if tgt.get("cave"):
        c = CAVE_INDEX[tgt["cave"]]
        return range(c * COLUMNS, c * COLUMNS + COLUMNS)
    scope = tgt.get("scope", "mat")
    if scope == "mat":
        return range(12)
    h = here(st, frame)
    if h is None:
        if scope in ("cave", "row") and frame["cave"] >= 0 and frame["p"] == frame["owner"]:
            c = frame["cave"]
            return range(c * COLUMNS, c * COLUMNS + COLUMNS)
        return ()
    cave, col = divmod(h, COLUMNS)
    if scope == "here":
        return (h,)
    if scope in ("cave", "row"):
        return range(cave * COLUMNS, cave * COLUMNS + COLUMNS)
    if scope == "column":
        return tuple(c * COLUMNS + col for c in range(3))
    if scope == "beside":
        return tuple(cave * COLUMNS + c for c in (col - 1, col + 1) if 0 <= c < COLUMNS)
    if scope == "right_of":
        return tuple(cave * COLUMNS + c for c in range(col + 1, COLUMNS))
    if scope == "adjacent":
        out = [cave * COLUMNS + c for c in (col - 1, col + 1) if 0 <= c < COLUMNS]
        out += [c * COLUMNS + col for c in (cave - 1, cave + 1) if 0 <= c < 3]
        return tuple(sorted(out))
    raise ValueError(f"unknown scope {scope!r}")


def _as_list(value):
    return (value,) if isinstance(value, str) else value


def dragon_matches(st, frame, space, tgt):
    d = space.dragon
    if d is None:
        return False
    card = st.cat.dragons[d]
    if "trait" in tgt and card.trait not in _as_list(tgt["trait"]):
        return False
    if "not_trait" in tgt and card.trait in _as_list(tgt["not_trait"]):
        return False
    if "size" in tgt and card.size not in _as_list(tgt["size"]):
        return False
    if "not_size" in tgt and card.size in _as_list(tgt["not_size"]):
        return False
    if "kind" in tgt and not card.kinds.intersection(_as_list(tgt["kind"])):
        return False
    if tgt.get("other") and d == frame["src"]:
        return False
    if tgt.get("trained") and not (card.size == "fledgling" and space.tokens >= len(card.training)):
        return False
    if tgt.get("untrained") and not (card.size == "fledgling" and space.tokens < len(card.training)):
        return False
    if "cost_has" in tgt and not card.cost.get(tgt["cost_has"]):
        return False
    if "cost_total_min" in tgt and card.cost_total < tgt["cost_total_min"]:
        return False
    if "cost_total_max" in tgt and card.cost_total > tgt["cost_total_max"]:
        return False
    return True


def targets(st, frame, tgt):
    """Spaces holding a dragon that the target names, on the acting player's mat."""
    tgt = tgt or {}
    spaces = st.players[frame["p"]].spaces
    return [i for i in scope_spaces(st, frame, tgt)
            if spaces[i].dragon is not None and dragon_matches(st, frame, spaces[i], tgt)]


# -- counters and conditions ----------------------------------------------------------------------------------



def count(st, frame, counter):
    p = frame["p"]
    if counter.get("of") == "left_neighbour":
        if len(st.players) < 2:
            return 0
        p = (p + 1) % len(st.players)
        frame = dict(frame, p=p, owner=-2)  # here-relative scopes mean nothing on another mat
    player = st.players[p]
    cat = st.cat
    what = counter["what"]
    spaces = player.spaces
    scope = scope_spaces(st, frame, counter)
    if what in ("cave_cards", "cards_in_cave", "excavated"):
        n = 0
        for i in scope:
            s = spaces[i]
            if what == "excavated":
                n += player.excavated(i)
            else:
                n += s.cave_card is not None
                if what == "cards_in_cave" and s.dragon is not None:
                    n += 1
    elif what == "filled_columns":
        n = sum(1 for col in range(COLUMNS) if all(spaces[c * COLUMNS + col].dragon is not None for c in range(3)))
    elif what == "guild_markers":
        n = len(player.markers)
    elif what == "guild_position":
        n = len(player.markers) * 1000 + player.guild if player.markers else 0
    elif what == "objectives_lowest":
        n = 0
        for rnd in range(len(player.objectives)):
            mine = player.objectives[rnd] or 99
            if all((q.objectives[rnd] or 99) <= mine for q in st.players if len(q.objectives) > rnd):
                n += 1
    elif what == "best_cave_resource_icons":
        n = 0
        for c in range(3):
            total = sum(cat.dragons[spaces[i].dragon].resource_icons
                        for i in range(c * COLUMNS, c * COLUMNS + COLUMNS)
                        if dragon_matches(st, frame, spaces[i], counter))
            n = max(n, total)
    else:
        matched = [spaces[i] for i in scope
                   if spaces[i].dragon is not None and dragon_matches(st, frame, spaces[i], counter)]
        if what == "dragons":
            n = len(matched)
        elif what == "eggs":
            n = sum(s.eggs for s in matched)
            only_mat = counter.get("scope", "mat") == "mat" and not counter.get("cave") and not any(
                k in counter for k in ("trait", "not_trait", "size", "not_size", "kind", "other"))
            if counter.get("include_mat_nests", only_mat):
                n += player.nest
        elif what == "cached":
            item = counter.get("item")  # one resource, where a card counts only that (dragons 17 and 29)
            n = sum(s.cached[RES_INDEX[item]] if item else sum(s.cached) for s in matched)
        elif what == "tucked":
            n = sum(len(s.tucked) for s in matched)
        elif what == "nest_capacity":
            n = sum(cat.dragons[s.dragon].capacity for s in matched)
        elif what == "training_tokens":
            n = sum(s.tokens for s in matched)
        elif what == "resource_icons":
            n = sum(cat.dragons[s.dragon].resource_icons for s in matched)
        elif what in ("trait_sets", "size_sets"):
            kinds = TRAITS if what == "trait_sets" else SIZE_SET
            attr = "trait" if what == "trait_sets" else "size"
            have = [getattr(cat.dragons[s.dragon], attr) for s in matched]
            n = min(have.count(k) for k in kinds)
        else:
            raise ValueError(f"cannot count {what!r}")
    div = counter.get("div")
    return n // div if div else n


def amount(st, frame, value):
    return value if isinstance(value, int) else count(st, frame, value)


def test(st, frame, cond, card_var="it"):
    """Whether a condition holds; a `card` test reads the card bound to `card_var` (the reveal's `as`)."""
    (op, arg), = cond.items()
    if op == "at_least":
        return amount(st, frame, arg[0]) >= amount(st, frame, arg[1])
    if op == "at_most":
        return amount(st, frame, arg[0]) <= amount(st, frame, arg[1])
    if op == "equal":
        return amount(st, frame, arg[0]) == amount(st, frame, arg[1])
    if op == "all":
        return all(test(st, frame, c, card_var) for c in arg)
    if op == "any":
        return any(test(st, frame, c, card_var) for c in arg)
    if op == "not":
        return not test(st, frame, arg, card_var)
    if op == "card":
        card = get_var(st, frame, card_var)
        if isinstance(card, list) and card and isinstance(card[0], list):
            card = card[0]
        if not (isinstance(card, list) and card[0] == "dragon"):
            return False
        info = st.cat.dragons[card[1]]
        if "size" in arg and info.size not in _as_list(arg["size"]):
            return False
        if "trait" in arg and info.trait not in _as_list(arg["trait"]):
            return False
        return True
    raise ValueError(f"unknown condition {op!r}")


# -- abilities ------------------------------------------------------------------------------------------------

def push_ability(st, p, effect, others=None, src=-1, cave=-1, ask=True, source="", kind="", via=None):
    """Queue one ability: its owner's optional effect, then each opponent's optional share, clockwise.

    `via` names a card ability that belongs to no dragon, for its events: ["cave", card], ["guild_row", row],
    ["column_4"]."""
    task = {"t": "ability", "p": p, "src": src, "cave": cave, "e": effect, "o": others, "ask": ask,
            "source": source, "kind": kind}
    if via is not None:
        task["via"] = via
    st.stack.append(task)


