"""The club's messages as data (issue 25 §1): an error names its catalogue key
(``club.err.<key>``) and fields; :meth:`ClubError.say` words it in French or English,
and ``str()`` is the English (for a library user and the logs)."""

from __future__ import annotations

from ..words import Words, words

__all__ = ["ClubError"]


class ClubError(ValueError):
    """An error of the club database: ``key`` and ``fields`` for the catalogue; a field
    that is itself a :class:`ClubError` is said in the same language."""

    def __init__(self, key: str, **fields: object) -> None:
        self.key, self.fields = key, fields
        super().__init__(self.say("en"))

    def say(self, lang: str | Words = "en") -> str:
        W = words(lang)
        said = {k: v.say(W) if isinstance(v, ClubError) else v for k, v in self.fields.items()}
        return W(f"club.err.{self.key}", **said)
