"""Keeping the chat civil (game/matches/moderation.py): a player mutes another and no longer sees their lines, in
any match; anyone signed in who can read a line reports it, once; staff alone see the open reports and resolve
them, and a line they take down is shown to no one. Every path refuses bad input and then stores nothing."""
import pytest

from game.matches import services
from game.models import ChatMessage, ChatMute, ChatReport


@pytest.fixture
def said(started, alice, bob):
    """alice and bob each said a line in their match."""
    return (services.post_chat(started.pk, alice, "good luck"), services.post_chat(started.pk, bob, "you will need it"))


@pytest.fixture
def staff(make_user):
    user = make_user("warden")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def chat_of(api_as, user, match):
    return [line["text"] for line in api_as(user).get(f"/api/matches/{match.public_id}/chat/").json()["results"]]


def test_a_muted_players_lines_are_hidden_from_the_one_who_muted_them_only(api_as, started, said, alice, carol):
    assert api_as(alice).put("/api/players/bob/mute/").json() == {"player": "bob", "muted": True}
    assert chat_of(api_as, alice, started) == ["good luck"]
    assert api_as(alice).get(f"/api/matches/{started.public_id}/").json()["chat"][0]["text"] == "good luck"
    assert len(api_as(alice).get(f"/api/matches/{started.public_id}/").json()["chat"]) == 1
    assert chat_of(api_as, carol, started) == ["good luck", "you will need it"]
    assert chat_of(api_as, None, started) == ["good luck", "you will need it"]
    assert api_as(alice).get("/api/players/bob/mute/").json()["muted"] is True
    assert api_as(alice).put("/api/players/bob/mute/").status_code == 200  # twice is once
    assert ChatMute.objects.count() == 1
    assert api_as(alice).delete("/api/players/bob/mute/").json()["muted"] is False
    assert chat_of(api_as, alice, started) == ["good luck", "you will need it"]


@pytest.mark.parametrize("name, words", [("alice", "yourself"), ("nobody", "no player nobody")])
def test_muting_oneself_or_nobody_is_refused(api_as, alice, name, words):
    response = api_as(alice).put(f"/api/players/{name}/mute/")
    assert response.status_code == 400 and words in response.json()["errors"]["username"][0]
    assert not ChatMute.objects.exists()


def test_muting_needs_an_account(api_as, bob):
    assert api_as(None).put("/api/players/bob/mute/").status_code in (401, 403)
    assert not ChatMute.objects.exists()


def test_a_line_is_reported_once(api_as, started, said, alice):
    url = f"/api/matches/{started.public_id}/chat/{said[1].pk}/report/"
    first = api_as(alice).post(url, {"reason": "abuse", "note": "  rude  "}, format="json")
    assert first.status_code == 201 and first.json()["new"] is True and first.json()["open"] is True
    again = api_as(alice).post(url, {"reason": "spam"}, format="json")
    assert again.status_code == 200 and again.json()["report"] == first.json()["report"]
    report = ChatReport.objects.get()
    assert (report.reason, report.note, report.reporter, report.message) == ("abuse", "rude", alice, said[1])


@pytest.mark.parametrize("body, field", [
    ({"reason": "rude"}, "reason"), ({}, "reason"), ({"reason": "spam", "note": "x" * 301}, "note"),
    ({"reason": "spam", "note": 5}, "note"), ({"reason": "spam", "colour": "red"}, "colour"), ([1], "body"),
])
def test_bad_reports_are_refused_naming_the_field(api_as, started, said, alice, body, field):
    response = api_as(alice).post(f"/api/matches/{started.public_id}/chat/{said[1].pk}/report/", body,
                                  format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    assert not ChatReport.objects.exists()


def test_ones_own_line_and_a_line_of_another_match_are_not_reported(api_as, started, said, alice, carol):
    own = api_as(alice).post(f"/api/matches/{started.public_id}/chat/{said[0].pk}/report/", {"reason": "spam"},
                             format="json")
    assert own.status_code == 400 and "your own" in own.json()["errors"]["message"][0]
    other = services.create_match(carol, players=2)
    elsewhere = api_as(alice).post(f"/api/matches/{other.public_id}/chat/{said[1].pk}/report/", {"reason": "spam"},
                                   format="json")
    assert elsewhere.status_code == 400 and "message" in elsewhere.json()["errors"]
    assert not ChatReport.objects.exists()


def test_a_private_matchs_line_is_a_404_to_a_stranger(api_as, catalogue, alice, bob, carol):
    match = services.create_match(alice, players=2, private=True)
    line = services.post_chat(match.pk, alice, "hello")
    response = api_as(carol).post(f"/api/matches/{match.public_id}/chat/{line.pk}/report/", {"reason": "spam"},
                                  format="json")
    assert response.status_code == 404
    assert not ChatReport.objects.exists()


def test_only_staff_see_the_reports(client, api_as, started, said, alice, bob, staff):
    api_as(alice).post(f"/api/matches/{started.public_id}/chat/{said[1].pk}/report/", {"reason": "abuse"},
                       format="json")
    client.force_login(alice)
    assert client.get("/staff/reports/").status_code == 404
    assert client.post(f"/staff/reports/{ChatReport.objects.get().pk}/", {"outcome": "removed"}).status_code == 404
    assert not ChatMessage.objects.get(pk=said[1].pk).removed
    client.force_login(staff)
    page = client.get("/staff/reports/").content.decode()
    assert "you will need it" in page and "Abuse or harassment" in page and f"match {started.public_id}" in page


def test_a_line_taken_down_is_shown_to_no_one_and_closes_every_report_of_it(client, api_as, started, said, alice,
                                                                          carol, staff):
    url = f"/api/matches/{started.public_id}/chat/{said[1].pk}/report/"
    api_as(alice).post(url, {"reason": "abuse"}, format="json")
    api_as(carol).post(url, {"reason": "spam"}, format="json")
    client.force_login(staff)
    first = ChatReport.objects.order_by("pk").first()
    assert client.post(f"/staff/reports/{first.pk}/", {"outcome": "removed"}).status_code == 302
    assert set(ChatReport.objects.values_list("outcome", flat=True)) == {"removed"}
    assert chat_of(api_as, carol, started) == ["good luck"] == chat_of(api_as, None, started)
    assert "you will need it" not in client.get(f"/matches/{started.public_id}/").content.decode()
    assert "No report is open" in client.get("/staff/reports/").content.decode()
    gone = api_as(carol).post(url, {"reason": "spam"}, format="json")  # a line taken down is not reported again
    assert gone.status_code == 400


def test_a_dismissed_report_keeps_the_line(client, api_as, started, said, alice, staff):
    api_as(alice).post(f"/api/matches/{started.public_id}/chat/{said[1].pk}/report/", {"reason": "other"},
                       format="json")
    client.force_login(staff)
    report = ChatReport.objects.get()
    bad = client.post(f"/staff/reports/{report.pk}/", {"outcome": "burn"})
    assert bad.status_code == 400 and "dismissed or removed" in bad.content.decode()
    assert ChatReport.objects.get().outcome == ""
    assert client.post(f"/staff/reports/{report.pk}/", {"outcome": "dismissed"}).status_code == 302
    assert ChatReport.objects.get().outcome == "dismissed" and ChatReport.objects.get().resolved_by == staff
    assert chat_of(api_as, None, started) == ["good luck", "you will need it"]


def test_the_staff_list_pages_by_cursor(client, started, alice, bob, make_user, staff):
    for n in range(3):
        line = services.post_chat(started.pk, bob, f"line {n}")
        ChatReport.objects.create(message=line, reporter=alice, reason="spam")
    from game.matches import moderation
    first = moderation.open_reports(staff, limit=2)
    assert [r.message.text for r in first.rows] == ["line 0", "line 1"] and first.after is not None
    second = moderation.open_reports(staff, after=first.after, limit=2)
    assert [r.message.text for r in second.rows] == ["line 2"] and second.after is None
    client.force_login(staff)
    assert client.get("/staff/reports/?after=nonsense").status_code == 400


def test_the_pages_report_and_mute_without_script(client, started, said, alice):
    client.force_login(alice)
    board = client.get(f"/matches/{started.public_id}/").content.decode()
    assert f"/matches/{started.public_id}/chat/{said[1].pk}/" in board  # bob's line: report or mute
    assert f"/matches/{started.public_id}/chat/{said[0].pk}/" not in board  # her own: nothing to do
    line_url = f"/matches/{started.public_id}/chat/{said[1].pk}/"
    refused = client.post(line_url, {"reason": "", "note": "kept"})
    assert refused.status_code == 400 and 'value="kept"' in refused.content.decode()
    done = client.post(line_url, {"reason": "cheating", "note": ""})
    assert done.status_code == 200 and "staff will look at it" in done.content.decode()
    assert ChatReport.objects.get().reason == "cheating"
    muted = client.post("/players/bob/mute/", {"muted": "on", "next": line_url})
    assert muted.status_code == 302 and muted["Location"] == line_url
    assert ChatMute.objects.filter(user=alice, muted__username="bob").exists()
    assert "you will need it" not in client.get(f"/matches/{started.public_id}/").content.decode()
    elsewhere = client.post("/players/bob/mute/", {"muted": "off", "next": "https://evil.example/"})
    assert elsewhere["Location"] == "/matches/" and not ChatMute.objects.exists()
    assert client.get(f"/matches/{started.public_id}/chat/999999/").status_code == 404
