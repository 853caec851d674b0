"""The smaller holes: the sign-up's `next`, who may download the catalogue, and pages that load nothing from
elsewhere under a Content-Security-Policy."""
import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from cardsite.catalogue.admin import EXPORT_PERMISSIONS


def sign_up(client, next_url, secure):
    return client.post(f"/accounts/signup/?next={next_url}", {"username": "newcomer", "password1": "x-long-pass-9876",
                                                              "password2": "x-long-pass-9876"}, secure=secure)


@pytest.mark.parametrize("next_url", ["http://testserver/calculator/", "//evil.example/", "https://evil.example/"])
def test_sign_up_on_https_refuses_a_next_that_is_not_https_on_our_host(db, next_url):
    response = sign_up(Client(), next_url, secure=True)
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_sign_up_follows_a_local_next(db):
    response = sign_up(Client(), "/matches/", secure=True)
    assert response["Location"] == "/matches/"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("clerk", password="a-long-test-password", is_staff=True)


def test_staff_without_permissions_cannot_download_the_catalogue(staff, catalogue):
    client = Client()
    client.force_login(staff)
    response = client.get("/admin/cardsite/dragon/export/")
    assert response.status_code == 403
    assert b"dragons" not in response.content


def test_staff_allowed_to_view_the_catalogue_can_download_it(staff, catalogue):
    for name in EXPORT_PERMISSIONS:
        app, codename = name.split(".")
        staff.user_permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))
    client = Client()
    client.force_login(staff)
    response = client.get("/admin/cardsite/dragon/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")


@pytest.mark.parametrize("url", ["/api/redoc/", "/api/docs/"])
def test_the_api_docs_load_nothing_from_elsewhere(client, url):
    page = client.get(url).content.decode()
    assert not re.findall(r"""(?:src|href)=["']?(?:https?:)?//""", page), page
    assert "fonts.googleapis" not in page and "fonts.gstatic" not in page


def test_every_page_has_a_content_security_policy_of_our_own_files(client, catalogue):
    policy = client.get("/cards/")["Content-Security-Policy"]
    directives = dict((part.strip().split(" ", 1) + [""])[:2] for part in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"].startswith("'self'") and "unsafe" not in directives["script-src"]
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"


def test_an_inline_script_carries_the_nonce_of_its_policy(client, catalogue):
    response = client.get("/calculator/")
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
    assert f'<script nonce="{nonce}">' in response.content.decode()
