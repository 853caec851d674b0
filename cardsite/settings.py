"""Settings read from the environment; a bad value stops the start with a message naming it."""
import os
import tempfile
from pathlib import Path

import dj_database_url
import redis
from csp.constants import NONCE as CSP_NONCE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be one of true/false/1/0/yes/no/on/off, not {raw!r}")


def env_int(name, default):
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None


def env_redis_url(name):
    raw = (os.environ.get(name) or "").strip()
    if raw and not raw.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"{name} must be a redis://, rediss:// or unix:// URL, not {raw!r}")
    return raw or None


def env_path(name, default):
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if not os.path.isabs(raw):
        raise ImproperlyConfigured(f"{name} must be an absolute path, not {raw!r}")
    return Path(raw)


def env_list(name, default):
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} is set but lists no host")
    return items


DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]", "testserver"}
_DEV_KEY = "wyrmdex-development-key-not-for-production-use-0123456789abcdef"
_MAKE_KEY = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))' makes one"
PRODUCTION = env_bool("WYRMDEX_PRODUCTION", False)  # read always, so a bad value fails even with a key set
SECRET_KEY = os.environ.get("SECRET_KEY") or ""
if SECRET_KEY in ("", _DEV_KEY):
    # The development key is in the source for anyone to read, and whoever knows the key can sign sessions and
    # invite links: so it serves only a debug server on this machine (`python3 dev.py serve`), never a site.
    if PRODUCTION:
        raise ImproperlyConfigured(f"SECRET_KEY must be set when WYRMDEX_PRODUCTION is on ({_MAKE_KEY})")
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off: the development key in the source is "
                                   f"public, and serves only DEBUG=true on this machine ({_MAKE_KEY})")
    if not set(ALLOWED_HOSTS) <= LOCAL_HOSTS:
        raise ImproperlyConfigured("SECRET_KEY must be set when ALLOWED_HOSTS names a host other than this machine "
                                   f"({', '.join(sorted(set(ALLOWED_HOSTS) - LOCAL_HOSTS))}): the development key "
                                   f"in the source is public ({_MAKE_KEY})")
    SECRET_KEY = _DEV_KEY
elif len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-"):
    # Django's deploy check (security.W009) asks the same: 50 characters, 5 different, not a generated dev key.
    raise ImproperlyConfigured(f"SECRET_KEY must be at least 50 characters long, with at least 5 different ones "
                               f"({_MAKE_KEY})")

_db_url = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    # Connections are kept for 60 s, and checked before a request's first query reuses one: after a database
    # restart a worker connects afresh instead of answering its next request with a 500 on a dead connection.
    DATABASES = {"default": dj_database_url.parse(_db_url, conn_max_age=60, conn_health_checks=True)}
except Exception as exc:  # dj_database_url raises several types for a malformed URL
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL this site understands: {exc}") from exc
if DATABASES["default"]["ENGINE"] not in (
    "django.db.backends.sqlite3",
    "django.db.backends.postgresql",
):
    raise ImproperlyConfigured("DATABASE_URL must point at SQLite or PostgreSQL")
PG_PREPARE = env_bool("WYRMDEX_PG_PREPARE", True)  # read always, so a bad value fails on SQLite too
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters travel apart from the statement (server-side binding), so psycopg prepares a statement once it has
    # run PG_PREPARE_AFTER times on a connection: the match reads, the session read and the move's write are then
    # planned once per connection, not on every request (under load: about 15 % more moves per second,
    # docs/benchmarks.md). Behind a pooler that cannot keep prepared statements (PgBouncer in transaction mode
    # before 1.21, or without max_prepared_statements) set WYRMDEX_PG_PREPARE=off: parameters are then merged
    # into the statement on our side, as psycopg2 did.
    PG_PREPARE_AFTER = 5  # psycopg's own default; a statement run fewer times is not worth a server-side plan
    if PG_PREPARE:
        # Added to the options DATABASE_URL carries (`?sslmode=require`...), not in their place.
        DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True,
                                                               prepare_threshold=PG_PREPARE_AFTER)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # SQLite locks the whole file for a write. Transactions take that lock when they begin (IMMEDIATE), so a writer
    # that must wait does so at its start, for up to the timeout, instead of failing half way with "database is
    # locked"; the write-ahead log lets pages read while someone writes. A wait longer than the timeout is answered
    # 503 with Retry-After (game.matches.errors.DatabaseBusy).
    SQLITE_TIMEOUT = env_int("WYRMDEX_SQLITE_TIMEOUT", 5)
    if SQLITE_TIMEOUT < 0:
        raise ImproperlyConfigured(f"WYRMDEX_SQLITE_TIMEOUT must be 0 or more seconds, not {SQLITE_TIMEOUT}")
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE",
        "timeout": SQLITE_TIMEOUT,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    })
    # Tests use a file too: the in-memory test database shares one cache between connections, where a second
    # writer is refused at once ("database table is locked") instead of waiting as it does on a real file.
    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"wyrmdex-test-{os.getpid()}.sqlite3"),
    }

INSTALLED_APPS = [
    "daphne",  # first: `manage.py runserver` then serves ASGI, the pages and their WebSockets (game/matches/push.py)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "huey.contrib.djhuey",
    "channels",
    "cardsite.catalogue",
    "cardsite.accounts",
    "game",
]

MIDDLEWARE = [
    "cardsite.middleware.RequestIdMiddleware",  # first: every log line of the request carries its id
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "cardsite.middleware.InputGuardMiddleware",  # a NUL or a too-deep JSON body is one 400, before any view
    "cardsite.catalogue.api.CatalogueCacheMiddleware",  # cached catalogue API answers skip everything below
    "game.matches.polling.UnchangedMatchMiddleware",  # an unchanged match poll is a 304 before sessions and DRF
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "cardsite.accounts.sessions.AuthenticationMiddleware",  # the user comes with the session, one query
    "cardsite.middleware.RateLimitMiddleware",  # after authentication: a player's writes count against the player
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "cardsite.middleware.ErrorPageMiddleware",
]

ROOT_URLCONF = "cardsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "game.context_processors.turns",
                "game.context_processors.vocabulary",
            ],
        },
    },
]

WSGI_APPLICATION = "cardsite.wsgi.application"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env_path("STATIC_ROOT", BASE_DIR / "staticfiles")  # where `collectstatic` writes, WhiteNoise reads
STATICFILES_DIRS = [BASE_DIR / "static"]
# With DEBUG off `collectstatic` writes each file again under a name holding its content's hash, a .gz beside it and
# the manifest of names; pages link the hashed names, which WhiteNoise serves compressed to whoever asks and lets
# browsers keep for years (a changed file gets a new name). So production runs `collectstatic` before it starts
# (docs/deploy.md); a server started without it links the plain names and logs a warning (cardsite/staticfiles.py).
# A debug server (`dev.py serve`) serves static/ as it is, and so do the tests (tests/conftest.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage" if DEBUG
                    else "cardsite.staticfiles.HashedStaticFiles"},
}
WHITENOISE_USE_FINDERS = True  # static/ as it is, for the tests and a debug server; production links hashed names
WHITENOISE_MANIFEST_STRICT = False

# --- cache and the task queue (docs/deploy.md) --------------------------------------------------------------------
# With REDIS_URL every app server and queue worker shares one Redis: the cache and the queue. Without it everything
# stays in the process: a local-memory cache and a queue in memory
# that the serving process consumes itself (cardsite/queue.py), so `python3 dev.py serve` needs no other service.
REDIS_URL = env_redis_url("REDIS_URL")
QUEUE_WORKERS = env_int("QUEUE_WORKERS", 2)
if QUEUE_WORKERS < 1:
    raise ImproperlyConfigured(f"QUEUE_WORKERS must be at least 1, not {QUEUE_WORKERS}")
# A Redis that does not answer must cost a request little: refused at once when it is down, given up after these
# seconds when it hangs (the cache then answers from memory for a while, cardsite/cache.py; the queue, docs/deploy.md).
REDIS_TIMEOUTS = {"socket_connect_timeout": 0.5, "socket_timeout": 2}
REDIS_RETRY_SECONDS = env_int("REDIS_RETRY_SECONDS", 5)  # read always, so a bad value fails without Redis too
if REDIS_RETRY_SECONDS < 1:
    raise ImproperlyConfigured(f"REDIS_RETRY_SECONDS must be at least 1, not {REDIS_RETRY_SECONDS}")
if REDIS_URL:
    CACHES = {"default": {
        "BACKEND": "cardsite.cache.FallbackRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "wyrmdex",
        "OPTIONS": dict(REDIS_TIMEOUTS),
        # While Redis does not answer, each process caches in its own memory and asks Redis again this often.
        "FALLBACK_SECONDS": REDIS_RETRY_SECONDS,
    }}
    HUEY = {
        "huey_class": "huey.RedisHuey",
        "name": "wyrmdex",
        "connection_pool": redis.ConnectionPool.from_url(REDIS_URL, **REDIS_TIMEOUTS),
        "immediate": False,
        "utc": True,
        "consumer": {"workers": QUEUE_WORKERS, "worker_type": "thread"},
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "wyrmdex"}}
    HUEY = {
        "huey_class": "huey.MemoryHuey",
        "name": "wyrmdex",
        "immediate": False,
        "utc": True,
        # Memory cannot be waited on as Redis is (a blocking read): an idle worker looks at least every tenth of a
        # second, so a bot's move starts that soon after the move before it (huey's default backs off to 10 s).
        "consumer": {"workers": QUEUE_WORKERS, "worker_type": "thread", "max_delay": 0.1},
    }
# Load balancers ask /health/ over plain HTTP inside the private network; answer rather than redirect to HTTPS.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]

# Pushed changes (game/matches/push.py, docs/deploy.md "Push"): with Redis every app server, the push process and
# the queue worker share one channel layer; without it the layer lives in the one process that serves.
ASGI_APPLICATION = "cardsite.asgi.application"
PUSH_LAYERS = {"core": "channels_redis.core.RedisChannelLayer", "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer"}
PUSH_LAYER = os.environ.get("WYRMDEX_PUSH_LAYER", "core")
if PUSH_LAYER not in PUSH_LAYERS:
    raise ImproperlyConfigured(f"WYRMDEX_PUSH_LAYER must be one of {', '.join(PUSH_LAYERS)}, not {PUSH_LAYER!r}")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {"BACKEND": PUSH_LAYERS[PUSH_LAYER],
                                  "CONFIG": {"hosts": [REDIS_URL], "prefix": "wyrmdex-push"}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Where pages open their sockets: empty for this same site (runserver, or a proxy that sends /ws/ to the push
# process), or another origin's base such as wss://push.example.org.
PUSH_URL = os.environ.get("PUSH_URL", "").rstrip("/")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_REDIRECT_URL = "/"
# Sessions live in the database (also with Redis: a Redis restart logs nobody out), in a table that names the
# signed-in user, so a request reads its session and its user in one query (cardsite/accounts/sessions.py).
SESSION_ENGINE = "cardsite.accounts.sessions"
AUTHENTICATION_BACKENDS = ["cardsite.accounts.sessions.SessionUserBackend"]

REST_FRAMEWORK = {
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "cardsite.api_errors.exception_handler",
    # The site's session only (so CSRF and the sign-in rate limit apply); DRF's default adds HTTP Basic logins.
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Wyrmdex API",
    "DESCRIPTION": "Wyrmspan and Dragon Academy cards, matches, rules checker and score calculator.",
    "VERSION": "1.0.0",
    # Swagger UI and Redoc served from our own static files (the sidecar package), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A match is named in URLs by its public id (game/matches/ids.py), not its number.
    "PATH_CONVERTER_OVERRIDES": {"match": {"type": "string", "pattern": "^[23456789abcdefghjkmnpqrstuvwxyz]{12}$"}},
}

# Production hardening; `manage.py check --deploy` runs clean when DEBUG is off.
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    # Off by default so the local server and the tests speak plain HTTP; production turns it on.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


def env_rate(name, default):
    """A rate limit written `COUNT/SECONDS` (10/300: ten requests in five minutes), as (count, seconds)."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    count, _, seconds = raw.partition("/")
    if not (count.strip().isdigit() and seconds.strip().isdigit() and int(count) > 0 and int(seconds) > 0):
        raise ImproperlyConfigured(f"{name} must be COUNT/SECONDS such as 10/300, not {raw!r}")
    return int(count), int(seconds)


# Rate limits per client, counted in the cache (shared by every app server when the cache is Redis). Past one, the
# answer is 429 with Retry-After. Sign-in counts every attempt per address, and failures per username tried: past
# that limit the account is closed only to addresses it was never signed in from (cardsite/middleware.py), so keep
# it above what one address may try in its window. A guest's writes count against its address, not its user row.
RATE_LIMITS = {
    "sign_in": env_rate("RATE_LIMIT_SIGN_IN", (10, 300)),
    "sign_in_username": env_rate("RATE_LIMIT_SIGN_IN_USERNAME", (50, 300)),
    "sign_up": env_rate("RATE_LIMIT_SIGN_UP", (5, 3600)),
    "write": env_rate("RATE_LIMIT_WRITE", (120, 60)),
    # Tries: requests that work something out and store nothing (a move's preview, the analysis board, the checker,
    # scoring without saving), so trying choices quickly never uses up the allowance for moves.
    "try": env_rate("RATE_LIMIT_TRY", (600, 60)),
    # New guests (docs/matches.md, "Guests") per address: each is a user row, so a script must not make them freely.
    "guest": env_rate("RATE_LIMIT_GUEST", (10, 3600)),
}
# How many proxies in front of the app append to X-Forwarded-For; 0 believes only the connection's address.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
# A JSON body nested deeper than this is a 400 (no request of ours needs more than a handful of levels).
JSON_MAX_DEPTH = env_int("JSON_MAX_DEPTH", 32)
# How long a server's requests reuse the catalogue version it last read (cardsite/catalogue/catalogue_version.py),
# in milliseconds: an edit made through another server is seen within this long; 0 reads it on every request.
CATALOGUE_VERSION_REUSE_MS = env_int("CATALOGUE_VERSION_REUSE_MS", 1000)
if CATALOGUE_VERSION_REUSE_MS < 0:
    raise ImproperlyConfigured(f"CATALOGUE_VERSION_REUSE_MS must be 0 or more, not {CATALOGUE_VERSION_REUSE_MS}")

# How often an open match page asks whether anything changed (milliseconds). An unchanged match answers 304 before
# sessions and DRF (game.matches.polling), so a poll costs little; tests of whole games in a browser ask more often.
MATCH_POLL_MS = env_int("MATCH_POLL_MS", 4000)
if MATCH_POLL_MS < 250:
    raise ImproperlyConfigured(f"MATCH_POLL_MS must be at least 250 milliseconds, not {MATCH_POLL_MS}")

# Content-Security-Policy (django-csp): our own files only. Inline scripts and <style> blocks carry the request's
# nonce; inline style attributes (chart colours) are allowed. The API docs pages widen it (cardsite/catalogue/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", CSP_NONCE],
        "style-src": ["'self'", CSP_NONCE],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"] + ([PUSH_URL] if PUSH_URL else []),  # the pages' sockets too
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Logs: one JSON line per event on stderr, each with the request id (cardsite/log.py). Every 500 is logged by
# Django's `django.request` logger with its traceback; 4xx answers are logged as warnings.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise ImproperlyConfigured(f"LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not {LOG_LEVEL!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request": {"()": "cardsite.log.RequestContext"}},
    "formatters": {"json": {"()": "cardsite.log.JsonLines"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "json", "filters": ["request"]},
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own handlers (the console in DEBUG, mail to ADMINS) are replaced: the root's line is the record.
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "django.server": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
    },
}

# Email: players hear that a match waits for them. The console backend prints mails (development); set
# EMAIL_HOST to send through an SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Wyrmdex <wyrmdex@localhost>")
SITE_URL = (os.environ.get("SITE_URL") or "http://127.0.0.1:8000").rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SITE_URL must start with http:// or https://, not {SITE_URL!r}")
