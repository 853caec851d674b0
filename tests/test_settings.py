"""Settings come from the environment: production settings pass `check --deploy`; a bad value stops the start
with a message naming the variable."""
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_VARIABLES = ("DEBUG", "SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT",
                      "SECURE_HSTS_SECONDS", "WYRMDEX_PRODUCTION", "DJANGO_SETTINGS_MODULE",
                      "RATE_LIMIT_SIGN_IN", "RATE_LIMIT_SIGN_IN_USERNAME", "RATE_LIMIT_SIGN_UP", "RATE_LIMIT_WRITE",
                      "TRUSTED_PROXIES", "JSON_MAX_DEPTH", "LOG_LEVEL", "CATALOGUE_VERSION_REUSE_MS", "WYRMDEX_PG_PREPARE",
                      "MATCH_POLL_MS", "STATIC_ROOT")


def manage(*args, **env):
    """Run manage.py in a fresh interpreter with only the given settings variables set, and a SECRET_KEY of its own
    (DEBUG is off) unless one is given: SECRET_KEY="" starts without a key."""
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    clean["SECRET_KEY"] = secrets.token_urlsafe(50)
    clean.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=120)


def production_env(tmp_path, **overrides):
    env = {
        "WYRMDEX_PRODUCTION": "true",
        "SECRET_KEY": secrets.token_urlsafe(48)[:50],
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "true",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
    }
    env.update(overrides)
    return env


def test_check_deploy_is_clean_under_production_settings(tmp_path):
    result = manage("check", "--deploy", "--fail-level", "WARNING", **production_env(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_warns_when_production_forgets_https(tmp_path):
    result = manage("check", "--deploy", "--fail-level", "WARNING",
                    **production_env(tmp_path, SECURE_SSL_REDIRECT="false"))
    assert result.returncode != 0
    assert "security.W008" in result.stdout + result.stderr


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("DEBUG", "maybe", "DEBUG must be one of true/false"),
    ("SECURE_SSL_REDIRECT", "sometimes", "SECURE_SSL_REDIRECT must be one of true/false"),
    ("WYRMDEX_PRODUCTION", "perhaps", "WYRMDEX_PRODUCTION must be one of true/false"),
    ("DATABASE_URL", "nonsense", "DATABASE_URL is not a database URL"),
    ("DATABASE_URL", "mysql://user@localhost/db", "DATABASE_URL must point at SQLite or PostgreSQL"),
    ("SECRET_KEY", "too-short", "SECRET_KEY must be at least 50 characters"),
    ("SECRET_KEY", "a" * 60, "SECRET_KEY must be at least 50 characters"),
    ("SECRET_KEY", "k" * 32 + "abcdefghij", "SECRET_KEY must be at least 50 characters"),
    ("RATE_LIMIT_SIGN_IN", "ten a minute", "RATE_LIMIT_SIGN_IN must be COUNT/SECONDS"),
    ("RATE_LIMIT_SIGN_IN_USERNAME", "50", "RATE_LIMIT_SIGN_IN_USERNAME must be COUNT/SECONDS"),
    ("LOG_LEVEL", "loud", "LOG_LEVEL must be one of"),
    ("SECURE_HSTS_SECONDS", "a year", "SECURE_HSTS_SECONDS must be a whole number"),
    ("ALLOWED_HOSTS", " , ", "ALLOWED_HOSTS is set but lists no host"),
    ("CATALOGUE_VERSION_REUSE_MS", "a second", "CATALOGUE_VERSION_REUSE_MS must be a whole number"),
    ("CATALOGUE_VERSION_REUSE_MS", "-5", "CATALOGUE_VERSION_REUSE_MS must be 0 or more"),
    ("MATCH_POLL_MS", "often", "MATCH_POLL_MS must be a whole number"),
    ("MATCH_POLL_MS", "50", "MATCH_POLL_MS must be at least 250 milliseconds"),
    ("WYRMDEX_PG_PREPARE", "sometimes", "WYRMDEX_PG_PREPARE must be one of true/false"),
    ("WYRMDEX_PUSH_LAYER", "kafka", "WYRMDEX_PUSH_LAYER must be one of core, pubsub"),
    ("STATIC_ROOT", "staticfiles", "STATIC_ROOT must be an absolute path"),
])
def test_a_bad_setting_stops_the_start_naming_the_variable(tmp_path, variable, value, message):
    result = manage("check", **production_env(tmp_path, **{variable: value}))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    result = manage("check", **production_env(tmp_path, SECRET_KEY=""))
    assert result.returncode != 0
    assert "SECRET_KEY must be set when WYRMDEX_PRODUCTION is on" in result.stderr


def test_a_debug_server_on_this_machine_needs_no_variables_but_debug(tmp_path):
    """What `python3 dev.py serve` runs from a fresh clone: DEBUG=true, the default local hosts, no SECRET_KEY."""
    result = manage("check", DEBUG="true", SECRET_KEY="", DATABASE_URL=f"sqlite:///{tmp_path / 'dev.sqlite3'}")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("env", "reason"), [
    ({}, "when DEBUG is off"),  # DEBUG's default: a site started by the Procfile or gunicorn as it is
    ({"DEBUG": "false"}, "when DEBUG is off"),
    ({"DEBUG": "false", "SECRET_KEY": "wyrmdex-development-key-not-for-production-use-0123456789abcdef"},
     "when DEBUG is off"),  # the key in the source, copied into the environment, is no key of one's own
    ({"DEBUG": "true", "ALLOWED_HOSTS": "wyrmdex.example.org,localhost"},
     "when ALLOWED_HOSTS names a host other than this machine (wyrmdex.example.org)"),
])
def test_a_site_refuses_to_start_on_the_public_development_key(tmp_path, env, reason):
    env = {"SECRET_KEY": "", **env}
    result = manage("check", "--deploy", DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}", **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"SECRET_KEY must be set {reason}" in result.stderr
    assert "secrets.token_urlsafe(50)" in result.stderr  # and how to make one


@pytest.mark.django_db
def test_on_postgresql_a_statement_run_again_is_prepared_once_per_connection():
    """Server-side binding with psycopg's prepared statements: the statement a request repeats is planned once per
    connection (the match reads, the session read), which is what the speed figures of issue 11 rest on."""
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    assert settings.DATABASES["default"]["OPTIONS"]["server_side_binding"] is True
    statement = "SELECT count(*) FROM game_match WHERE id > %s"
    with connection.cursor() as cursor:
        for i in range(settings.PG_PREPARE_AFTER + 1):
            cursor.execute(statement, [i])
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("FROM game_match WHERE id > $1" in text for text in prepared), prepared


@pytest.mark.django_db
def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them():
    """WYRMDEX_PG_PREPARE=off (PgBouncer in transaction mode before 1.21): parameters are merged on our side."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    db = connection.settings_dict  # the test database, which exists while this test runs
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    show = ("from django.conf import settings; from django.db import connection; "
            "print(settings.DATABASES['default'].get('OPTIONS', {}).get('server_side_binding', False), "
            "isinstance(connection.cursor().cursor, __import__('psycopg').ClientCursor))")
    # Each prints whether server-side binding is on, and whether the cursor merges the parameters on our side.
    on = manage("shell", "-c", show, DATABASE_URL=url)
    off = manage("shell", "-c", show, DATABASE_URL=url, WYRMDEX_PG_PREPARE="off")
    assert on.returncode == 0 and off.returncode == 0, on.stderr + off.stderr
    assert on.stdout.splitlines()[-1].split() == ["True", "False"]
    assert off.stdout.splitlines()[-1].split() == ["False", "True"]


def test_the_database_options_in_the_url_are_kept_beside_ours():
    """`?sslmode=require` in DATABASE_URL stays an option of the connection when prepared statements are on
    (settings only: nothing connects)."""
    show = "from django.conf import settings; print(sorted(settings.DATABASES['default']['OPTIONS'].items()))"
    result = manage("shell", "-c", show, DATABASE_URL="postgres://someone@127.0.0.1:5432/anything?sslmode=require")
    assert result.returncode == 0, result.stderr
    options = result.stdout.splitlines()[-1]
    assert "('sslmode', 'require')" in options
    assert "('server_side_binding', True)" in options


def test_a_production_server_without_collectstatic_links_plain_names_instead_of_failing(tmp_path):
    """Pages must not all be 500s when the build step was skipped (a benchmark's server, a forgotten step): they link
    static/'s own names, served through the finders, and the log says what is missing."""
    env = production_env(tmp_path, STATIC_ROOT=str(tmp_path / "never-collected"))
    assert manage("migrate", "--noinput", **env).returncode == 0
    ask = ("from django.test import Client; r = Client().get('/', HTTP_HOST='localhost', secure=True); "
           "print(r.status_code, 'href=\"/static/wyrmdex.css\"' in r.content.decode())")
    result = manage("shell", "-c", ask, **env)
    assert result.stdout.split()[-2:] == ["200", "True"], result.stdout + result.stderr
    assert "no manifest" in result.stderr and "collectstatic" in result.stderr
