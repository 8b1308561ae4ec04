"""Compile and check the catalogues: ``python -m trictrac.words.build [--check]``.

Compiles each ``trictrac.po`` into the ``trictrac.mo`` beside it with Babel, and
checks that both languages have the same keys, that each key names the same
``{fields}`` in both, and that every entry is translated.  ``--check`` writes
nothing and exits 1 when a ``.mo`` is stale or a check fails (the test suite runs
it).  Babel is needed here only; the toolkit reads the ``.mo`` files with the
standard ``gettext``.
"""

from __future__ import annotations

import io
import sys
from string import Formatter
from typing import Any

from . import DOMAIN, LANGS, LOCALE_DIR

__all__ = ["load", "compiled", "problems", "main"]


def load(lang: str) -> Any:
    """The Babel ``Catalog`` of ``lang``'s ``.po`` file."""
    from babel.messages.pofile import read_po

    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as fp:
        return read_po(fp, locale=lang, domain=DOMAIN)


def compiled(catalog: Any) -> bytes:
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def _fields(text: str) -> set[str]:
    try:
        return {f.split(".")[0].split("[")[0] for _l, f, _s, _c in Formatter().parse(text) if f}
    except ValueError:
        return {"<malformed>"}


def _texts(message: Any) -> list[str]:
    s = message.string
    return list(s) if isinstance(s, (list, tuple)) else [s]


def problems(catalogs: dict[str, Any]) -> list[str]:
    """Every key missing from a language, untranslated, fuzzy or with other fields."""
    out: list[str] = []
    keys = {
        lang: {m.id if isinstance(m.id, str) else m.id[0]: m for m in cat if m.id} for lang, cat in catalogs.items()
    }
    every = set().union(*(set(k) for k in keys.values()))
    for key in sorted(every):
        fields: dict[str, set[str]] = {}
        for lang in catalogs:
            m = keys[lang].get(key)
            if m is None:
                out.append(f"{lang}: {key!r} is missing")
                continue
            if m.fuzzy:
                out.append(f"{lang}: {key!r} is fuzzy")
            texts = _texts(m)
            if not all(texts):
                out.append(f"{lang}: {key!r} is not translated")
            fields[lang] = set().union(*(_fields(t) for t in texts))
        if len({frozenset(v) for v in fields.values()}) > 1:
            said = "; ".join(f"{lang} {sorted(v)}" for lang, v in fields.items())
            out.append(f"{key!r} names other fields in each language: {said}")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    catalogs = {lang: load(lang) for lang in LANGS}
    found = problems(catalogs)
    for lang, cat in catalogs.items():
        mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        data = compiled(cat)
        if mo.exists() and mo.read_bytes() == data:
            continue
        if check:
            found.append(f"{lang}: {mo.name} is stale: run python -m trictrac.words.build")
        else:
            mo.write_bytes(data)
            print(f"wrote {mo}")
    for p in found:
        print(p, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
