"""Which answers are compressed (BREACH, docs/deploy.md): public pages are, for whoever asks for gzip; a match's page,
which may show a private match's invite link beside words other players wrote, is not; nor is any JSON."""
import gzip

import pytest
from django.test import Client

from game.matches import services

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = ["/", "/cards/", "/cards/dragons/1-white-bellied-grazer/", "/cards/guilds/", "/cards/objectives/", "/rules/", "/analysis/",
                "/checker/", "/calculator/", "/matches/"]


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_a_public_page_is_sent_gzipped_to_whoever_asks(catalogue, path):
    response = Client().get(path, headers={"accept-encoding": "gzip"})
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert b"</html>" in gzip.decompress(response.content)


def test_a_page_is_sent_plain_to_a_client_that_does_not_ask(catalogue):
    response = Client().get("/cards/")
    assert not response.has_header("Content-Encoding")
    assert b"</html>" in response.content


def test_a_private_matchs_page_with_its_invite_link_is_never_compressed(catalogue, django_user_model):
    ann = django_user_model.objects.create_user("ann", password="a-long-test-password")
    match = services.create_match(ann, players=2, private=True)
    client = Client()
    client.force_login(ann)
    response = client.get(f"/matches/{match.public_id}/", headers={"accept-encoding": "gzip"})
    assert response.status_code == 200
    assert b'id="invite-link"' in response.content  # the secret is there, in plain bytes
    assert not response.has_header("Content-Encoding")


def test_json_answers_are_left_as_they_are(catalogue):
    response = Client().get("/api/dragons/", headers={"accept-encoding": "gzip"})
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")
