"""URLs of the game app: matches, the rules reference, the ability checker and the score calculator."""
from django.urls import path

from . import api_calculator, api_checker, api_matches, views_calculator, views_checker, views_matches, views_rules

urlpatterns = [
    path("rules/", views_rules.rules, name="rules"),
    path("checker/", views_checker.checker, name="checker"),
    path("api/checker/", api_checker.CheckerView.as_view(), name="api-checker"),
    path("calculator/", views_calculator.calculator, name="calculator"),
    path("calculator/s/<str:code>/", views_calculator.sheet_page, name="calculator-sheet"),
    path("calculator/history/", views_calculator.history, name="calculator-history"),
    path("accounts/signup/", views_calculator.signup, name="signup"),
    path("api/calculator/score/", api_calculator.ScoreView.as_view(), name="api-calculator-score"),
    path("api/calculator/sheets/", api_calculator.SheetListView.as_view(), name="api-calculator-sheets"),
    path("api/calculator/sheets/<str:code>/", api_calculator.SheetDetailView.as_view(), name="api-calculator-sheet"),
    path("api/calculator/history/", api_calculator.HistoryView.as_view(), name="api-calculator-history"),
    path("matches/", views_matches.lobby, name="matches"),
    path("matches/<int:pk>/", views_matches.board, name="match"),
    path("matches/<int:pk>/join/", views_matches.join, name="match-join"),
    path("matches/<int:pk>/start/", views_matches.start, name="match-start"),
    path("api/matches/", api_matches.MatchListView.as_view(), name="api-matches"),
    path("api/matches/<int:pk>/", api_matches.MatchDetailView.as_view(), name="api-match"),
    path("api/matches/<int:pk>/join/", api_matches.MatchJoinView.as_view(), name="api-match-join"),
    path("api/matches/<int:pk>/start/", api_matches.MatchStartView.as_view(), name="api-match-start"),
    path("api/matches/<int:pk>/options/", api_matches.MatchOptionsView.as_view(), name="api-match-options"),
    path("api/matches/<int:pk>/decisions/", api_matches.MatchDecisionView.as_view(), name="api-match-decisions"),
]
