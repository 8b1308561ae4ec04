"""The club's messages as data (issue 25 §1): an error names its catalogue key
(``club.err.<key>``) and fields, on :class:`trictrac.words.SaidError` (the one way
every surface says an error): :meth:`ClubError.say` words it in French or English,
and ``str()`` is the English (for a library user and the logs)."""

from __future__ import annotations

from ..words import SaidError

__all__ = ["ClubError"]

_PREFIX = "club.err."


class ClubError(SaidError):
    """An error of the club database: ``ClubError("no_game", game=…)`` is the catalogue's
    ``club.err.no_game`` and its fields; a field that is itself an error with words
    (another :class:`ClubError`) is said in the same language."""

    def __init__(self, key: str, /, *, where: tuple[str, int] | None = None, **fields: object) -> None:
        super().__init__(key if key.startswith(_PREFIX) else _PREFIX + key, where=where, **fields)
