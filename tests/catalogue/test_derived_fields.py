"""Fields the loader computes from the card data: ability kinds, flags, slugs and texts."""
import pytest

from cardsite.catalogue.loader import derive_kinds
from cardsite.catalogue.models import CaveCard, Dragon, Printing


@pytest.mark.parametrize(("number", "kind", "flags"), [
    (1, "if_activated", {"if_activated"}),                  # hatchling: feed and grow-up parts are not kinds
    (17, "if_activated", {"if_activated", "end_game"}),     # hatchling with an end-game part
    (119, "end_game", {"end_game"}),
    (184, "if_activated", {"if_activated"}),                # fledgling: the kind of its purple ability
    (200, "once_per_round", {"once_per_round"}),
])
def test_ability_kind_and_flags_follow_the_abilities(catalogue, number, kind, flags):
    dragon = Dragon.objects.get(number=number, printing=Printing.ORIGINAL)
    assert dragon.ability_kind == kind
    assert {k for k in ("when_played", "if_activated", "once_per_round", "end_game")
            if getattr(dragon, f"has_{k}")} == flags


def test_hatchling_kind_is_if_activated_whatever_the_order_of_its_parts():
    abilities = [{"kind": "end_game", "effect": {"do": "score", "vp": 1}},
                 {"kind": "if_activated", "effect": {"do": "lay_egg"}}]
    assert derive_kinds(abilities, "hatchling")[1] == "if_activated"
    assert derive_kinds(abilities, "small")[1] == "end_game"


def test_every_card_has_a_kind_and_every_cave_card_is_played_when_played(catalogue):
    assert not Dragon.objects.filter(ability_kind="").exists()
    assert set(CaveCard.objects.values_list("ability_kind", flat=True)) == {"when_played"}


def test_every_card_has_rendered_text(catalogue):
    assert not Dragon.objects.filter(ability_text="").exists()
    assert not CaveCard.objects.filter(ability_text="").exists()


def test_conditional_cost_dragons_keep_their_condition(catalogue):
    free = Dragon.objects.filter(free_if__isnull=False)
    assert sorted(free.values_list("number", flat=True)) == [229, 233, 236, 238, 240, 249, 252, 257, 260]
    assert Dragon.objects.get(number=240).free_if == {"at_least": [{"what": "dragons", "size": "fledgling"}, 2]}


def test_slugs_tell_printings_apart(catalogue):
    assert Dragon.objects.get(number=119, printing=Printing.ORIGINAL).slug == "119-chameleon-coatl"
    assert Dragon.objects.get(number=119, printing=Printing.UPDATED).slug == "119-chameleon-coatl-updated"
    assert CaveCard.objects.get(number=50, printing=Printing.UPDATED).slug == "cave-50-updated"


def _words(html):
    """The words a reader meets in the ability's HTML: tags dropped, an icon read by its text alternative."""
    import re
    from html import unescape

    html = re.sub(r'<[^>]*\b(?:alt|aria-label)="([^"]*)"[^>]*>', r" \1 ", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_html_of_every_ability_says_what_its_text_says(catalogue):
    """The card page and the API's `ability_html` are rendered from the same facts as `ability_text`: a dragon's
    end-game ability reads "an extra" in both (card 39 once read "Score 2 VP" on its page)."""
    from cardsite.catalogue.serializers import card_html

    cards = list(Dragon.objects.all()) + list(CaveCard.objects.all())
    differ = [(c.number, c.ability_text, _words(card_html(c))) for c in cards
              if " ".join(c.ability_text.split()) != _words(card_html(c))]
    assert not differ, differ[:3]
    weary = Dragon.objects.get(number=39)
    assert "Score an extra 2 VP" in weary.ability_text and "Score an extra 2 VP" in _words(card_html(weary))
