"""The toolkit's words: one gettext catalogue per language, French and English.

Every sentence a user reads — a finding's message and consequence, a page's labels,
the recorder's hints, the command line's counts — is looked up here by a symbolic
key (``coup_label``, ``finding.ecole-par-trop.message``…) in
``words/locale/<lang>/LC_MESSAGES/trictrac.po``.  The ``.po`` files are the source;
the ``.mo`` files beside them are compiled from them by Babel
(``python -m trictrac.words.build``; a test fails when one is stale or when a key is
missing from either language).  Plurals follow the language's CLDR rule, which Babel
writes into each catalogue's ``Plural-Forms`` header: French puts 0 and 1 in the
singular ("0 trou", "1 point"), English only 1.

A value with ``{name}`` fields is a ``str.format`` template; the caller escapes the
result (the catalogue holds no markup).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["LANGS", "DOMAIN", "LOCALE_DIR", "Words", "words", "lang_from_env", "Said", "SaidError"]

#: the languages the catalogue speaks, the pages' default first
LANGS: tuple[str, ...] = ("fr", "en")
DOMAIN = "trictrac"
LOCALE_DIR = Path(__file__).parent / "locale"


#: what the catalogue answers for a key it does not hold (a fallback: a translation may
#: equal its key, English ``off`` -> ``off``)
_MISSING = "\x00missing\x00"


class _Missing(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return _MISSING

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _MISSING


class Words:
    """``W("coup", n=24)`` -> "coup 24"; ``W.n("n_findings", 3)`` picks the plural form.

    A key missing from the catalogue raises ``KeyError``: a surface never falls back
    to another language's words or to the key itself."""

    __slots__ = ("lang", "_t", "_counted")

    def __init__(self, lang: str) -> None:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r} (one of {', '.join(LANGS)})")
        self.lang = lang
        # through gettext's cache: the CLI binds Click's messages to this catalogue too
        # (cli.main.click_speaks), and one parse of the file serves both
        self._t = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang])
        self._t.add_fallback(_Missing())
        #: (key, n) -> the counted words, said once: a file of games says the same few counts
        self._counted: dict[tuple[str, int], str] = {}

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"

    def has(self, key: str) -> bool:
        return self._t.gettext(key) is not _MISSING

    def __call__(self, key: str, **kw: object) -> str:
        s = self._t.gettext(key)
        if s is _MISSING:
            raise KeyError(f"{key!r} is not in the {self.lang} catalogue")
        return s.format(**kw) if kw else s

    def get(self, key: str, default: str) -> str:
        s = self._t.gettext(key)
        return default if s is _MISSING else s

    def n(self, key: str, n: int, **kw: object) -> str:
        """The form of ``key`` for the count ``n`` (``n`` is also a template field)."""
        memo = None if kw or type(n) is not int else self._counted
        if memo is not None:
            said = memo.get((key, n))
            if said is not None:
                return said
        s = self._t.ngettext(key, key + "_pl", n)
        if s is _MISSING:
            raise KeyError(f"{key!r} has no plural forms in the {self.lang} catalogue")
        said = s.format(n=n, **kw)
        if memo is not None:
            if len(memo) >= _COUNTED_MAX:
                memo.clear()
            memo[(key, n)] = said
        return said

    def plural(self, n: int) -> bool:
        """Whether ``n`` takes the plural form (the catalogue's CLDR rule)."""
        return bool(self._t.plural(n))  # type: ignore[attr-defined]

    def number(self, text: str) -> str:
        """A number written as the language writes it: ``text`` (Python's ``f"{x:.1f}"``)
        with the French decimal comma, the English point."""
        return text.replace(".", ",") if self.lang == "fr" else text

    def pct(self, x: float) -> str:
        """A chance (0..1) as a percentage: ``51,7 %`` / ``51.7 %``."""
        return self.number(f"{100 * x:.1f} %")

    def score(self, key: str, holes: int, points: int, **kw: object) -> str:
        """A template of holes and points, each word agreeing with its number."""
        hw = self.n("w_hole", holes)
        pw = self.n("w_point", points)
        return self(key, holes=holes, points=points, hw=hw, pw=pw, **kw)


_COUNTED_MAX = 4096  # entries of a catalogue's memo of counted words


@cache
def _words(lang: str) -> Words:
    return Words(lang)


def words(lang: str | Words = "fr") -> Words:
    """The catalogue of ``lang`` (one object per language, loaded once)."""
    return lang if isinstance(lang, Words) else _words(lang)


def lang_from_env(environ: Mapping[str, str] | None = None, default: str = "en") -> str:
    """The user's language from the locale variables, as gettext reads them
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``fr`` for ``fr_FR.UTF-8``;
    ``default`` when none names a language of the catalogue (``C``, ``POSIX``, unset)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].split("@")[0].lower()
            if code in LANGS:
                return code
        if var != "LANGUAGE":
            return default  # the first locale variable set decides, as setlocale does
    return default


class Said:
    """Words as data: a catalogue ``key`` and its fields, and ``where`` (a key and a
    number: ``line 3: ``) before it, said by :meth:`say` in the reader's language.  A
    field named ``x_key`` is a key whose words fill ``{x}``; a field with a
    ``say(lang)`` method (a reader's diagnostic, another :class:`Said`) is said in the
    language.  (A field cannot be named ``key``.)  The base of :class:`SaidError` and
    of the errors that cannot be a ``ValueError`` (``notation.textio.OutputError``, an
    ``OSError``); a value of its own where the words are not an error (an import's
    failure, the reason inside a refusal)."""

    key: str
    where: tuple[str, int] | None
    fields: dict[str, object]

    def __init__(self, key: str, /, *, where: tuple[str, int] | None = None, **fields: object) -> None:
        self.key, self.where, self.fields = key, where, fields

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r}, {self.fields!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and (self.key, self.where, self.fields) == (other.key, other.where, other.fields)

    def __hash__(self) -> int:
        return hash((self.key, self.where))

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled with its key and fields (a worker process's error reaches the parent whole)
        return (_said_error, (type(self), self.key, self.where, self.fields))

    def say(self, lang: str | Words = "en") -> str:
        W = words(lang)
        head = W(self.where[0], n=self.where[1]) if self.where else ""
        kw: dict[str, object] = {}
        for k, v in self.fields.items():
            if k.endswith("_key"):
                kw[k[:-4]] = W(str(v))
            else:
                say = getattr(v, "say", None)
                kw[k] = say(W.lang) if callable(say) else v
        return head + W(self.key, **kw)


class SaidError(Said, ValueError):
    """An error whose words are the catalogue's (:class:`Said`): ``str(e)`` is its
    English (what the API always said); ``e.say(lang)`` says it in ``lang``."""

    def __init__(self, key: str, /, *, where: tuple[str, int] | None = None, **fields: object) -> None:
        Said.__init__(self, key, where=where, **fields)
        ValueError.__init__(self, self.say("en"))

    __eq__ = ValueError.__eq__  # an error is itself, as every exception
    __hash__ = ValueError.__hash__


def _said_error(cls: type[Said], key: str, where: tuple[str, int] | None, fields: dict[str, object]) -> Said:
    return cls(key, where=where, **fields)
