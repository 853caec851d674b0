"""The analysis board's one error: input it cannot use, with the JSON path to blame (`position.edits[2].cave`)."""
from cardsite.errors import InvalidField


class AnalysisInputError(InvalidField):
    pass
