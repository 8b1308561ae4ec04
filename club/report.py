"""What an import says: each game's step, each failure, the whole report (``club.importer``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# --- report ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportFailure:
    """One game (or file) that could not be stored, with why."""

    source_file: str
    game_index: int | None
    line: int | None
    reason: str  # unreadable-file | parse-error | verify-error | store-error
    message: str
    game_id: str | None = None
    diagnostics: tuple[dict[str, Any], ...] = ()

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

    def render(self) -> str:
        where = f"{self.source_file}:{self.line}" if self.line else self.source_file
        game = f" (game {self.game_index + 1})" if self.game_index is not None else ""
        return f"{where}{game}: {self.reason}: {self.message}"


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
