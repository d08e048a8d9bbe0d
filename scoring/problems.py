"""Problems are values: a legality or input error with a stable code, the field it concerns, and words."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    field: str
    code: str
    message: str

    def as_json(self) -> dict:
        return {"field": self.field, "code": self.code, "message": self.message}


class InvalidInput(ValueError):
    """Raised at a public boundary when problems make the input unusable; carries every problem."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = list(problems)

    def as_json(self) -> dict:
        return {"errors": [p.as_json() for p in self.problems]}
