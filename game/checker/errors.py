"""The checker's one error: input it cannot use, with the field to blame (a JSON path such as `situation.hand[2]`).
A member of the site's error family (`cardsite.errors`): a 400 naming the field."""
from cardsite.errors import InvalidField


class CheckerInputError(InvalidField):
    pass
