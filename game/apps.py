from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = "Games, checker and calculator"

    def ready(self):
        # Connects the queue's receivers to the matches' signals in every process, not only the worker.
        from . import tasks  # noqa: F401
        from .matches import push  # noqa: F401  (its receiver tells open pages of each change)
