"""Each word of the effect language reads as one exact English sentence."""
import pytest

from game.language.render import RenderError, render_effect

GAIN_GOLD = {"do": "gain", "item": "gold"}
LAY_EGG = {"do": "lay_egg"}


@pytest.mark.parametrize("effect, text", [
    ({"do": "seq", "steps": [GAIN_GOLD, LAY_EGG]}, "Gain 1 gold, then lay 1 egg."),
    ({"do": "choose", "options": [{"do": "lay_egg", "count": 3}, {"do": "excavate", "free": True}]},
     "Either lay 3 eggs or excavate a space for free."),
    ({"do": "choose", "options": [GAIN_GOLD, LAY_EGG, {"do": "gain", "item": "coin"}]},
     "Choose 1: gain 1 gold; lay 1 egg; or gain 1 coin."),
    ({"do": "choose", "pick": 2, "options": [GAIN_GOLD, LAY_EGG, {"do": "gain", "item": "coin"}]},
     "Choose 2 different options: gain 1 gold; lay 1 egg; or gain 1 coin."),
    ({"do": "choose", "pick": 2, "distinct": False, "options": [GAIN_GOLD, LAY_EGG]},
     "Choose 2 times (the same option may repeat): gain 1 gold; or lay 1 egg."),
    ({"do": "may", "effect": {"do": "cache", "item": "meat", "on": {"scope": "here"}}}, "You may cache 1 meat here."),
    ({"do": "repeat", "times": 3, "up_to": True, "effect": {"do": "pay", "cost": [{"item": "cave"}],
                                                            "buys": {"do": "gain", "item": "guild"}}},
     "Up to 3 times: pay 1 cave card to advance once on the Dragon Guild."),
    ({"do": "repeat", "times": 2, "effect": GAIN_GOLD}, "Twice: gain 1 gold."),
    ({"do": "repeat", "times": {"what": "dragons", "scope": "cave", "trait": "shy"}, "effect": LAY_EGG},
     "Once for each shy dragon in this cave: lay 1 egg."),
    ({"do": "if", "cond": {"at_least": [{"what": "dragons", "scope": "cave"}, 3]}, "then": GAIN_GOLD},
     "If there are at least 3 dragons in this cave, gain 1 gold."),
    ({"do": "if", "cond": {"equal": [{"what": "eggs", "scope": "here"}, 0]}, "then": GAIN_GOLD, "else": LAY_EGG},
     "If there are no eggs on this dragon, gain 1 gold; otherwise lay 1 egg."),
    ({"do": "pay", "cost": [{"item": "coin"}], "buys": {"do": "lay_egg", "count": 3}}, "Pay 1 coin to lay 3 eggs."),
    ({"do": "pay", "cost": [{"item": "egg", "count": 2, "on": {"scope": "adjacent"}}],
      "buys": {"do": "gain", "item": "guild", "count": 2}},
     "Pay 2 eggs from any dragons orthogonally adjacent to this one to advance twice on the Dragon Guild."),
    ({"do": "pay", "cost": [{"item": "tithe"}, {"item": "card", "count": 2}], "buys": GAIN_GOLD},
     "Pay 1 tithe (a resource, a card or an egg) and 2 cards from your hand to gain 1 gold."),
    ({"do": "pay", "cost": [{"item": "any_resource"}], "as": "paid", "buys": {"do": "gain", "item": {"var": "paid"}}},
     "Pay 1 resource to gain the resource you paid."),
    ({"do": "gain", "item": "dragon", "from": "deck", "count": 2}, "Draw 2 dragon cards from the deck."),
    ({"do": "gain", "item": "cave", "from": "display"}, "Take 1 cave card from the display."),
    ({"do": "gain", "item": "dragon", "from": ["display", "deck"]}, "Gain 1 dragon card from the display or the deck."),
    ({"do": "gain", "item": "any_resource", "count": 2}, "Gain 2 resources of any kind."),
    ({"do": "gain", "item": "any_resource", "count": 2, "same": True}, "Gain 2 resources of one kind."),
    ({"do": "gain", "item": "coin", "count": 2}, "Gain 2 coins."),
    ({"do": "gain", "item": "egg", "count": 2}, "Lay 2 eggs."),
    ({"do": "gain", "item": "meat", "count": {"what": "dragons", "scope": "column"}},
     "Gain 1 meat for each dragon in this column."),
    ({"do": "gain", "item": "crystal", "if_done": LAY_EGG}, "Gain 1 crystal; if you do, lay 1 egg."),
    ({"do": "lay_egg", "on": {"scope": "column", "each": True}}, "Lay 1 egg on each dragon in this column."),
    ({"do": "lay_egg", "count": 2, "up_to": True, "on": {"scope": "here"}}, "Lay up to 2 eggs here."),
    ({"do": "lay_egg", "on": {"scope": "cave", "trait": "shy"}}, "Lay 1 egg on a shy dragon in this cave."),
    ({"do": "cache", "item": "any_resource", "from": "supply", "on": {"scope": "here"}},
     "Cache 1 resource from your supply here."),
    ({"do": "cache", "item": "gold", "count": 2, "from": "general", "on": {"scope": "mat", "size": "large"}},
     "Cache 2 gold from the general supply on any large dragons on your mat."),
    ({"do": "tuck", "from": "deck", "on": {"scope": "cave", "trait": "playful", "each": True}},
     "Tuck 1 dragon card from the deck under each playful dragon in this cave."),
    ({"do": "tuck", "count": 2, "up_to": True}, "Tuck up to 2 dragon cards from your hand here."),
    ({"do": "excavate", "from": "display", "free": True},
     "Excavate a space for free with a cave card from the display."),
    ({"do": "excavate", "from": "hand"},
     "Excavate a space with a cave card from your hand, paying its column's egg cost but no coin."),
    ({"do": "play_dragon", "from": "hand", "cost": "free"}, "Play a dragon from your hand for free."),
    ({"do": "play_dragon", "from": ["hand", "display"], "cost": "discount_one"},
     "Play a dragon from your hand or the display, paying 1 resource or egg less than its printed cost."),
    ({"do": "play_dragon", "from": "display", "cost": "no_resources"},
     "Play a dragon from the display, paying no resources (its coin and egg costs still apply)."),
    ({"do": "swap", "what": "cover"},
     "Play a dragon from your hand on top of one of your dragons, for free (the covered dragon becomes tucked)."),
    ({"do": "swap", "what": "dragons"}, "Swap two dragons on your mat (habitats ignored)."),
    ({"do": "swap", "what": "with_hand"}, "Swap a dragon on your mat with one from your hand (habitats ignored)."),
    ({"do": "swap", "what": "cave_card"}, "Swap an uncovered cave card on your mat with one from your hand; the new card's "
                               "when-played ability is used (the mat's when-covered benefit is not)."),
    ({"do": "train", "free": True, "as": "covered", "if_done": {"do": "gain", "item": {"var": "covered"}}},
     "Train a fledgling once for free; if you do, gain the item the training token covered."),
    ({"do": "train", "full": True, "free": True, "if_done": {"do": "lay_egg", "count": 2}},
     "Fully train a fledgling for free; if you do, lay 2 eggs."),
    ({"do": "train", "on": {"scope": "here"}, "count": 2}, "Train this fledgling twice."),
    ({"do": "activate", "kinds": ["when_played"], "on": {"scope": "mat", "other": True}},
     "Use the when-played ability of another dragon on your mat."),
    ({"do": "activate", "kinds": ["if_activated"], "on": {"scope": "cave", "other": True}, "count": 2},
     "Use the if-activated abilities of 2 other dragons in this cave (each a different dragon)."),
    ({"do": "activate", "kinds": ["when_played"], "on": "mat"}, "Use the ability of 1 icon on your mat's paths."),
    ({"do": "activate", "on": "mat", "count": 2}, "Use the abilities of 2 different icons on your mat's paths."),
    ({"do": "reveal", "as": "it", "cond": {"card": {"size": "small"}},
      "then": {"do": "tuck", "from": {"var": "it"}, "on": {"scope": "here"}},
      "else": {"do": "gain", "item": "milk"}},
     "Reveal the top dragon card of the deck: if it is small, tuck it here; otherwise discard it and gain 1 milk."),
    ({"do": "distribute", "cards": {"var": "it"},
      "to": [{"place": "tuck", "count": 1, "on": {"scope": "here"}}, {"place": "discard", "count": 1}],
      "rest": "keep"},
     "Tuck 1 of them here, discard 1 and keep the rest."),
    ({"do": "score", "vp": 3, "per": {"what": "dragons", "size": "medium"}, "max": 12},
     "Score 3 VP for each medium dragon on your mat (at most 12 VP)."),
    ({"do": "score", "vp": 1, "per": {"what": "eggs", "scope": "cave", "div": 2}},
     "Score 1 VP for every 2 eggs in this cave."),
    ({"do": "score", "vp": -2, "cond": {"at_most": [{"what": "cave_cards"}, 2]}},
     "Lose 2 VP if there are at most 2 cave cards on your mat (covered ones included)."),
])
def test_word_reads_as_exact_sentence(effect, text):
    assert render_effect(effect) == text


def test_gained_cards_bound_by_as_are_read_by_later_steps_as_them():
    effect = {"do": "seq", "steps": [
        {"do": "gain", "item": "dragon", "from": "deck", "count": 2, "as": "drawn"},
        {"do": "may", "effect": {"do": "tuck", "from": {"var": "drawn"}, "count": 2, "up_to": True}},
    ]}
    assert render_effect(effect) == ("Draw 2 dragon cards from the deck, then you may tuck up to 2 of them here.")


def test_unknown_word_is_a_render_error_naming_it():
    with pytest.raises(RenderError, match="'fly'"):
        render_effect({"do": "fly"})


def test_render_error_is_a_value_error():
    with pytest.raises(ValueError):
        render_effect({"do": "gain", "item": "diamond"})


def test_non_object_effect_is_a_render_error():
    with pytest.raises(RenderError):
        render_effect("gain gold")


def test_sequence_of_steps_with_their_own_if_you_do_reads_as_sentences():
    gain_and_cache = {"do": "gain", "item": "meat", "as": "got",
                      "if_done": {"do": "may", "effect": {"do": "cache", "item": {"var": "got"}}}}
    effect = {"do": "seq", "steps": [gain_and_cache, {"do": "gain", "item": "gold"}]}
    assert render_effect(effect) == "Gain 1 meat; if you do, you may cache it here. Then gain 1 gold."


def test_choice_between_complex_options_numbers_them():
    effect = {"do": "choose", "options": [
        {"do": "tuck", "from": "deck", "if_done": {"do": "gain", "item": "gold"}},
        {"do": "lay_egg"},
    ]}
    assert render_effect(effect) == (
        "Choose 1: (1) tuck 1 dragon card from the deck here; if you do, gain 1 gold; (2) lay 1 egg.")


def test_pay_then_a_repeat_reads_as_two_steps():
    effect = {"do": "pay", "cost": [{"item": "coin"}],
              "buys": {"do": "repeat", "times": 2, "up_to": True, "effect": {"do": "excavate", "free": True}}}
    assert render_effect(effect) == "Pay 1 coin, then up to twice: excavate a space for free."


def test_pay_with_several_items_binds_what_you_paid():
    effect = {"do": "pay", "cost": [{"item": "meat"}, {"item": "gold"}], "as": "paid",
              "buys": {"do": "gain", "item": {"var": "paid"}}}
    assert render_effect(effect) == "Pay 1 meat and 1 gold to gain what you paid."


def test_drawn_cards_shared_out_read_after_a_colon():
    effect = {"do": "gain", "item": "dragon", "from": "deck", "count": 3, "as": "drawn",
              "if_done": {"do": "distribute", "cards": {"var": "drawn"},
                       "to": [{"place": "tuck", "count": 2, "up_to": True}], "rest": "keep"}}
    assert render_effect(effect) == "Draw 3 dragon cards from the deck: tuck up to 2 of them here and keep the rest."


def test_revealed_card_used_by_the_other_branch_is_not_said_to_be_discarded():
    effect = {"do": "reveal", "as": "it", "cond": {"card": {"size": "fledgling"}},
              "then": {"do": "lay_egg", "on": {"scope": "here"}},
              "else": {"do": "tuck", "from": {"var": "it"}}}
    assert render_effect(effect) == (
        "Reveal the top dragon card of the deck: if it is a fledgling, discard it and lay 1 egg here; "
        "otherwise tuck it here.")


def test_reveal_without_else_discards_a_card_that_fails():
    effect = {"do": "reveal", "as": "it", "cond": {"card": {"trait": "shy"}}, "then": {"do": "play_dragon", "from": {"var": "it"},
                                                                          "cost": "free"}}
    assert render_effect(effect) == (
        "Reveal the top dragon card of the deck: if it is shy, play it for free; otherwise discard it.")


def test_lay_egg_on_each_dragon_never_mentions_nests():
    effect = {"do": "lay_egg", "on": {"scope": "mat", "size": "fledgling", "each": True}}
    assert render_effect(effect) == "Lay 1 egg on each fledgling on your mat."


def test_cache_up_to_gained_resources():
    effect = {"do": "gain", "item": "any_resource", "count": 2, "as": "got",
              "if_done": {"do": "cache", "item": {"var": "got"}, "up_to": True, "on": {"scope": "mat"}}}
    assert render_effect(effect) == (
        "Gain 2 resources of any kind; if you do, cache any of them on any dragons on your mat.")


def test_revealed_card_gained_goes_to_hand():
    effect = {"do": "reveal", "as": "it", "cond": {"card": {"size": "hatchling"}}, "then": {"do": "tuck", "from": {"var": "it"}},
              "else": {"do": "gain", "item": {"var": "it"}}}
    assert render_effect(effect) == (
        "Reveal the top dragon card of the deck: if it is a hatchling, tuck it here; otherwise take it into your hand.")


def test_once_per_round_kind_takes_article_a():
    effect = {"do": "score", "vp": 2, "per": {"what": "dragons", "kind": "once_per_round"}}
    assert render_effect(effect) == "Score 2 VP for each dragon on your mat with a once-per-round ability."


def test_tuck_then_gain_from_the_tucked_dragons_cost():
    effect = {"do": "tuck", "from": "hand", "on": {"scope": "here"},
              "as": "tucked_cost", "if_done": {"do": "gain", "item": {"var": "tucked_cost"}}}
    assert render_effect(effect) == (
        "Tuck 1 dragon card from your hand here; if you do, gain 1 resource shown in the tucked dragon's cost.")


def test_lay_egg_offers_mat_nests_only_when_asked_beyond_plain_mat():
    assert render_effect({"do": "lay_egg", "on": {"scope": "mat", "size": "small", "nests": True}}) == (
        "Lay 1 egg on a small dragon on your mat or in your mat's nests.")
    assert render_effect({"do": "lay_egg", "on": {"scope": "mat", "nests": False}}) == (
        "Lay 1 egg on a dragon (not in your mat's nests).")


@pytest.mark.parametrize("cache, text", [
    ({"count": 1}, "cache 1 of them on a dragon on your mat"),
    ({"count": 2, "up_to": True}, "cache up to 2 of them on any dragons on your mat"),
    ({}, "cache them on any dragons on your mat"),
])
def test_cache_some_of_the_resources_just_gained(cache, text):
    effect = {"do": "gain", "item": "any_resource", "count": 2, "as": "got",
              "if_done": {"do": "cache", "item": {"var": "got"}, "on": {"scope": "mat"}, **cache}}
    assert render_effect(effect) == f"Gain 2 resources of any kind; if you do, {text}."


def test_excavated_spaces_counted_in_one_cave():
    effect = {"do": "score", "vp": 3, "cond": {"at_least": [{"what": "excavated", "scope": "cave"}, 4]}}
    assert render_effect(effect) == "Score 3 VP if there are at least 4 excavated spaces in this cave."


@pytest.mark.parametrize("places, rest, text", [
    ([{"place": "play", "count": 1, "free": True}], "discard", "Play 1 of them for free and discard the rest."),
    ([{"place": "excavate", "count": 1, "free": True}], "keep", "Excavate with 1 of them for free and keep the rest."),
    ([{"place": "keep", "count": 1}, {"place": "tuck", "count": 2, "up_to": True, "on": {"scope": "cave"}}],
     "discard", "Keep 1 of them, tuck up to 2 under any dragons in this cave and discard the rest."),
    ([{"place": "play", "count": 1}], "keep", "Play 1 of them (paying the printed cost) and keep the rest."),
])
def test_distribute_places(places, rest, text):
    assert render_effect({"do": "distribute", "cards": {"var": "drawn"}, "to": places, "rest": rest}) == text


@pytest.mark.parametrize("effect, text", [
    ({"do": "activate", "kinds": ["if_activated"], "on": {"scope": "here"}},
     "Use this dragon's if-activated ability again."),
    ({"do": "activate", "kinds": ["if_activated"], "on": {"scope": "adjacent", "each": True}},
     "Use the if-activated ability of each dragon orthogonally adjacent to this one."),
    ({"do": "activate", "kinds": ["when_played"], "on": {"scope": "adjacent"}, "up_to": True, "count": 4},
     "Use the when-played abilities of up to 4 dragons orthogonally adjacent to this one (each a different dragon)."),
    ({"do": "repeat", "times": {"what": "tucked", "scope": "here"}, "up_to": True, "effect": {"do": "lay_egg"}},
     "Up to once for each card tucked under this dragon: lay 1 egg."),
    ({"do": "play_dragon", "from": {"var": "it"}, "cost": "printed"}, "Play it, paying its printed cost."),
    ({"do": "excavate", "from": "deck", "free": True}, "Excavate a space for free with the top cave card of the deck."),
])
def test_more_word_forms(effect, text):
    assert render_effect(effect) == text


def test_activate_without_kinds_uses_if_activated_abilities_as_the_interpreter_does():
    assert render_effect({"do": "activate", "on": {"scope": "column", "other": True}}) == (
        "Use the if-activated ability of another dragon in this column.")


@pytest.mark.parametrize("effect, text", [
    ({"do": "train", "count": 2, "up_to": True, "free": True}, "Up to twice: train a fledgling once for free."),
    ({"do": "train", "count": {"what": "dragons", "size": "hatchling"}},
     "Once for each hatchling on your mat: train a fledgling once."),
    ({"do": "train", "on": {"scope": "adjacent", "each": True}, "free": True},
     "Train each fledgling orthogonally adjacent to this one once for free."),
    ({"do": "train", "full": True, "on": {"scope": "here"}}, "Fully train this fledgling."),
])
def test_each_training_picks_its_fledgling(effect, text):
    assert render_effect(effect) == text


def test_pay_then_several_trainings_reads_as_two_steps():
    effect = {"do": "pay", "cost": [{"item": "cave"}], "buys": {"do": "train", "count": 2, "up_to": True, "free": True}}
    assert render_effect(effect) == "Pay 1 cave card, then up to twice: train a fledgling once for free."
