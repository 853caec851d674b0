"""Pages of the score calculator: the form, a saved sheet's permalink and a player's history."""
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.gzip import gzip_page

from game.engine.catalogue import CAVE_NAMES, CAVES

from .calculator import charts, lookups, services
from .calculator.form import layout, place_errors, read_post, to_post
from .calculator.score import CATEGORY_LABELS, cached_kinds, choice_options
from .calculator.sheet import SheetInvalid
from .models import ScoreSheet


def _choices():
    """What the form's lists and autocompletes offer, read from the catalogue (once per catalogue version)."""
    cat = lookups.current()
    if getattr(cat, "form_choices", None) is None:
        cat.form_choices = _read_choices(cat)
    return cat.form_choices


def _read_choices(cat):
    engine = cat.engine
    dragons = []
    for card in engine.dragons:
        dragons.append({"label": cat.dragon_label(card.index), "academy": card.expansion != "base",
                        "number": card.number, "name": card.name, "printing": card.printing,
                        "slug": cat.slugs[card.index],
                        "habitats": ",".join(str(h) for h in card.habitats), "capacity": card.capacity,
                        "training": len(card.training), "choices": choice_options(card)})
    guilds = [{"number": t["number"], "name": t["name"], "academy": t.get("expansion", "base") != "base"}
              for t in engine.guild_tiles]
    from .calculator.score import render_counter_text
    objectives = []
    for tile in engine.objective_tiles:
        for side, info in sorted(tile["sides"].items()):
            objectives.append({"value": f"{tile['number']}{side}",
                               "label": f"{tile['number']}{side.upper()}: {render_counter_text(info['counts'])}",
                               "academy": tile.get("expansion", "base") != "base"})
    for card, entry in zip(engine.dragons, dragons):
        entry["counts"] = cached_kinds(card)[:1]
        entry["fledgling"] = card.size == "fledgling"
        entry["caves"] = [CAVES[h] for h in card.habitats]
    with_choice = [d for d in dragons if d["choices"]]
    places = [("", "—"), ("1", "1st"), ("2", "2nd"), ("3", "3rd"), ("0", "other")]
    return {"place_options": places, "dragon_options": dragons, "guild_options": guilds,
            "objective_options": objectives, "choice_dragons": with_choice, "end_vp": cat.guild_end_vp}


def _result_context(result):
    rows = [{"key": c["key"], "label": c["label"], "values": [line["breakdown"][c["key"]] for line in result["lines"]]}
            for c in result["categories"]]
    for round_ in result["objectives"]:
        columns = zip(round_["counts"], round_["from_mat"], round_["place_names"], round_["vp"])
        round_["cells"] = [{"count": count, "from_mat": from_mat, "place": place, "vp": vp}
                           for count, from_mat, place, vp in columns]
    return {"result": result, "rows": rows, "chart": charts.stacked_bars(result["lines"], CATEGORY_LABELS),
            "ranked": [result["lines"][i] for i in result["ranking"]]}


def _preview(post):
    """Running totals and each dragon's ability VP while the page is typed in, keyed by the page's own names."""
    cat = lookups.current()
    data, where = read_post(post, cat)
    lines, errors = services.preview(data)
    totals, final, dragons = {}, {}, {}
    for seat, line in enumerate(lines):
        block = where[f"players[{seat}]"]
        totals[block] = None if line is None else line["total"]
        final[block] = line is not None and line["final"]
        for k, dragon in enumerate(data["players"][seat].get("dragons", [])):
            index = cat.find_dragon(dragon["card"], data["academy"])
            slug = None if index is None else cat.slugs[index]
            field = where[f"players[{seat}].dragons[{k}].card"]
            if line is not None and slug in line["abilities"]:
                dragons[field] = line["abilities"][slug]
    placed, general = place_errors(errors, where)
    return JsonResponse({"totals": totals, "final": final, "abilities": dragons, "errors": placed,
                         "general": general})


@gzip_page  # the form repeats a mat grid for five players: compressed it is a small page on a phone
def calculator(request):
    """The form; a POST scores it (and saves it when asked), or shows it again with each mistake by its field.

    A POST with `preview` answers JSON for the page's script: running totals, never an error status."""
    context = {"errors": {}, "general_errors": []}
    post = None
    if request.method == "GET" and request.GET.get("from"):
        source = get_object_or_404(ScoreSheet, code=request.GET["from"])
        post = to_post(source.data, lookups.current())
        context["source"] = source
    if request.method == "POST" and "preview" in request.POST:
        return _preview(request.POST)
    if request.method == "POST":
        post = request.POST
        data, where = read_post(post, lookups.current())
        try:
            if "save" in post:
                sheet = services.save(data, owner=request.user if request.user.is_authenticated else None)
                return redirect(sheet)
            _, result = services.score(data)
            context.update(_result_context(result))
        except SheetInvalid as exc:
            context["errors"], context["general_errors"] = place_errors(exc.errors, where)
    context["form"] = layout(post, context["errors"])
    context["form"]["summary"] += [{"id": "calc-form", "label": "Sheet", "message": e}
                                   for e in context["general_errors"]]
    context.update(_choices())
    status = 400 if context["errors"] or context["general_errors"] else 200
    return render(request, "game/calculator.html", context, status=status)


# The running totals the page asks for while a sheet is typed work something out and store nothing: a try, not a write
# (cardsite/middleware.py).
calculator.rate_limit = lambda request: "try" if "preview" in request.POST else "write"


def _mats(sheet):
    """Card mode: each player's dragons cave by cave, named as the catalogue names them now."""
    if sheet.mode != ScoreSheet.Mode.CARD:
        return []
    cat = lookups.current()
    mats = []
    for player in sheet.data["players"]:
        caves = []
        for key, name in zip(CAVES, CAVE_NAMES):
            dragons = sorted((d for d in player["dragons"] if d["cave"] == key), key=lambda d: d["column"])
            labels = [cat.dragon_label(cat.dragon_slugs[d["card"]]) if d["card"] in cat.dragon_slugs else d["card"]
                      for d in dragons]
            caves.append({"name": name, "dragons": labels})
        mats.append({"name": player["name"], "caves": caves})
    return mats


def sheet_page(request, code):
    sheet = get_object_or_404(ScoreSheet, code=code)
    context = {"sheet": sheet, "mats": _mats(sheet), **_result_context(sheet.result)}
    return render(request, "game/calculator_sheet.html", context)


@login_required
def history(request):
    stats = services.statistics(request.user)
    context = {
        "stats": stats,
        "sheets": services.history(request.user),
        "averages": [{"label": CATEGORY_LABELS[c], "value": v} for c, v in stats["averages"].items()],
        "average_chart": charts.category_bars(stats["averages"], CATEGORY_LABELS),
        "totals_chart": charts.totals_line(stats["totals"]),
    }
    return render(request, "game/calculator_history.html", context)
