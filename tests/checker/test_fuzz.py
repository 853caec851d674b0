"""No situation or decision list, however odd, makes the checker fail with anything but a CheckerInputError naming
a field (which the API turns into a 400)."""
from hypothesis import HealthCheck, given, settings, strategies as st

from game.checker import resolve
from game.checker.errors import CheckerInputError

from .test_every_card import cards

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.sampled_from(
    ["crimson_cavern", "golden_grotto", "amethyst_abyss", "meat", "milk", "Smirking Ridgeback", "Green Ghost",
     "119", "Euphonious Fae", "x", ""]))
COUNTS = st.one_of(st.integers(-2, 5), SCALARS)
SPACE = st.fixed_dictionaries({}, optional={
    "cave": SCALARS, "column": COUNTS, "eggs": COUNTS, "tucked": COUNTS, "training_tokens": COUNTS, "fed": COUNTS,
    "cached": st.one_of(SCALARS, st.dictionaries(st.sampled_from(["meat", "gold", "gems"]), COUNTS, max_size=2)),
})
DRAGON = st.fixed_dictionaries({"card": SCALARS}, optional={"cave": SCALARS, "column": COUNTS, "eggs": COUNTS,
                                                            "tucked": COUNTS, "fed": COUNTS})
SITUATION = st.one_of(st.none(), SCALARS, st.fixed_dictionaries({}, optional={
    "players": COUNTS, "seed": st.one_of(COUNTS, st.integers()), "academy": SCALARS, "at": st.one_of(SPACE, SCALARS),
    "dragons": st.one_of(st.lists(DRAGON, max_size=4), SCALARS), "hand": st.one_of(COUNTS, st.lists(SCALARS, max_size=3)),
    "cave_cards": COUNTS, "coins": COUNTS, "nest_eggs": COUNTS, "guild": COUNTS,
    "resources": st.one_of(SCALARS, st.dictionaries(st.sampled_from(["meat", "milk", "gems"]), COUNTS, max_size=2)),
    "deck_top": st.one_of(SCALARS, st.lists(SCALARS, max_size=2)),
    "excavated": st.one_of(SCALARS, st.dictionaries(st.sampled_from(["crimson_cavern", "x"]), COUNTS, max_size=1)),
}))
DECISION = st.one_of(SCALARS, st.fixed_dictionaries({"kind": st.sampled_from(["yes", "no", "egg_on", "tuck", 3])},
                                                    optional={"args": st.lists(COUNTS, max_size=2)}))
SUBJECTS = ["Smirking Ridgeback", "Calm Loch Serpent", "White-Bellied Grazer", "cave 1", "guild 1", "guild 6",
            "Curious Feline Dragonette"]


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(subject=st.sampled_from(SUBJECTS), ability=st.one_of(st.integers(-1, 3), SCALARS), situation=SITUATION,
       decisions=st.one_of(st.lists(DECISION, max_size=3), SCALARS), auto=st.booleans())
def test_odd_input_is_refused_or_run_never_crashes(subject, ability, situation, decisions, auto):
    try:
        result = resolve.run(cards(), cards().subject(subject), ability, situation, decisions, auto)
    except CheckerInputError as error:
        assert error.field and error.message
        return
    assert result["finished"] or result["pending"]["options"]
