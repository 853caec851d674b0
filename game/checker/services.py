"""What the checker page and API call: read a request's fields, run the ability, add the card's text and the rules
reference links. Nothing here writes to the database."""
from game import catalogue
from game.language.render import RenderError, render_abilities_html
from game.language.vocabulary import RESOURCES
from game.language.walk import walk
from game.language.words import SEARCH_TERMS, search_name
from game.rules import rules_anchor

from . import resolve
from .cards import Cards, card_dict
from .errors import CheckerInputError

BODY_KEYS = {"card", "ability", "situation", "decisions", "auto"}
# Keys of an effect that name a rule of their own (besides each node's word).
RULE_KEYS = {"up_to": "up_to", "each": "each", "other": "other"}
SCOPE_RULES = {"cave": "in_this_cave", "row": "in_this_cave", "column": "column", "adjacent": "adjacent",
               "beside": "beside", "here": "here", "mat": "mat"}
ITEM_RULES = {"egg": "egg", "guild": "guild", "tithe": "tithe", "any_resource": "any_resource"}
RULE_LABELS = {**{name: term.label for name, term in SEARCH_TERMS.items() if term.label is not None},  # the words' own labels
               "in_this_cave": "in this cave", "up_to": "up to", "any_resource": "any resource",
               "when_played": "when played",
               "if_activated": "if activated", "once_per_round": "once per round", "end_game": "game end",
               "on_feed": "hatchlings", "on_grow_up": "hatchlings", "others": "each opponent",
               "other": "another dragon",
               "guild": "Dragon Guild", "egg": "eggs", "mat": "on your mat"}


def current_cards(snapshot=None):
    """The checker's card lookups over the catalogue as it is now (or `snapshot`), built once per catalogue."""
    return (snapshot or catalogue.current()).view("checker", lambda snapshot: Cards(snapshot.engine))

def rule_words(ability):
    """Rule keywords an ability uses, in reading order: its kind, then its words, scopes and items."""
    found = [ability["kind"]] if ability["kind"] != "guild_row" else ["guild"]
    if ability.get("others"):
        found.append("others")

    for part in ("effect", "others"):
        if not isinstance(ability.get(part), dict):
            continue
        for _path, node in walk(ability[part]):
            word = node.get("do")
            item = node.get("item")
            if word == "gain":  # gaining a card has its own rule; a resource or coin is plain supply
                if item in ("dragon", "cave"):
                    found.append("gain")
                elif item in RESOURCES:
                    found.append("resource")
            else:
                term = SEARCH_TERMS.get(search_name(node))
                if term is not None and term.rule is not None:  # words that only shape others name no rule
                    found.append(term.rule)
            for key, rule in RULE_KEYS.items():
                if node.get(key) is True:
                    found.append(rule)
            if node.get("scope") in SCOPE_RULES:
                found.append(SCOPE_RULES[node["scope"]])
            if isinstance(item, str) and item in ITEM_RULES:
                found.append(ITEM_RULES[item])
    return found


def rules_links(ability):
    """[{word, label, url}] for the rules reference, one per anchor, for the ability's text."""
    links, seen = [], set()
    for word in rule_words(ability):
        url = rules_anchor(word)
        if url is None or url in seen:
            continue
        seen.add(url)
        links.append({"word": word, "label": RULE_LABELS.get(word, word.replace("_", " ")), "url": url})
    return links


def ability_html(subject, ability):
    """The ability's sentence with inline icons (dragons and cave cards); guild rows are plain text."""
    if subject.kind == "guild":
        return None
    try:
        card = card_dict(subject.record) if subject.kind == "dragon" else None
        raw = subject.record.abilities[ability["index"]]
        return render_abilities_html([raw], card)
    except RenderError:
        return None


def read_body(body):
    if not isinstance(body, dict):
        raise CheckerInputError("body", "expected a JSON object")
    unknown = set(body) - BODY_KEYS
    if unknown:
        raise CheckerInputError(sorted(unknown)[0], f"is not a field of a check ({', '.join(sorted(BODY_KEYS))})")
    if "card" not in body:
        raise CheckerInputError("card", "required: a dragon's name or number, 'cave 12' or 'guild 2'")
    auto = body.get("auto", False)
    if not isinstance(auto, bool):
        raise CheckerInputError("auto", "expected true or false")
    situation = body.get("situation")
    if situation is not None and not isinstance(situation, dict):
        raise CheckerInputError("situation", "expected an object")
    return body["card"], body.get("ability", 0), situation, body.get("decisions", []), auto


def card_info(card_ref):
    """The card under test and its abilities, for choosing one (the page's ability list, `GET /api/checker/`)."""
    cards = current_cards()
    subject = cards.subject(card_ref)
    info = cards.summary(subject)
    for ability, full in zip(info["abilities"], cards.abilities(subject)):
        ability["rules"] = rules_links(full)
    return info


def check(body):
    """Run a check from a request body: {card, ability, situation, decisions, auto}. Raises CheckerInputError."""
    card_ref, ability_index, situation, decisions, auto = read_body(body)
    cards = current_cards()
    subject = cards.subject(card_ref)
    result = resolve.run(cards, subject, ability_index, situation, decisions, auto)
    ability = cards.abilities(subject)[ability_index]
    result["card"] = cards.summary(subject)
    result["ability"] = {"index": ability["index"], "kind": ability["kind"], "kind_name": ability["kind_name"],
                         "text": ability["text"], "html": ability_html(subject, ability),
                         "rules": rules_links(ability)}
    return result


def choices():
    """Every card the checker can run, for the page's autocomplete, and every dragon for the situation rows."""
    cards = current_cards()
    return cards.choices(), cards.dragon_names()
