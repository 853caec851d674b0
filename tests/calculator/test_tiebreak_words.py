"""One telling of ties for the calculator and the end of a match (game/tiebreak.py)."""
from game.tiebreak import names_list, tie_words


def line(name, total, dragons, automa=False):
    return {"name": name, "total": total, "dragons": dragons, "automa": automa}


def test_names_are_listed_as_people_say_them():
    assert names_list(["Ann"]) == "Ann"
    assert names_list(["Ann", "Ben"]) == "Ann and Ben"
    assert names_list(iter(["Ann", "Ben", "Cy"])) == "Ann, Ben and Cy"


def test_each_kind_of_tie_has_its_sentence_and_untied_players_none():
    words = tie_words([line("Ann", 80, 9), line("Ben", 70, 6), line("Cy", 70, 4), line("Di", 70, 6),
                       line("Ed", 60, 5), line("Fay", 60, 5), line("Gus", 50, 3)])
    assert words == [
        "Ben, Cy and Di tie on 70 VP; the tiebreak is the most dragons on the mat (Ben 6, Cy 4, Di 6), so Ben and "
        "Di share the higher place.",
        "Ed and Fay tie on 60 VP and on dragons on the mat (5 each), so they share the place.",
    ]
    assert tie_words([line("Ann", 70, 6), line("Ben", 70, 4)]) == [
        "Ann and Ben tie on 70 VP; the tiebreak is the most dragons on the mat (Ann 6, Ben 4), so Ann takes the "
        "higher place."]


def test_a_tie_with_the_automa_goes_to_the_player_whatever_the_dragons():
    assert tie_words([line("Ann", 70, 2), line("The Automa", 70, 12, automa=True)]) == [
        "Ann and the Automa tie on 70 VP; against the Automa a tie goes to the player, so Ann takes the higher "
        "place."]
