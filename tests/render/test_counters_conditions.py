"""Counters and conditions read as plain noun phrases and clauses."""
import pytest

from game.language.render import render_condition, render_counter
from game.language.schema import COUNT_WHATS


@pytest.mark.parametrize("counter, text", [
    ({"what": "dragons", "scope": "cave", "trait": "shy"}, "the number of shy dragons in this cave"),
    ({"what": "dragons", "not_size": "hatchling", "not_trait": ["shy", "playful"]},
     "the number of non-shy, non-playful non-hatchling dragons on your mat"),
    ({"what": "dragons", "size": ["small", "medium"], "cave": "golden_grotto"},
     "the number of small or medium dragons in your Golden Grotto"),
    ({"what": "dragons", "kind": "end_game"}, "the number of dragons on your mat with an end-game ability"),
    ({"what": "dragons", "size": "fledgling", "trained": True}, "the number of fully trained fledglings on your mat"),
    ({"what": "dragons", "size": "fledgling", "untrained": True},
     "the number of not fully trained fledglings on your mat"),
    ({"what": "dragons", "scope": "beside"}, "the number of dragons beside this one in its cave"),
    ({"what": "dragons", "scope": "right_of"}, "the number of dragons to the right of this one in its cave"),
    ({"what": "dragons", "scope": "row"}, "the number of dragons in this cave"),
    ({"what": "dragons", "cost_has": "milk"}, "the number of dragons on your mat with milk in their cost"),
    ({"what": "dragons", "cost_total_min": 3}, "the number of dragons on your mat whose costs total at least 3 items"),
    ({"what": "dragons", "cost_total_max": 1}, "the number of dragons on your mat whose costs total at most 1 item"),
    ({"what": "dragons", "of": "left_neighbour"}, "the number of dragons on your left neighbour's mat"),
    ({"what": "eggs", "scope": "cave"}, "the number of eggs in this cave"),
    ({"what": "eggs", "include_mat_nests": False},
     "the number of eggs on your mat (not counting the mat's own nests)"),
    ({"what": "cached", "scope": "here"}, "the number of resources cached on this dragon"),
    ({"what": "tucked", "scope": "cave", "size": "small"},
     "the number of cards tucked under small dragons in this cave"),
    ({"what": "nest_capacity", "scope": "column"}, "the number of nests in this column"),
    ({"what": "training_tokens"}, "the number of training tokens on your mat"),
    ({"what": "cave_cards"}, "the number of cave cards on your mat (covered ones included)"),
    ({"what": "cards_in_cave", "scope": "cave"},
     "the number of cards in this cave (dragons and cave cards, covered ones included)"),
    ({"what": "excavated"}, "the number of excavated spaces on your mat"),
    ({"what": "filled_columns"}, "the number of columns on your mat with a dragon in all three caves"),
    ({"what": "trait_sets"},
     "the number of full sets of the four traits (shy, aggressive, playful, helpful) among your dragons"),
    ({"what": "size_sets"},
     "the number of full sets of the four sizes (hatchling, small, medium, large) among your dragons"),
    ({"what": "guild_markers"}, "the number of your markers on the Dragon Guild tile"),
    ({"what": "objectives_lowest"},
     "the number of round objectives where your marker is the lowest placed (ties included)"),
    ({"what": "resource_icons", "scope": "cave"},
     "the number of resource icons in the printed costs of dragons in this cave"),
    ({"what": "best_cave_resource_icons"},
     "the number of resource icons in the printed costs of the dragons in your cave with the most such icons"),
    ({"what": "eggs", "div": 2}, "the number of eggs on your mat, divided by 2 and rounded down"),
])
def test_counter_reads_as_noun_phrase(counter, text):
    assert render_counter(counter) == text


@pytest.mark.parametrize("what", COUNT_WHATS)
def test_every_countable_thing_has_words(what):
    text = render_counter({"what": what})
    assert text.startswith("the number of ") and "_" not in text and "None" not in text


@pytest.mark.parametrize("cond, text", [
    ({"at_least": [{"what": "dragons", "scope": "cave"}, 3]}, "there are at least 3 dragons in this cave"),
    ({"at_least": [{"what": "eggs", "scope": "here"}, 1]}, "there is at least 1 egg on this dragon"),
    ({"at_most": [{"what": "dragons", "scope": "column"}, 1]}, "there is at most 1 dragon in this column"),
    ({"at_most": [2, {"what": "cave_cards"}]}, "there are at least 2 cave cards on your mat (covered ones included)"),
    ({"equal": [{"what": "tucked", "scope": "here"}, 0]}, "there are no cards tucked under this dragon"),
    ({"equal": [{"what": "dragons", "scope": "cave"}, 4]}, "there are exactly 4 dragons in this cave"),
    ({"at_least": [{"what": "dragons", "trait": "shy"}, {"what": "dragons", "trait": "aggressive"}]},
     "the number of shy dragons on your mat is at least the number of aggressive dragons on your mat"),
    ({"all": [{"at_least": [{"what": "eggs"}, 2]}, {"at_least": [{"what": "cave_cards"}, 2]}]},
     "there are at least 2 eggs on your mat and there are at least 2 cave cards on your mat (covered ones included)"),
    ({"any": [{"card": {"size": "small"}}, {"card": {"trait": "shy"}}]},
     "the revealed card is small or the revealed card is shy"),
    ({"not": {"at_least": [{"what": "dragons", "scope": "cave"}, 3]}},
     "there are fewer than 3 dragons in this cave"),
    ({"not": {"card": {"size": ["small", "medium"]}}}, "the revealed card is not small or medium"),
    ({"not": {"equal": [{"what": "eggs"}, 2]}}, "it is not true that there are exactly 2 eggs on your mat"),
])
def test_condition_reads_as_clause(cond, text):
    assert render_condition(cond) == text
