"""The Dragon Guild track: benefits of every space passed, brown spaces, markers and the order of choosing."""

from game.engine.decisions import Option

from .helpers import cave, choose, make_catalogue, position, seat

EVERYONE_ADVANCES = cave(1, [{"kind": "when_played", "effect": {"do": "gain", "item": "guild"},
                              "others": {"do": "gain", "item": "guild"}}])
TWO_STEPS = cave(2, [{"kind": "when_played", "effect": {"do": "gain", "item": "guild", "count": 2}}])


CAT = make_catalogue([], [EVERYONE_ADVANCES, TWO_STEPS])


def excavate_with(card, seats=({}, {}, {}), **partial):
    """Three players with 5 coins (and each of `seats`' things); the player to move excavates with cave `card`."""
    seats = [dict({"coins": 5}, **s) for s in seats]
    seats[partial.get("current_player", 0)]["caves"] = [card]
    st = position(CAT, [seat(CAT, **s) for s in seats], **partial)
    choose(st, "excavate", card, 0)
    return st


def test_each_space_passed_gives_its_benefit():
    st = excavate_with(1)
    choose(st, "yes")
    # space 1 lays an egg (the mat's nest is the only place: no question), space 2 gives a meat
    pl = st.players[0]
    assert pl.guild == 2 and pl.nest == 1 and pl.res == [1, 0, 0, 0]


def test_brown_space_places_a_marker_and_gives_the_row():
    st = excavate_with(0, ({"guild": 5}, {}, {}))
    choose(st, "yes")
    assert st.pending.player == 0 and st.pending.kind == "guild_marker"
    assert st.legal_options() == [Option("marker", (0, 0)), Option("marker", (1, 0)), Option("marker", (2, 0)),
                                  Option("marker", (-1, 0))]
    choose(st, "marker", 0, 0)
    choose(st, "yes")  # the row: gain a gold
    assert st.players[0].markers == [[0, 0]] and st.players[0].res[1] == 1
    assert st.guild_board[0][0] == [0]


def test_players_reaching_brown_in_one_turn_choose_clockwise_from_the_active_player():
    # player 2 is active; player 3 and then player 1 follow
    st = excavate_with(0, ({"guild": 5},) * 3, current_player=1)
    choose(st, "yes")
    order = []
    while st.pending.kind != "main_action":
        if st.pending.kind == "guild_marker":
            order.append(st.pending.player)
            assert Option("marker", (0, 0)) in st.legal_options() or order[0] != st.pending.player
            choose(st, "marker", *st.legal_options()[0].args)
        else:
            st.apply(Option("yes") if Option("yes") in st.legal_options() else st.legal_options()[0])
    assert order == [1, 2, 0]
    assert st.guild_board[0][0] == [1]  # the single square went to the first to choose
    assert st.players[2].markers[0] == [1, 0]


def test_no_marker_after_the_fourth():
    st = excavate_with(0, ({"guild": 5, "guild_markers": [[-1, 2]] * 4}, {}, {}))
    pl = st.players[0]
    choose(st, "yes")
    assert len(pl.markers) == 4 and pl.guild == 6


def test_end_game_vp_row_last_square_holds_any_number():
    # every square but the END GAME VP row's last is taken; two markers already stand on that one
    st = excavate_with(0, ({"guild": 5},
                           {"guild_markers": [[-1, 0], [-1, 2], [1, 1], [2, 0]]},
                           {"guild_markers": [[-1, 1], [-1, 2], [0, 0], [1, 0]]}))
    choose(st, "yes")
    choose(st, "no")  # others decline
    choose(st, "no")
    assert st.players[0].markers == [[-1, 2]]  # the only free square: the unlimited one, taken at once
    assert st.guild_board[-1][2] == [1, 2, 0]


def test_a_brown_space_with_every_marker_placed_says_none_is_placed():
    from game.language.events import render_event

    markers = [[0, 0], [1, 0], [2, 0], [-1, 0]]
    st = excavate_with(0, ({"guild": 5, "guild_markers": markers}, {}, {}))
    st.events = []
    choose(st, "yes")
    reached = [e for e in st.events if e["e"] == "guild"]
    assert reached and reached[-1].get("spent") is True
    assert st.pending is None or st.pending.kind != "guild_marker"  # nothing to place, nothing asked
    assert st.players[0].markers == markers
    text = render_event(reached[-1])
    assert "no marker left to place" in text and "is placed" not in text
