"""Options whose args are the wrong shape are refused as typed engine errors, never a crash of the labels."""
import pytest

from game.engine.decisions import IllegalDecision, Option
from game.engine.labels import label

from .helpers import new_game, real_catalogue

BAD_PICKS = [
    Option("pick", (1, "dragon", 5)),
    Option("pick", ()),
    Option("pick", ("play",)),
    Option("pick", ("tuck", "dragon", "x", "y")),
    Option("pick", (7, 7, 7, 7)),
]


@pytest.mark.parametrize("option", BAD_PICKS, ids=[str(o.args) for o in BAD_PICKS])
def test_a_malformed_pick_is_refused_with_a_readable_message_and_changes_nothing(option):
    st = new_game(real_catalogue())
    before = st.to_json()
    with pytest.raises(IllegalDecision, match=r"^You tried '"):
        st.apply(option)
    assert st.to_json() == before


def test_a_pick_label_reads_its_args_raw_when_they_are_not_a_place():
    st = new_game(real_catalogue())
    assert label(st, Option("pick", (1, "dragon", 5))) == "pick 1 dragon 5"
