"""URLs of the card catalogue: API, search pages and card pages."""
urlpatterns = []
