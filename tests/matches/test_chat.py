"""A chat per match: seated players write, anyone reads, and what they write is shown as text, never as HTML."""
import pytest

from game.models import ChatMessage, Match

SCRIPT = '<script>alert("hi")</script> & <b>bold</b>'


def test_a_line_is_stored_and_shown_escaped_on_the_board(api_as, client, started, alice):
    response = api_as(alice).post(f"/api/matches/{started.public_id}/chat/", {"text": SCRIPT}, format="json")
    assert response.status_code == 201
    assert ChatMessage.objects.get(match=started).text == SCRIPT
    page = client.get(f"/matches/{started.public_id}/").content.decode()
    assert "<script>alert" not in page and "<b>bold</b>" not in page
    assert "&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page
    # Spectators read it through the API too (as JSON text, for the page to show with textContent).
    lines = api_as(None).get(f"/api/matches/{started.public_id}/chat/").json()["results"]
    assert [(line["user"], line["text"]) for line in lines] == [("alice", SCRIPT)]
    assert api_as(None).get(f"/api/matches/{started.public_id}/").json()["chat"][0]["text"] == SCRIPT


def test_posting_from_the_page_without_script(client, started, bob):
    client.force_login(bob)
    response = client.post(f"/matches/{started.public_id}/chat/", {"text": "  Good luck!  "})
    assert response.status_code == 302
    assert ChatMessage.objects.get(match=started).text == "Good luck!"


@pytest.mark.parametrize("body, field", [
    ({"text": ""}, "text"), ({"text": "   \n "}, "text"), ({"text": "x" * 501}, "text"), ({"text": 5}, "text"),
    ({}, "text"), ({"text": "hi", "colour": "red"}, "colour"),
])
def test_bad_chat_lines_are_refused_and_store_nothing(api_as, started, alice, body, field):
    response = api_as(alice).post(f"/api/matches/{started.public_id}/chat/", body, format="json")
    assert response.status_code == 400 and response.json()["field"] == field
    assert not ChatMessage.objects.exists()


def test_a_line_at_the_limit_is_accepted(api_as, started, alice):
    assert api_as(alice).post(f"/api/matches/{started.public_id}/chat/", {"text": "x" * 500},
                              format="json").status_code == 201


def test_only_seated_players_write(api_as, started, make_user):
    assert api_as(make_user("dave")).post(f"/api/matches/{started.public_id}/chat/", {"text": "hello"},
                                          format="json").status_code == 403
    assert api_as(None).post(f"/api/matches/{started.public_id}/chat/", {"text": "hello"},
                             format="json").status_code == 403
    assert not ChatMessage.objects.exists()


def test_the_page_form_shows_a_refusal_and_keeps_nothing(client, started, alice):
    client.force_login(alice)
    response = client.post(f"/matches/{started.public_id}/chat/", {"text": "y" * 600})
    assert response.status_code == 400 and "at most 500 characters" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_a_chat_line_changes_the_board_etag(api_as, started, alice):
    first = api_as(None).get(f"/api/matches/{started.public_id}/")
    api_as(alice).post(f"/api/matches/{started.public_id}/chat/", {"text": "hello"}, format="json")
    again = api_as(None).get(f"/api/matches/{started.public_id}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again.json()["chat"][0]["text"] == "hello"
    assert Match.objects.get(pk=started.pk).version == 0
