from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cardsite.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        # Sign-in failures and successes feed the sign-in limits (cardsite/middleware.py), for the site's sign-in
        # page and the admin's alike: both go through Django's `authenticate` and `login`, which send these.
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from cardsite import middleware

        user_login_failed.connect(middleware.sign_in_failed, dispatch_uid="wyrmdex-sign-in-failed")
        user_logged_in.connect(middleware.signed_in, dispatch_uid="wyrmdex-signed-in")
