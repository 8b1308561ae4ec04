"""What an import says: each game's step, each failure, the whole report (``club.importer``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..words import Said, Words, words

# --- report ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportFailure:
    """One game (or file) that could not be stored, with why.

    ``message`` is the English (JSON, logs); ``said`` is its words as data
    (:class:`trictrac.words.Said`: ``club.fail.<key>`` and its fields, or an error that
    has words of its own, ``w6.fail.error``), said by :meth:`say` in another language; a
    failure without it is an exception's own text (Python's words) or the reader's
    diagnostics."""

    source_file: str
    game_index: int | None
    line: int | None
    reason: str  # unreadable-file | parse-error | verify-error | store-error
    message: str
    game_id: str | None = None
    diagnostics: tuple[dict[str, Any], ...] = ()
    said: Said | None = None

    @classmethod
    def of(
        cls,
        source_file: str,
        game_index: int | None,
        line: int | None,
        reason: str,
        key: str,
        *,
        game_id: str | None = None,
        diagnostics: tuple[dict[str, Any], ...] = (),
        **fields: Any,
    ) -> ImportFailure:
        """A failure in the catalogue's words (``club.fail.<key>`` with ``fields``)."""
        said = Said(f"club.fail.{key}", **fields)
        return cls(source_file, game_index, line, reason, said.say("en"), game_id, diagnostics, said)

    @classmethod
    def of_error(
        cls,
        source_file: str,
        game_index: int | None,
        line: int | None,
        reason: str,
        e: BaseException,
        game_id: str | None,
    ) -> ImportFailure:
        """A failure that is an exception: ``Kind: its message``, said in the reader's
        language when the exception has words of its own (a :class:`~trictrac.words.Said`:
        a partie's, a club's, a record's error), Python's words otherwise."""
        if isinstance(e, Said):
            said = Said("w6.fail.error", kind=type(e).__name__, error=e)
            return cls(source_file, game_index, line, reason, said.say("en"), game_id, (), said)
        return cls(source_file, game_index, line, reason, f"{type(e).__name__}: {e}", game_id)

    def say(self, lang: str | Words = "en") -> str:
        """The message in ``lang``: the catalogue's words, the reader's diagnostics said in
        ``lang``, else the message as it was raised."""
        W = words(lang)
        if self.said is not None:
            return self.said.say(W)
        errors = [d for d in self.diagnostics if d.get("severity") == "error" and d.get("code")]
        if W.lang == "en" or self.reason != "parse-error" or not errors:
            return self.message
        from ..notation.record import Diagnostic, Span

        return "; ".join(
            f"{d.get('line')}:{d.get('col')}: {d['code']}: "
            + Diagnostic(
                d["code"],
                "error",
                Span(d.get("line") or 0, d.get("col") or 0),
                d.get("message") or "",
                d.get("text") or "",
            ).say(W.lang)
            for d in errors[:3]
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.source_file,
            "game_index": self.game_index,
            "line": self.line,
            "reason": self.reason,
            "message": self.message,
            "game_id": self.game_id,
            "diagnostics": list(self.diagnostics),
        }

    def render(self, lang: str | Words = "en") -> str:
        """``file:line (game n): reason: message``, in ``lang``."""
        W = words(lang)
        where = f"{self.source_file}:{self.line}" if self.line else self.source_file
        game = W("club.fail.game", n=self.game_index + 1) if self.game_index is not None else ""
        reason = W(f"club.fail.reason.{self.reason}")
        return W("club.fail.line", where=where, game=game, reason=reason, message=self.say(W))


@dataclass(frozen=True, slots=True)
class ImportStep:
    """What ``progress`` receives after each game: ``status`` is added, replaced, unchanged or failed.

    ``offset`` is where the game starts in its file (0 for a failed file)."""

    path: str
    game_index: int
    offset: int
    status: str
    game_id: str | None


@dataclass(slots=True)
class ImportReport:
    """``imported`` = ``added`` + ``replaced`` (a corrected version of a stored game);
    ``per_file``: for each file, its counts of added / replaced / unchanged / refused."""

    files: list[str] = field(default_factory=list)
    read: int = 0
    imported: int = 0
    added: int = 0
    replaced: int = 0
    unchanged: int = 0
    per_file: dict[str, dict[str, int]] = field(default_factory=dict)
    findings: int = 0
    failures: list[ImportFailure] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)  # every game read and stored, in order
    seconds: float = 0.0

    @property
    def failed(self) -> int:
        return sum(1 for f in self.failures if f.reason != "unreadable-file")

    @property
    def unreadable(self) -> list[str]:
        return [f.source_file for f in self.failures if f.reason == "unreadable-file"]

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "read": self.read,
            "imported": self.imported,
            "added": self.added,
            "replaced": self.replaced,
            "unchanged": self.unchanged,
            "per_file": self.per_file,
            "failed": self.failed,
            "unreadable": self.unreadable,
            "findings": self.findings,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.read / self.seconds, 1) if self.seconds else None,
            "game_ids": self.game_ids,
            "failures": [f.as_dict() for f in self.failures],
        }
