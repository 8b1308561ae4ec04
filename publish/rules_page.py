"""The site's rules page (issue 25 item 6): the rules reference of
:mod:`trictrac.replay.verifier.rulebook`, one ``id`` per rule, each quoting its treatise, in
the site's language — ``regles.html`` in French, ``rules.html`` in English.

A finding links its rule with :func:`rule_href` (``regles.html#ecole-par-trop``);
``publish_files`` writes the page into every site (:func:`write_rules_page`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..notation.textio import atomic_write_text
from ..replay.verifier.rulebook import RULES, kinds_of, treatise_list, words
from .markup import esc

__all__ = ["RULES_PAGES", "rules_page_name", "rule_href", "render_rules_page", "write_rules_page"]

#: the page's file name, by language
RULES_PAGES: dict[str, str] = {"fr": "regles.html", "en": "rules.html"}


def _lang(lang: Any) -> str:
    """``lang`` a language code or the pages' ``Labels``."""
    code = getattr(lang, "lang", lang)
    return "fr" if code == "fr" else "en"


def rules_page_name(lang: Any = "fr") -> str:
    """``regles.html`` (French) or ``rules.html`` (English)."""
    return RULES_PAGES[_lang(lang)]


def rule_href(anchor: str, lang: Any = "fr", prefix: str = "") -> str:
    """The link to a rule from a page of the site (``prefix`` = ``"../"`` from a
    sub-folder): ``regles.html#ecole-par-trop``."""
    return f"{prefix}{rules_page_name(lang)}#{anchor}"


def render_rules_page(lang: Any = "fr", index_href: str = "index.html") -> str:
    """The whole HTML document of the rules reference in ``lang``."""
    from .html import page
    from .i18n import labels

    code = _lang(lang)
    L = labels(code)
    w = words(code)
    intro = w["intro"].format(treatises=treatise_list(code)).replace("`trictrac check`", "trictrac check")
    toc = "".join(f'<li><a href="#{r.anchor}">{esc(r.title(code))}</a></li>' for r in RULES)
    body = [
        f'<nav><a href="{esc(index_href)}">{esc(L("back_index"))}</a></nav>',
        f"<h1>{esc(w['title'])}</h1>",
        f"<p>{esc(intro)}</p>",
        f'<nav class="rules-toc"><ol>{toc}</ol></nav>',
    ]
    sep = " : " if code == "fr" else ": "
    for r in RULES:
        parts = [
            f'<section class="rule" id="{r.anchor}">',
            f'<h2><a href="#{r.anchor}">{esc(r.title(code))}</a></h2>',
            f"<p>{esc(r.statement(code))}</p>",
            f'<p class="cite">{esc(w["cites"] + sep)}{esc(r.cite(code))}</p>',
        ]
        kinds = kinds_of(r.anchor)
        if kinds:
            parts.append(
                f'<p class="kinds">{esc(w["kinds"] + sep)}'
                + ", ".join(f"<code>{esc(k)}</code>" for k in kinds)
                + "</p>"
            )
        for p in r.passages:
            parts.append(
                f'<blockquote lang="fr"><p>« {esc(p.text)} »</p>'
                f"<footer>— <cite>{esc(p.citation.text(code))}</cite></footer></blockquote>"
            )
        parts.append("</section>")
        body.append("".join(parts))
    return page(esc(w["title"]), body, L)


def write_rules_page(out_dir: str | Path, lang: Any = "fr") -> Path:
    """Write the rules page into ``out_dir`` (whole or not at all); its path."""
    target = Path(out_dir) / rules_page_name(lang)
    atomic_write_text(target, render_rules_page(lang))
    return target
