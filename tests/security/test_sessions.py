"""A signed-in request reads its session and its user in one query (cardsite/accounts/sessions.py), and Django's
checks of that user all still hold: a changed password, an inactive or deleted account sign the session out."""
from django.contrib.auth import SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cardsite.accounts.models import Session

PRIVATE = "/api/calculator/history/"  # 200 for a signed-in player, 403 for anyone else


def signed_in_as(client):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(PRIVATE)
    assert response.status_code in (200, 403), response.content
    return response.status_code == 200, [q["sql"] for q in captured.captured_queries]


def test_the_session_and_its_user_are_one_query(signed_in, user):
    signed, queries = signed_in_as(signed_in)
    assert signed
    sessions = [q for q in queries if '"accounts_session"' in q]
    assert len(sessions) == 1 and 'JOIN "auth_user"' in sessions[0]
    assert not [q for q in queries if q.startswith('SELECT') and 'FROM "auth_user"' in q], queries


def test_signing_in_by_the_form_names_the_user_on_the_session_and_signing_out_removes_it(user):
    client = Client()
    answer = client.post("/accounts/login/", {"username": "mallory", "password": "a-long-test-password"})
    assert answer.status_code == 302
    row = Session.objects.get()
    assert row.user_id == user.pk and row.get_decoded()[SESSION_KEY] == str(user.pk)
    assert signed_in_as(client)[0]
    client.post("/accounts/logout/")
    assert not Session.objects.exists()
    assert not signed_in_as(client)[0]


def test_a_wrong_password_signs_no_one_in(user):
    client = Client()
    answer = client.post("/accounts/login/", {"username": "mallory", "password": "not-the-password"})
    assert answer.status_code == 200 and "username" in answer.content.decode().lower()
    assert not Session.objects.filter(user=user).exists()
    assert not signed_in_as(client)[0]


def test_a_password_changed_elsewhere_signs_the_session_out(signed_in, user):
    user.set_password("another-long-test-password")
    user.save()
    assert not signed_in_as(signed_in)[0]
    assert not Session.objects.filter(user=user).exists()  # Django flushes the session it could not verify


def test_an_inactive_account_is_not_signed_in(signed_in, user):
    user.is_active = False
    user.save()
    assert not signed_in_as(signed_in)[0]


def test_deleting_a_user_deletes_their_sessions(signed_in, user):
    assert Session.objects.filter(user=user).count() == 1
    user.delete()
    assert not Session.objects.exists()
    assert not signed_in_as(signed_in)[0]


def test_a_session_whose_user_column_disagrees_with_its_data_goes_by_its_data(signed_in, user, django_user_model):
    other = django_user_model.objects.create_user("trent", password="a-long-test-password")
    Session.objects.update(user=other)
    signed, queries = signed_in_as(signed_in)
    assert signed  # as mallory, whose id and password hash the session's signed data hold
    assert [q for q in queries if 'FROM "auth_user"' in q and 'accounts_session' not in q]  # read as Django does


def test_a_session_naming_a_user_that_is_gone_is_signed_out_not_an_error(signed_in, user):
    Session.objects.update(user_id=user.pk + 1000)  # no such user: the join finds none
    assert signed_in_as(signed_in)[0]  # the session's data still names mallory, read as Django does
    user.delete()  # Django's cascade finds no session by the column, so the row outlives the user
    assert not signed_in_as(signed_in)[0]
