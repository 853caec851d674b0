"""The ability checker page: a GET form (so every check, and every step of it, is a link) that the API's service
runs; `?partial=1` returns only the result, for the page's script to swap in while a spinner turns."""
from urllib.parse import urlencode

from django.shortcuts import render
from django.views.decorators.gzip import gzip_page

from .checker import services
from .checker.errors import CheckerInputError
from .checker.links import try_links
from .checker.situation import DEFAULTS, MAX_COUNT
from .engine.catalogue import CAVE_NAMES, CAVES, RESOURCES

DRAGON_ROWS = 6
SPACE_FIELDS = ("eggs", "tucked", "tokens", "fed")
SPACE_KEYS = {"eggs": "eggs", "tucked": "tucked", "tokens": "training_tokens", "fed": "fed"}
SPACE_LABELS = {"eggs": "Eggs", "tucked": "Tucked", "tokens": "Training tokens", "fed": "Times fed"}
FORM_KEYS = ("card", "ability", "players", "seed", "academy", "hand", "cave_cards", "coins", "nest_eggs", "guild",
             "deck_top", "at_cave", "at_column") + tuple(f"at_{k}" for k in SPACE_FIELDS + RESOURCES) + \
    tuple(f"res_{r}" for r in RESOURCES) + tuple(f"d{i}_{k}" for i in range(DRAGON_ROWS)
                                                 for k in ("card", "cave", "column") + SPACE_FIELDS + RESOURCES)


def _int(text, path):
    try:
        return int(text.strip())
    except ValueError:
        raise CheckerInputError(path, f"expected a whole number, not {text.strip()!r}") from None


def _names(text):
    return [part.strip() for part in text.split(",") if part.strip()]


def _space(get, prefix, path):
    out = {}
    for key in SPACE_FIELDS:
        value = get(f"{prefix}_{key}")
        if value:
            out[SPACE_KEYS[key]] = _int(value, f"{path}.{SPACE_KEYS[key]}")
    cached = {}
    for r in RESOURCES:
        value = get(f"{prefix}_{r}")
        if value:
            cached[r] = _int(value, f"{path}.cached.{r}")
    if cached:
        out["cached"] = cached
    return out


def read_form(params):
    """The form's fields as an API body; the field paths of any mistake match the API's. Also returns, per
    situation.dragons index, the form row it came from (to put errors beside the right field)."""
    def get(name):
        return (params.get(name) or "").strip()

    body = {"card": get("card")}
    if get("ability"):
        body["ability"] = _int(get("ability"), "ability")
    s = {}
    for key in ("players", "seed", "cave_cards", "coins", "nest_eggs", "guild"):
        if get(key):
            s[key] = _int(get(key), f"situation.{key}")
    if get("academy"):
        s["academy"] = get("academy") != "0"
    hand = get("hand")
    if hand:
        s["hand"] = _int(hand, "situation.hand") if hand.lstrip("-").isdigit() else _names(hand)
    if get("deck_top"):
        s["deck_top"] = _names(get("deck_top"))
    resources = {r: _int(get(f"res_{r}"), f"situation.resources.{r}") for r in RESOURCES if get(f"res_{r}")}
    if resources:
        s["resources"] = {r: resources.get(r, 0) for r in RESOURCES}
    at = _space(get, "at", "situation.at")
    if get("at_cave"):
        at["cave"] = get("at_cave")
    if get("at_column"):
        at["column"] = _int(get("at_column"), "situation.at.column")
    if at:
        s["at"] = at
    rows, dragons = [], []
    for i in range(DRAGON_ROWS):
        if not get(f"d{i}_card"):
            continue
        path = f"situation.dragons[{len(dragons)}]"
        entry = {"card": get(f"d{i}_card"), "cave": get(f"d{i}_cave") or "crimson_cavern"}
        entry["column"] = _int(get(f"d{i}_column") or "1", f"{path}.column")
        entry.update(_space(get, f"d{i}", path))
        dragons.append(entry)
        rows.append(i)
    if dragons:
        s["dragons"] = dragons
    body["situation"] = s
    body["decisions"] = [_decision(text, f"decisions[{n}]") for n, text in enumerate(params.getlist("d"))]
    body["auto"] = get("auto") == "1"
    return body, rows


def _decision(text, path):
    """'cache:milk:4' -> {"kind": "cache", "args": ["milk", 4]} (numbers read as numbers)."""
    kind, *args = text.split(":")
    if not kind:
        raise CheckerInputError(path, "expected a decision such as yes or cache:milk:4")
    return {"kind": kind, "args": [int(a) if a.lstrip("-").isdigit() else a for a in args]}


def encode(decision):
    return ":".join([decision["kind"]] + [str(a) for a in decision["args"]])


def form_field(path, rows):
    """The form field a JSON path names (situation.dragons[0].cave -> d3_cave), or None for the whole form."""
    parts = path.replace("[", ".").replace("]", "").split(".")
    if parts[0] in ("card", "ability"):
        return parts[0]
    if parts[0] != "situation" or len(parts) < 2:
        return None
    key = parts[1]
    if key in ("players", "seed", "academy", "hand", "cave_cards", "coins", "nest_eggs", "guild", "deck_top"):
        return key
    if key == "resources":
        return f"res_{parts[2]}" if len(parts) > 2 else "res_meat"
    inverse = {v: k for k, v in SPACE_KEYS.items()}
    if key == "at":
        rest = parts[2:] or ["cave"]
        if rest[0] == "cached":
            return f"at_{rest[1]}" if len(rest) > 1 else "at_meat"
        return f"at_{inverse.get(rest[0], rest[0])}"
    if key == "dragons" and len(parts) > 2 and parts[2].isdigit() and int(parts[2]) < len(rows):
        row = rows[int(parts[2])]
        rest = parts[3:] or ["card"]
        if rest[0] == "cached":
            return f"d{row}_{rest[1]}" if len(rest) > 1 else f"d{row}_meat"
        return f"d{row}_{inverse.get(rest[0], rest[0])}"
    return None


def _links(params, result):
    """URLs for each next option, each earlier step, and 'resolve with first options', keeping the form."""
    base = [(k, params.get(k)) for k in FORM_KEYS if params.get(k)]

    def url(decisions, auto=False):
        query = base + [("d", encode(d)) for d in decisions] + ([("auto", "1")] if auto else [])
        return "?" + urlencode(query)

    taken = result["decisions"]
    for n, step in enumerate(result["steps"]):
        step["url"] = url(taken[:n])
    if result["pending"]:
        for option in result["pending"]["options"]:
            option["url"] = url(taken + [{"kind": option["kind"], "args": option["args"]}])
        result["auto_url"] = url(taken, auto=True)
    result["restart_url"] = url([])
    result["url"] = url(taken)


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def checker(request):
    params = request.GET
    context = {"values": {k: params.get(k, "") for k in FORM_KEYS}, "errors": {}, "general_errors": [],
               "result": None, "card": None}
    status = 200
    if params.get("card"):
        rows = []
        try:
            body, rows = read_form(params)
            context["card"] = services.card_info(body["card"])
            result = services.check(body)
            _links(params, result)
            result["try"] = try_links(context["card"]["ref"])  # the same card, set up on the board
            context["result"] = result
        except CheckerInputError as error:
            status = 400
            field = form_field(error.field, rows)
            if field:
                context["errors"][field] = error.message
            else:
                context["general_errors"].append(f"{error.field}: {error.message}")
    if params.get("partial") == "1":
        return render(request, "game/checker_result.html", context, status=status)
    choices, dragons = services.choices()
    context.update(_fields(context["values"], context["errors"], params))
    context.update({"card_choices": choices, "dragon_choices": dragons, "caves": list(zip(CAVES, CAVE_NAMES)),
                    "defaults": DEFAULTS, "max_count": MAX_COUNT})
    return render(request, "game/checker.html", context, status=status)


def _fields(values, errors, params):
    """Each form field as {name, label, value, error}, grouped the way the form shows them."""
    def field(name, label=""):
        return {"name": name, "label": label, "value": values.get(name, ""), "error": errors.get(name)}

    def space(prefix):
        return {"counts": [field(f"{prefix}_{k}", SPACE_LABELS[k]) for k in SPACE_FIELDS],
                "cached": [field(f"{prefix}_{r}", r.capitalize()) for r in RESOURCES]}

    f = {name: field(name) for name in FORM_KEYS}
    rows = []
    for i in range(DRAGON_ROWS):
        filled = bool(params.get(f"d{i}_card"))
        shown = filled or i == 0 or bool(params.get(f"d{i - 1}_card"))
        rows.append(dict(space(f"d{i}"), i=i, shown=shown, card=f[f"d{i}_card"], cave=f[f"d{i}_cave"],
                         column=f[f"d{i}_column"]))
    return {"f": f, "at": space("at"), "rows": rows,
            "supply": [field(f"res_{r}", r.capitalize()) for r in RESOURCES]}
