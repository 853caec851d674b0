from django.apps import AppConfig


class CardsiteConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cardsite"
    verbose_name = "Card catalogue"

    def ready(self):
        from . import catalogue_version, queue

        catalogue_version.connect()
        queue.connect()
