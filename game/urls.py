"""URLs of the game app: matches, the rules reference, the ability checker and the score calculator."""
urlpatterns = []
