"""The club's messages as data (issue 25 §1): an error names its catalogue key
(``club.err.<key>``) and fields, on :class:`trictrac.words.SaidError` (the one way
every surface says an error): :meth:`ClubError.say` words it in French or English,
and ``str()`` is the English (for a library user and the logs)."""

from __future__ import annotations

from ..words import SaidError, Words, words

__all__ = ["ClubError", "SqliteReason"]

_PREFIX = "club.err."


class ClubError(SaidError):
    """An error of the club database: ``ClubError("no_game", game=…)`` is the catalogue's
    ``club.err.no_game`` and its fields; a field that is itself an error with words
    (another :class:`ClubError`) is said in the same language."""

    def __init__(self, key: str, /, *, where: tuple[str, int] | None = None, **fields: object) -> None:
        super().__init__(key if key.startswith(_PREFIX) else _PREFIX + key, where=where, **fields)


#: SQLite's own messages (English, from the library) the catalogue has words for
_SQLITE = {
    "unable to open database file": "cannot_open",
    "database is locked": "locked",
    "attempt to write a readonly database": "readonly",
    "disk I/O error": "io",
    "file is not a database": "not_a_database",
    "database disk image is malformed": "malformed",
    "database or disk is full": "full",
}


class SqliteReason:
    """An SQLite error's reason as data: its English as the library says it, said in
    another language by the catalogue (``w6.sqlite.<code>``) when it is one of the
    library's known messages (``sqlite3`` gives no code to look it up by), else as
    it is."""

    __slots__ = ("english",)

    def __init__(self, e: BaseException) -> None:
        self.english = str(e)

    def __str__(self) -> str:
        return self.english

    def say(self, lang: str | Words = "en") -> str:
        code = _SQLITE.get(self.english)
        return words(lang)(f"w6.sqlite.{code}") if code else self.english
