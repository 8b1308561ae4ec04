"""The Date tag read once (issue 27 row 13): ASCII digits only, a real calendar date,
else a diagnostic and no date.

``2024.03.15``, ``2024-3-5``, ``15/03/2024``, ``2024.??.??`` and ``1852`` are read
(``YYYY[-MM[-DD]]``); a date in other digits (``٢٠٢٤.٠١.٠١``), a day the calendar does
not have (``2024.02.30``), a month past 12 or a year that is not four digits
(``99999999999999999999``) is none, and says why: the reader reports it
(``bad-date``, a warning) and the club database stores no date and no season, never
half of one.  Text without digits ("soirée d'hiver") is no date and no problem.
"""

from __future__ import annotations

import datetime as _dt
import re
from functools import lru_cache

__all__ = ["parse_date"]

# [0-9], not \d: \d takes every script's digits, which int() converts and str keeps
_YMD = re.compile(r"(?<![0-9])([0-9]{4})(?:[.\-/]([0-9]{1,2}|\?\?)(?:[.\-/]([0-9]{1,2}|\?\?))?)?(?![0-9])")
_DMY = re.compile(r"(?<![0-9])([0-9]{1,2})[.\-/]([0-9]{1,2})[.\-/]([0-9]{4})(?![0-9])")


def _real(year: int, month: int, day: int) -> bool:
    try:
        _dt.date(year, month, day)
    except ValueError:
        return False
    return True


def parse_date(text: str | None) -> tuple[str | None, str | None]:
    """``(YYYY[-MM[-DD]], None)`` from a Date tag, or ``(None, why)`` when it has digits
    but no real date, or ``(None, None)`` when it holds no digit (or is missing)."""
    # an archive's evenings are a few dates, read for every game: kept (issue 30), but only
    # tags of a date's length, so that a hostile file's long tags cannot fill the memory
    return _known_date(text) if text is not None and len(text) <= 40 else _parse_date(text)


def _parse_date(text: str | None) -> tuple[str | None, str | None]:
    if not text:
        return None, None
    if any(ch.isdigit() and not ("0" <= ch <= "9") for ch in text):
        return None, "the date is written in other digits than 0-9 (write 2024.01.31)"
    m = _DMY.search(text)
    if m:
        y, mo, d = int(m.group(3)), int(m.group(2)), int(m.group(1))
        if not _real(y, mo, d):
            return None, f"{m.group(0)} is not a calendar date"
        return f"{y:04d}-{mo:02d}-{d:02d}", None
    m = _YMD.search(text)
    if not m:
        if any("0" <= ch <= "9" for ch in text):
            return None, "no year of four digits (write 2024.01.31, or 2024.??.?? when only the year is known)"
        return None, None
    y = int(m.group(1))
    month, day = m.group(2), m.group(3)
    if y == 0:
        return None, "year 0 is not a calendar year"
    if not month or month == "??":
        return f"{y:04d}", None
    if not 1 <= int(month) <= 12:
        return None, f"{m.group(0)}: month {int(month)} is not a calendar month"
    if not day or day == "??":
        return f"{y:04d}-{int(month):02d}", None
    if not _real(y, int(month), int(day)):
        return None, f"{m.group(0)} is not a calendar date"
    return f"{y:04d}-{int(month):02d}-{int(day):02d}", None


_known_date = lru_cache(maxsize=1024)(_parse_date)
