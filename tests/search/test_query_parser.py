"""The query language's parser: what a query means, and where and why a bad one is refused."""
import re

import pytest

from cardsite.catalogue.query import MAX_LENGTH, And, Not, Or, QueryError, Term, Text, parse


def test_space_means_and_and_binds_tighter_than_or():
    tree = parse("size:large trait:shy or vp>=5")
    assert isinstance(tree, Or)
    left, right = tree.children
    assert isinstance(left, And) and [t.field for t in left.children] == ["size", "trait"]
    assert right == Term("vp", ">=", 5, 24)


def test_parentheses_group_before_and():
    tree = parse("size:large (cave:crimson or cave:golden)")
    assert isinstance(tree, And)
    assert isinstance(tree.children[1], Or)
    assert tree.children[1].children[0].value == ("any", ("crimson_cavern",))


def test_minus_before_a_bare_cost_field_means_none_of_it_in_the_cost():
    tree = parse("-cost.milk")
    assert tree == Not(Term("cost.milk", ">=", 1, 1))


def test_a_hyphen_inside_a_word_is_not_negation():
    tree = parse("white-bellied")
    assert tree == Text("white-bellied", phrase=True, position=0)


def test_quoted_phrase_and_bare_word():
    tree = parse('tuck "from the   deck"')
    assert tree.children == (Text("tuck", False, 0), Text("from the deck", True, 5))


def test_field_value_may_be_quoted():
    assert parse('name:"fire drake"') == Term("name", ":", "fire drake", 0)


def test_cave_any_all_and_only():
    assert parse("cave:crimson,golden").value == ("any", ("crimson_cavern", "golden_grotto"))
    assert parse("cave:crimson+golden").value == ("all", ("crimson_cavern", "golden_grotto"))
    only = parse("cave=amethyst")
    assert only.op == "=" and only.value == ("any", ("amethyst_abyss",))


def test_ranges_and_comparisons():
    assert parse("vp:3..5").value == (3, 5)
    assert parse("vp:4..").value == (4, None)
    assert parse("cost.meat<2") == Term("cost.meat", "<", 2, 0)


def test_aliases_and_short_kind_names():
    assert parse("habitat:golden").field == "cave"
    assert parse("kind:activated").value == ("if_activated",)
    assert parse("nests>=2").field == "nests"


def test_not_keyword_and_and_keyword():
    assert parse("not trait:shy") == Not(Term("trait", ":", ("shy",), 4))
    assert parse("tuck and cache") == And((Text("tuck", False, 0), Text("cache", False, 9)))


def test_empty_query_matches_everything():
    assert parse("   ") == And(())


@pytest.mark.parametrize("text, position, expected", [
    ("vp>=", 4, "a whole number"),
    ("vp>=five", 4, "a whole number"),
    ("size:giant", 5, "one of fledgling, hatchling, large, medium, small"),
    ("(size:large", 0, "')'"),
    ("size:large)", 10, "a term, 'or', or the end"),
    ('tuck "from the', 5, 'a closing "'),
    ("tuck or", 7, "a term after 'or'"),
    ("- tuck", 0, "a term after '-'"),
    ("()", 1, "a term inside '( )'"),
    ("vp:5..2", 3, "2..5"),
    ("cave:lava", 5, "a cave"),
    ("trait>shy", 5, "':' '=' or '!=' for this field"),
])
def test_unreadable_query_says_where_and_what_was_expected(text, position, expected):
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert caught.value.position == position
    assert expected in caught.value.expected
    assert f"at character {position + 1}" in str(caught.value)


def test_unknown_field_names_the_known_ones():
    with pytest.raises(QueryError) as caught:
        parse("colour:red")
    message = str(caught.value)
    assert "unknown field 'colour'" in message
    for field in ("cave", "size", "trait", "kind", "vp", "cost.meat", "does"):
        assert field in message


def test_overlong_query_is_refused():
    with pytest.raises(QueryError, match=f"more than the {MAX_LENGTH} allowed"):
        parse("a" * (MAX_LENGTH + 1))


def test_deep_nesting_is_refused_without_crashing():
    with pytest.raises(QueryError, match="nests deeper"):
        parse("(" * 40 + "tuck" + ")" * 40)
    with pytest.raises(QueryError, match="nests deeper"):
        parse("-" + " -".join(["x"] * 3) + " " + "not " * 60 + "x")


def test_too_many_terms_is_refused():
    with pytest.raises(QueryError, match="more than 40 terms"):
        parse(" ".join(["egg"] * 41))


def test_double_minus_cancels_out():
    assert parse("--tuck") == Not(Not(Text("tuck", False, 2)))


@pytest.mark.parametrize("text, message", [
    (")", "this ')' closes nothing"),
    ("vp>99999", "too large for any card"),
])
def test_more_unreadable_queries_say_why(text, message):
    with pytest.raises(QueryError, match=re.escape(message)):
        parse(text)
