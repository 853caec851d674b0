"""Game records (game/engine/record.py): random games of 1 to 5 players, with and without the Academy, written as
records, read back and replayed, end where they ended; a record the rules refuse is refused at the move that breaks
them, and a record whose form is wrong is refused at its line."""
import pytest

from game.engine import record
from game.engine.agents import RandomAgent
from game.engine.record import RecordError
from game.engine.state import GameState

from .helpers import real_catalogue


def play(players, seed, academy, automa=None):
    st = GameState.new(real_catalogue(), players=players, seed=seed, academy=academy, automa=automa)
    agent, decisions, labels = RandomAgent(seed), [], []
    while st.pending is not None:
        option = agent.choose(st.pending.options)
        decisions.append({"seat": st.pending.player, "kind": option.kind, "args": list(option.args)})
        labels.append(st.label(option))
        st.apply(option)
    return st, decisions, labels


def write(st, decisions, labels=None, **tags):
    return record.write(st.options, decisions, labels, {**record.result_tags(st.result), **tags})


CASES = [(players, seed, academy) for players in range(1, 6) for academy in (False, True) for seed in (7, 31)]


@pytest.mark.parametrize("players, seed, academy", CASES)
def test_a_random_game_round_trips_through_its_record(players, seed, academy):
    automa = {"level": 1 + seed % 3, "ravel": seed % 2 == 0} if players == 1 else None
    st, decisions, labels = play(players, seed, academy, automa)
    text = write(st, decisions, labels, Seat1="alice", Date="2026-12-06")
    parsed = record.read(text)
    assert parsed.options == st.options
    assert parsed.decisions == decisions
    assert parsed.tags["Seat1"] == "alice"
    again = record.replay(text, real_catalogue())
    assert again.result == st.result
    assert again.to_json() == st.to_json()
    assert record.write(parsed.options, parsed.decisions, labels, {k: v for k, v in parsed.tags.items()
                                                                    if k in record.OTHER_TAGS}) == text


def test_the_record_reads_as_text_for_people():
    st, decisions, labels = play(2, 5, False)
    text = write(st, decisions, labels)
    head, _, moves = text.partition("\n\n")
    assert head.splitlines()[0] == '[Format "wyrmdex-record 1"]'
    assert '[Players "2"]' in head and '[Seed "5"]' in head and '[Academy "no"]' in head
    first = moves.splitlines()[0]
    assert first.startswith("1. s1 discard_cards ") and first.endswith(" ; " + labels[0])


def test_an_illegal_move_is_refused_by_its_number_with_the_reason():
    st, decisions, labels = play(2, 11, False)
    broken = [dict(d) for d in decisions]
    at = next(n for n, d in enumerate(broken) if d["kind"] == "excavate")
    broken[at] = {**broken[at], "kind": "entice", "args": [9999, 0]}
    with pytest.raises(RecordError) as refused:
        record.replay(write(st, broken), real_catalogue())
    assert refused.value.where == f"move {at + 1}"
    assert "You tried 'Entice dragon #9999" in refused.value.reason  # the engine's own refusal, word for word


def test_a_move_by_the_wrong_seat_is_refused():
    st, decisions, _ = play(2, 12, False)
    at = next(n for n, d in enumerate(decisions) if d["seat"] == 0 and n > 4)
    broken = decisions[:at] + [{**decisions[at], "seat": 1}] + decisions[at + 1:]
    with pytest.raises(RecordError) as refused:
        record.replay(write(st, broken), real_catalogue())
    assert refused.value.where == f"move {at + 1}"
    assert "seat 2 cannot decide now" in refused.value.reason


def test_a_result_that_the_decisions_do_not_give_is_refused():
    st, decisions, _ = play(3, 13, True)
    text = record.write(st.options, decisions, None, {"Result": "1 2 3"})
    with pytest.raises(RecordError) as refused:
        record.replay(text, real_catalogue())
    assert refused.value.where == "tag Result"


def test_moves_after_the_end_and_a_game_cut_short():
    st, decisions, _ = play(2, 14, False)
    longer = decisions + [decisions[-1]]
    with pytest.raises(RecordError) as refused:
        record.replay(write(st, longer), real_catalogue())
    assert refused.value.where == f"move {len(longer)}" and "over" in refused.value.reason
    with pytest.raises(RecordError) as short:
        record.replay(write(st, decisions[:-3]), real_catalogue())
    assert short.value.where == "tag Result"
    unfinished = record.replay(record.write(st.options, decisions[:-3]), real_catalogue())  # no claim, no refusal
    assert unfinished.result is None and unfinished.pending is not None


@pytest.mark.parametrize("text, where", [
    ("", "tag Format"),
    ('[Players "2"]\n', "line 1"),
    ('[Format "wyrmdex-record 9"]\n[Players "2"]\n[Seed "1"]\n', "tag Format"),
    ('[Format "wyrmdex-record 1"]\n[Seed "1"]\n', "tag Players"),
    ('[Format "wyrmdex-record 1"]\n[Players "7"]\n[Seed "1"]\n', "tag Players"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "x"]\n', "tag Seed"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "1"]\n[Academy "maybe"]\n', "tag Academy"),
    ('[Format "wyrmdex-record 1"]\n[Players "1"]\n[Seed "1"]\n', "tag Automa"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "1"]\n[Automa "level 1"]\n', "tag Automa"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "1"]\n[Colour "red"]\n', "line 4"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Players "3"]\n', "line 3"),
    ('[Format "wyrmdex-record 1"]\n[Players 2]\n', "line 2"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "1"]\n\n2. s1 pass\n', "line 5"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "1"]\n\n1. s1 pass\n[Date "x"]\n', "line 6"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "1"]\n\n1. one pass\n', "line 5"),
    ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "1"]\n\n1. s1 resources {gold}\n', "move 1"),
])
def test_a_record_of_the_wrong_form_is_refused_at_its_line(text, where):
    with pytest.raises(RecordError) as refused:
        record.replay(text, real_catalogue())
    assert refused.value.where == where


def test_an_automa_level_the_engine_does_not_know_is_refused_at_its_tag():
    text = '[Format "wyrmdex-record 1"]\n[Players "1"]\n[Seed "1"]\n[Automa "level 9"]\n'
    with pytest.raises(RecordError) as refused:
        record.replay(text, real_catalogue())
    assert refused.value.where == "tag Automa" and "level" in refused.value.reason


def test_quoted_words_and_comments():
    text = ('[Format "wyrmdex-record 1"]\n[Players "2"]\n[Seed "3"]\n# a comment line\n\n'
            '1. s1 discard_cards "dragon" 13 cave 34 ; anything here; even semicolons\n')
    parsed = record.read(text)
    assert parsed.decisions == [{"seat": 0, "kind": "discard_cards", "args": ["dragon", 13, "cave", 34]}]
