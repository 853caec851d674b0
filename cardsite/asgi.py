"""The site as an ASGI application: its pages over HTTP (as cardsite/wsgi.py serves them) and the pages' sockets
(game/matches/push.py) over WebSockets. `manage.py runserver` serves it (daphne is installed first in settings);
deployed, the push process runs `daphne cardsite.asgi:application` (Procfile, docs/deploy.md)."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
pages = get_asgi_application()  # first: it sets Django up before the consumers' models are imported

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from game.matches.push import routes  # noqa: E402

application = ProtocolTypeRouter({
    "http": pages,
    # Only pages of this site may open a socket (the Origin header against ALLOWED_HOSTS), as the session's
    # cookie would otherwise let another site listen in on what a signed-in player may see.
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(routes))),
})
