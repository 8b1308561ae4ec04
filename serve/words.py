"""The pages' words, from the one catalogue (``trictrac.words``; the keys ``srv.*`` in
``words/locale/<lang>/LC_MESSAGES/trictrac.po``): ``say(key, lang, **fields)``, or a
:class:`Speaker` bound to the page's language for the templates.

The pages speak French unless the visitor chose English: ``?lang=en`` on any page (or
``?lang=fr`` back) sets the cookie ``tt-lang``, which every page then reads
(docs/serve.md, *Words*).  Findings are said by the catalogue too (``replay.verifier.findings.say``),
in the same language."""

from __future__ import annotations

from typing import Any

from ..words import LANGS, Said, words

__all__ = ["DEFAULT_LANG", "LANG_COOKIE", "LANGS", "Speaker", "js_words", "lang_choice", "say", "said_in", "error_said"]

#: the pages' language when the visitor chose none (the club's table speaks French)
DEFAULT_LANG = "fr"
LANG_COOKIE = "tt-lang"


def say(key: str, lang: str = DEFAULT_LANG, **fields: object) -> str:
    """The label ``srv.<key>`` in ``lang``, its ``{fields}`` filled (the template escapes
    the result)."""
    return words(lang)(f"srv.{key}", **fields)


def error_said(err: BaseException, where: str = "") -> object:
    """An error for the club screen, kept as data and said in each viewer's language
    (:func:`said_in`): ``Kind: message`` (``w6.fail.error``) when it has words of its own,
    Python's words otherwise; ``where`` (a game's id) before it."""
    if isinstance(err, Said):
        what: object = Said("w6.fail.error", kind=type(err).__name__, error=err)
    else:
        what = f"{type(err).__name__}: {err}"
    return Said("w6.srv.where", at=where, what=what) if where else what


def said_in(x: object, lang: str) -> str:
    """A message kept as data in ``lang``: an import's failure (its ``render``), words as
    data (``say``), else its text."""
    render = getattr(x, "render", None)
    if callable(render) and not isinstance(x, str):
        return str(render(lang))
    say_ = getattr(x, "say", None)
    return str(say_(lang)) if callable(say_) else str(x)


class Speaker:
    """``say`` bound to one language: ``S("saved", n=5)``; ``S.n("coups_n", 3)`` picks
    the plural form."""

    __slots__ = ("lang",)

    def __init__(self, lang: str = DEFAULT_LANG) -> None:
        self.lang = lang if lang in LANGS else DEFAULT_LANG

    def __call__(self, key: str, **fields: object) -> str:
        return say(key, self.lang, **fields)

    def n(self, key: str, n: int, **fields: object) -> str:
        return words(self.lang).n(f"srv.{key}", n, **fields)

    def profile(self, code: str) -> str:
        """A rules profile's name (``names.profile.<code>``); a code the catalogue does
        not know (a record's own header) as written."""
        return words(self.lang).get(f"names.profile.{code}", code)


def lang_choice(query: str | None, cookie: str | None) -> tuple[str, bool]:
    """The page's language from ``?lang=`` then the cookie; True when the query chose it
    (the answer then sets the cookie)."""
    if query in LANGS:
        return str(query), True
    return (str(cookie) if cookie in LANGS else DEFAULT_LANG), False


#: the words the page's script writes itself (``static/tt.js``)
_JS_KEYS = (
    "throw_of",
    "throw_roll",
    "saved",
    "already",
    "saved_as",
    "already_as",
    "conflict",
    "ecole_by",
    "undo_confirm",
    "nothing_due",
    "over",
    "marks",
    "leave",
    "coup_title",
    "claim_button",
)


def js_words(lang: str) -> dict[str, Any]:
    S = Speaker(lang)
    out: dict[str, Any] = {k: words(S.lang)(f"srv.{k}") for k in _JS_KEYS}
    # the queue's count in both forms the page needs (never 0 when shown)
    W = words(S.lang)
    out["queued_one"] = W._t.ngettext("srv.queued", "srv.queued_pl", 1)
    out["queued_many"] = W._t.ngettext("srv.queued", "srv.queued_pl", 2)
    return out
