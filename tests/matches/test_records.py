"""Game records of matches: a finished match exports its record (text), which replays through the engine, on the
API and on the records page, to the same final breakdown; a match still in play has none (its seed would tell the
hidden cards); a record the rules refuse is refused naming the move, and nothing is stored."""
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from game.engine import record
from game.matches import services
from game.models import Match, MatchCatalogue

from .conftest import play_randomly


@pytest.fixture
def scored(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    match = play_randomly(match.pk, 5000, seed=11)
    assert match.status == Match.Status.FINISHED and match.ending == Match.Ending.SCORED
    return match


def test_a_finished_match_exports_a_record_that_replays_to_its_result(client, scored):
    answer = client.get(f"/api/matches/{scored.public_id}/record/")
    assert answer.status_code == 200 and answer["Content-Type"] == "text/plain; charset=utf-8"
    text = answer.content.decode()
    parsed = record.read(text)
    assert parsed.tags["Seat1"] == "alice" and parsed.tags["Seat2"] == "bob"
    assert parsed.tags["Cards"] == services.snapshot_of(scored).digest
    assert len(parsed.decisions) == scored.version
    assert [d["kind"] for d in parsed.decisions] == list(scored.decisions.order_by("number")
                                                         .values_list("kind", flat=True))
    st = record.replay(parsed, services.snapshot_of(scored).engine)
    assert st.result == scored.state["result"]
    download = client.get(f"/api/matches/{scored.public_id}/record/?download=1")
    assert download["Content-Disposition"] == f'attachment; filename="wyrmdex-match-{scored.public_id}.txt"'
    assert 'id="record-link"' in client.get(f"/matches/{scored.public_id}/").content.decode()


def test_a_match_in_play_has_no_record(client, started):
    answer = client.get(f"/api/matches/{started.public_id}/record/")
    assert answer.status_code == 409
    assert "once it is over" in str(answer.json())
    assert 'id="record-link"' not in client.get(f"/matches/{started.public_id}/").content.decode()
    assert client.get("/api/matches/999999/record/").status_code == 404


def test_the_api_replays_a_record_to_the_same_final_breakdown(client, scored):
    text = client.get(f"/api/matches/{scored.public_id}/record/").content.decode()
    answer = client.post("/api/records/", {"record": text}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    result = scored.state["result"]
    assert body["finished"] is True and body["moves"] == scored.version
    assert body["final"]["names"] == ["alice", "bob"]
    assert body["final"]["totals"] == [s["total"] for s in result["scores"]]
    assert body["final"]["places"] == result["places"]
    eggs = next(row for row in body["final"]["rows"] if row["key"] == "eggs")
    assert eggs["values"] == [s["eggs"] for s in result["scores"]]


def test_a_record_on_a_fresh_database_replays_on_todays_cards(client, scored):
    text = client.get(f"/api/matches/{scored.public_id}/record/").content.decode()
    Match.objects.all().delete()  # what is left is the catalogue: a fresh site with the same cards
    MatchCatalogue.objects.all().delete()
    answer = client.post("/api/records/", {"record": text}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["final"]["totals"] == [s["total"] for s in scored.state["result"]["scores"]]


@pytest.mark.parametrize("body, where", [
    ({}, "record"),
    ({"record": 12}, "record"),
    ({"record": "   "}, "record"),
    ({"record": "not a record"}, "record"),
])
def test_the_api_refuses_what_is_not_a_record(client, catalogue, body, where):
    answer = client.post("/api/records/", body, content_type="application/json")
    assert answer.status_code == 400
    assert where in str(answer.json())


def test_an_illegal_record_is_refused_naming_the_move_and_nothing_is_stored(client, scored):
    text = client.get(f"/api/matches/{scored.public_id}/record/").content.decode()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("9. "))
    lines[at] = "9. s1 entice 9999 0"
    before = Match.objects.count()
    answer = client.post("/api/records/", {"record": "\n".join(lines)}, content_type="application/json")
    assert answer.status_code == 400
    assert "move 9:" in str(answer.json())
    assert Match.objects.count() == before
    page = client.post("/records/", {"record": "\n".join(lines)})
    assert page.status_code == 400 and "move 9:" in page.content.decode()


def test_a_record_whose_cards_this_site_lacks_is_refused_at_its_tag(client, scored):
    text = client.get(f"/api/matches/{scored.public_id}/record/").content.decode()
    forged = text.replace(services.snapshot_of(scored).digest, "0" * 64)
    answer = client.post("/api/records/", {"record": forged}, content_type="application/json")
    assert answer.status_code == 400 and "tag Cards" in str(answer.json())


def test_the_records_page_shows_the_moves_and_the_final_count_and_opens_the_board(client, scored):
    text = client.get(f"/api/matches/{scored.public_id}/record/").content.decode()
    page = client.post("/records/", {"record": text})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="rec-final"' in html and html.count("<li>") >= scored.version
    for score in scored.state["result"]["scores"]:
        assert f"<strong>{score['total']}</strong>" in html
    board = client.post("/records/", {"record": text, "analyse": "20"})
    assert board.status_code == 302 and board["Location"].startswith("/analysis/?p=")
    assert client.post("/records/", {"record": text, "analyse": "x"}).status_code == 400
    assert client.post("/records/", {"record": text, "analyse": "99999"}).status_code == 400
    assert client.get("/records/").status_code == 200


def test_the_records_page_takes_an_uploaded_file(client, scored):
    text = client.get(f"/api/matches/{scored.public_id}/record/").content.decode()
    page = client.post("/records/", {"file": SimpleUploadedFile("game.txt", text.encode(), "text/plain")})
    assert page.status_code == 200 and 'id="rec-final"' in page.content.decode()
    binary = client.post("/records/", {"file": SimpleUploadedFile("game.txt", b"\xff\xfe\x00", "text/plain")})
    assert binary.status_code == 400 and "not text" in binary.content.decode()
