from django.apps import AppConfig


class CardsiteConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cardsite.catalogue"
    label = "cardsite"  # the label before the app moved: tables, migrations and content types keep it
    verbose_name = "Card catalogue"

    def ready(self):
        from cardsite import queue

        from . import catalogue_version

        catalogue_version.connect()
        queue.connect()
