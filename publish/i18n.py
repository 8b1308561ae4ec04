"""The words of the published pages: the project's catalogue (:mod:`trictrac.words`),
French by default (the game's own words: relevé, coup, dés, marque, trous,
bredouille, école, s'en aller / tenir, marqué, partie à écrire).  Pages take every
label from it; ``Labels`` is the catalogue of one language.
"""

from __future__ import annotations

from ..words import LANGS, Words, words

__all__ = ["Labels", "labels", "LANGS"]

Labels = Words


def labels(lang: str | Words = "fr") -> Words:
    return words(lang)
