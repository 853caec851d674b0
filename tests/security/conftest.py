"""Shared fixtures for the security tests: users, and a client that never re-raises a view's exception (so a bug is
seen as the 500 a visitor would get, and its log line can be read)."""
import pytest
from django.contrib.auth import get_user_model
from django.test import Client


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("mallory", password="a-long-test-password")


@pytest.fixture
def visitor():
    return Client(raise_request_exception=False)


@pytest.fixture
def signed_in(user):
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client
