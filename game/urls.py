"""URLs of the game app: matches, the rules reference, the ability checker and the score calculator."""
from django.urls import path

from . import api_calculator, views_calculator, views_rules

urlpatterns = [
    path("rules/", views_rules.rules, name="rules"),
    path("calculator/", views_calculator.calculator, name="calculator"),
    path("calculator/s/<str:code>/", views_calculator.sheet_page, name="calculator-sheet"),
    path("calculator/history/", views_calculator.history, name="calculator-history"),
    path("accounts/signup/", views_calculator.signup, name="signup"),
    path("api/calculator/score/", api_calculator.ScoreView.as_view(), name="api-calculator-score"),
    path("api/calculator/sheets/", api_calculator.SheetListView.as_view(), name="api-calculator-sheets"),
    path("api/calculator/sheets/<str:code>/", api_calculator.SheetDetailView.as_view(), name="api-calculator-sheet"),
    path("api/calculator/history/", api_calculator.HistoryView.as_view(), name="api-calculator-history"),
]
