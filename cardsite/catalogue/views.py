"""Search page, query-language help, and one page per dragon, cave card, guild tile and objective tile."""
import re

from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.views.decorators.gzip import gzip_page

from cardsite.catalogue import card_index, filters, query, search
from cardsite.catalogue.models import (
    CAVES,
    COST_ITEMS,
    AbilityKind,
    CaveCard,
    Dragon,
    Expansion,
    GuildTile,
    ObjectiveTile,
    Printing,
    Size,
    Trait,
)
from cardsite.catalogue.serializers import CaveCardSerializer, DragonSerializer, card_html
from game.language.vocabulary import CAVE_DISPLAY, CAVE_SHORT
from game.language.words import SEARCH_TERMS, SHAPING_WORDS

INITIAL_RESULTS = 60
# Words that only shape an ability (sequence, choice, condition) and say nothing about what it does.
STRUCTURAL_WORDS = set(SHAPING_WORDS)
WORD_LABELS = {name: term.label for name, term in SEARCH_TERMS.items() if term.label is not None}
CAVE_LABELS = CAVE_DISPLAY


def rules_link(word):
    """The rules reference's anchor for an effect word, when the rules app provides one."""
    from game.rules import rules_anchor
    try:
        return rules_anchor(word)
    except (KeyError, ValueError, LookupError):
        return None


# Words in rendered ability text that name a rule, and the keyword the rules reference knows them by.
TEXT_KEYWORDS = {
    "tuck": "tuck", "tucked": "tuck", "tucks": "tuck", "cache": "cache", "cached": "cache", "caches": "cache",
    "excavate": "excavate", "excavated": "excavate", "train": "train", "trained": "train", "training": "train",
    "activate": "activate", "activated": "activate", "reveal": "reveal", "entice": "entice", "explore": "explore",
    "hatchling": "hatchling", "hatchlings": "hatchling", "fledgling": "fledgling", "fledglings": "fledgling",
    "lay": "lay egg",
}
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")
_WORD = re.compile(r"\b(" + "|".join(sorted(TEXT_KEYWORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def link_keywords(html):
    """The rendered ability HTML with each rule keyword linked to the rules reference (when it exists)."""
    def link(match):
        anchor = rules_link(TEXT_KEYWORDS[match.group(1).lower()])
        if anchor is None:
            return match.group(0)
        return f'<a class="rules-keyword" href="{escape(anchor)}">{match.group(0)}</a>'

    parts = _TAG_OR_TEXT.split(html)
    return "".join(part if part.startswith("<") else _WORD.sub(link, part) for part in parts)


RESULT_KINDS = (
    ("dragon", Dragon, "Dragons", "dragon"),
    ("cave", CaveCard, "Cave cards", "cave card"),
    ("guild", GuildTile, "Guild tiles", "guild tile"),
    ("objective", ObjectiveTile, "Objectives", "objective tile"),
)
KIND_ICONS = {kind: kind.replace("_", "-") for kind in AbilityKind.values}


def find_cards(model, text):
    """(the API representations of the matching cards, best first; an error text or None).

    The in-memory index answers when it can give exactly the database's answer (card_index.py); otherwise the same
    FilterSet as the API does, so the page and the API never disagree.
    """
    try:
        exact = card_index.can_answer(text) or model not in (Dragon, CaveCard)  # tiles have no SQL twin
        cards = card_index.search_cards(model, text) if exact else None
        if cards is not None:
            return [card.representation for card in cards], None
        if model not in (Dragon, CaveCard):
            return [], None
        filterset_class, serializer = ((filters.DragonFilter, DragonSerializer()) if model is Dragon
                                       else (filters.CaveCardFilter, CaveCardSerializer()))
        queryset = model.objects.select_related("expansion", "original")
        filterset = filterset_class({"q": text} if text else {}, queryset=queryset)
        if not filterset.is_valid():
            return [], " ".join(message for errors in filterset.errors.values() for message in errors)
        return [serializer.to_representation(card) for card in filterset.qs], None
    except query.QueryError as error:
        return [], str(error)


def result_row(kind, card):
    """What one result row shows (templates/cardsite/_card_row.html; static/search.js draws the same from the API)."""
    row = {"kind": kind, "page": card["page"], "number": card["number"], "updated": card.get("printing") == "updated"}
    if kind == "dragon":
        row.update({
            "name": card["name"], "vp": card["vp"], "cost": list(card["cost"].items()),
            "caves": [(CAVE_SHORT[cave], CAVE_LABELS[cave]) for cave in card["habitats"]],
            "facts": [card["size"].capitalize(), card["trait"].capitalize()],
            "kinds": [(KIND_ICONS[kind_], dict(AbilityKind.choices)[kind_]) for kind_ in card["kinds"]],
            "text": card["ability_text"],
        })
    elif kind == "cave":
        row.update({"name": card["name"], "text": card["ability_text"],
                    "kinds": [(KIND_ICONS[card["ability_kind"]], dict(AbilityKind.choices)[card["ability_kind"]])]
                    if card["ability_kind"] else []})
    elif kind == "guild":
        row.update({"name": card["name"], "text": " · ".join(ability["text"] for ability in card["abilities"])})
    else:
        row.update({"name": f"Objective tile {card['number']}",
                    "text": " · ".join(f"{side['side'].upper()}: {side['text']}" for side in card["sides"])})
    return row


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def search_page(request):
    text = request.GET.get("q", "")
    shown_kind = request.GET.get("type", "all")
    if shown_kind not in {"all"} | {kind for kind, *_ in RESULT_KINDS}:
        shown_kind = "all"
    page = request.GET.get("page", "1")
    page = int(page) if page.isascii() and page.isdigit() and 1 <= int(page) <= 1000 else 1
    if shown_kind == "all":
        page = 1
    error = None
    results = []
    if len(text) > query.MAX_LENGTH:
        error = f"the query is longer than {query.MAX_LENGTH} characters"
    for kind, model, label, noun in RESULT_KINDS:
        cards = []
        if error is None:
            cards, error = find_cards(model, text)
        end = page * INITIAL_RESULTS
        results.append({
            "kind": kind, "label": label, "noun": noun, "count": len(cards),
            "rows": [result_row(kind, card) for card in cards[:end]],
            "more": max(0, len(cards) - end), "next_page": page + 1,
            "hidden": shown_kind not in ("all", kind),
        })
    if error:
        for kinds in results:
            kinds.update(count=0, rows=[], more=0)
    context = {
        "q": text,
        "error": error,
        "results": results,
        "shown_kind": shown_kind,
        "page_size": INITIAL_RESULTS,
        "panel": {
            "caves": [(CAVE_SHORT[cave], CAVE_LABELS[cave]) for cave in CAVES],
            "sizes": Size.choices,
            "traits": Trait.choices,
            "kinds": AbilityKind.choices,
            "expansions": Expansion.objects.all(),
            "costs": COST_ITEMS,
        },
    }
    status = 400 if error else 200
    return render(request, "cardsite/search.html", context, status=status)


EXAMPLES = [
    ("cave:golden does:tuck", "dragons of the Golden Grotto whose ability tucks a card"),
    ('does:tuck "from the deck"', "cards that tuck, with “from the deck” in their text"),
    ("cave:crimson size:large vp>=5", "large Crimson Cavern dragons worth 5 VP or more"),
    ("cost.meat>=1 -cost.milk trait:shy", "shy dragons that cost meat and no milk"),
    ("kind:if_activated cache", "dragons with an if-activated ability and a word starting with “cache”"),
    ("cave=amethyst", "dragons that live only in the Amethyst Abyss"),
    ("cave:crimson+golden", "dragons that may live in both the Crimson Cavern and the Golden Grotto"),
    ("vp:3..5 (trait:playful or trait:helpful)", "playful or helpful dragons worth 3 to 5 VP"),
    ("type:cave kind:when_played egg", "cave cards whose ability mentions eggs"),
    ("size:hatchling feeds:card", "hatchlings fed by tucking a card"),
    ("printing:updated", "the Dragon Academy's updated printings"),
    ("name:grazer", "dragons with “grazer” in the name"),
]


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def query_help(request):
    return render(request, "cardsite/help.html", {
        "examples": EXAMPLES,
        "fields": query.KNOWN_FIELDS,
        "effect_words": query.EFFECT_WORDS,
        "max_length": query.MAX_LENGTH,
    })


def _mechanics(card):
    words = [word for word in search.effect_words(card.abilities) if word not in STRUCTURAL_WORDS]
    return [{"word": word, "label": WORD_LABELS.get(word, word.replace("_", " ")),
             "rules": rules_link(SEARCH_TERMS[word].rule)} for word in words]


def card_rulings(kind, number):
    """The rulings about card `number` of `kind` as templates show them (templates/game/_rulings.html)."""
    from game.rules import present_rulings, rulings

    return present_rulings(rulings.for_card(kind, number))


def _try_links(kind, card, name=""):
    """Where to try a card's abilities: the analysis board and the checker, with this printing set up."""
    from game.checker.links import card_ref, try_links

    return try_links(card_ref(kind, card.number, getattr(card, "printing", "original"), name))


def _card_context(card, model):
    mechanics = _mechanics(card)
    similar_pks = search.similar_cards(card, [m["word"] for m in mechanics])
    similar = sorted(model.objects.filter(pk__in=similar_pks), key=lambda other: similar_pks.index(other.pk))
    printings = list(model.objects.filter(number=card.number).exclude(pk=card.pk).order_by("printing"))
    return {
        "card": card,
        "ability_html": mark_safe(link_keywords(card_html(card))),
        "mechanics": mechanics,
        "similar": similar,
        "printings": printings,
        "rulings": card_rulings("dragons" if model is Dragon else "caves", card.number),
        # A dragon goes on the board's mat even without an ability; a card without one has nothing to check.
        "try": _try_links("dragon" if model is Dragon else "cave", card, getattr(card, "name", ""))
        if model is Dragon or card.abilities else None,
        "checkable": bool(card.abilities),
    }


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def dragon_page(request, slug):
    dragon = get_object_or_404(Dragon.objects.select_related("expansion", "original"), slug=slug)
    context = _card_context(dragon, Dragon)
    context.update({
        "cost": [(item, dragon.cost[item]) for item in COST_ITEMS if item in dragon.cost],
        "habitats": [(cave, CAVE_LABELS[cave], CAVE_SHORT[cave]) for cave in dragon.habitats],
        "kinds": [(kind, label) for kind, label in AbilityKind.choices if getattr(dragon, f"has_{kind}")],
        "nests": range(dragon.capacity),
    })
    return render(request, "cardsite/dragon.html", context)


def _by_number(model, number, route):
    matches = model.objects.filter(number=number)
    card = matches.filter(printing=Printing.ORIGINAL).first() or matches.first()
    if card is None:
        return get_object_or_404(model, pk=-1)
    return redirect(route, slug=card.slug)


def dragon_by_number(request, number):
    return _by_number(Dragon, number, "dragon-page")


def cave_by_number(request, number):
    return _by_number(CaveCard, number, "cave-page")


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def cave_page(request, slug):
    cave = get_object_or_404(CaveCard.objects.select_related("expansion", "original"), slug=slug)
    return render(request, "cardsite/cave.html", _card_context(cave, CaveCard))


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def guild_list(request):
    tiles = GuildTile.objects.select_related("expansion").prefetch_related("guild_abilities")
    return render(request, "cardsite/guild_list.html", {"tiles": tiles})


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def guild_page(request, slug):
    tile = get_object_or_404(GuildTile.objects.select_related("expansion"), slug=slug)
    return render(request, "cardsite/guild.html", {"tile": tile, "rows": tile.guild_abilities.all(),
                                                   "rulings": card_rulings("guilds", tile.number),
                                                   "try": _try_links("guild", tile, tile.name), "checkable": True})


def _tile_by_number(model, number, route):
    """Tile numbers restart per expansion: a bare number means the base game's tile, else the first there is."""
    tile = model.objects.filter(number=number).order_by("expansion_id").first()
    if tile is None:
        return get_object_or_404(model, pk=-1)
    return redirect(route, slug=tile.slug)


def guild_by_number(request, number):
    return _tile_by_number(GuildTile, number, "guild-page")


def objective_by_number(request, number):
    return _tile_by_number(ObjectiveTile, number, "objective-page")


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def objective_list(request):
    tiles = ObjectiveTile.objects.select_related("expansion").prefetch_related("sides")
    return render(request, "cardsite/objective_list.html", {"tiles": tiles})


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def objective_page(request, slug):
    tile = get_object_or_404(ObjectiveTile.objects.select_related("expansion"), slug=slug)
    return render(request, "cardsite/objective.html", {"tile": tile, "sides": tile.sides.all(),
                                                       "rulings": card_rulings("objectives", tile.number)})
