"""The API knows the site's session and nothing else: HTTP Basic credentials are not a login (they would skip CSRF
and the sign-in rate limit), and a malformed Authorization header is simply ignored, never a 500."""
import pytest

from game.models import Match

MALFORMED = ["Basic AGE6Yg==", "Basic %%%", "Basic", "Basic " + "A" * 5000, "Token \x7f", "Bearer x y z",
             "Basic YTpi\u00e9"]


def test_basic_credentials_of_a_real_user_do_not_sign_in(visitor, user, catalogue):
    response = visitor.post("/api/matches/", {"players": 2}, content_type="application/json",
                            HTTP_AUTHORIZATION="Basic bWFsbG9yeTphLWxvbmctdGVzdC1wYXNzd29yZA==")
    assert response.status_code == 403
    assert response.json()["code"] == "not_authenticated"
    assert not Match.objects.exists()


@pytest.mark.parametrize("header", MALFORMED)
@pytest.mark.parametrize("url", ["/api/matches/", "/api/calculator/history/", "/api/dragons/?page_size=1"])
def test_malformed_authorization_is_ignored(visitor, catalogue, url, header):
    response = visitor.get(url, HTTP_AUTHORIZATION=header)
    assert response.status_code in (200, 403), response.content
