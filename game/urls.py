"""URLs of the game app: matches, the rules reference, the ability checker and the score calculator."""
from django.urls import path

from . import views_rules

urlpatterns = [
    path("rules/", views_rules.rules, name="rules"),
]
