"""The checker's one error: input it cannot use, with the field to blame (a JSON path such as `situation.hand[2]`)."""


class CheckerInputError(ValueError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
