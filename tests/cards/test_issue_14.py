"""Issue 14: rules the engine got wrong, each pinned by a real card on an exact mat."""
from .board import answer, build
from .situation import dragon_index

CRIMSON, GOLDEN, AMETHYST = 0, 4, 8


def test_a_fledgling_played_this_turn_is_still_offered_training_when_walked_over():
    st = build(mats={0: {CRIMSON: 206}})  # 206: two boxes, meat then milk
    pl = st.players[0]
    pl.fresh.append(dragon_index(206))  # as if an earlier ability of this turn had played it
    answer(st, "explore", 0)
    answer(st, "resource", "meat")  # the path's first icon
    assert st.pending.prompt.endswith("Train this fledgling once?")
    answer(st, "yes")
    assert pl.spaces[CRIMSON].tokens == 1
