"""Text and records: the ``.trn`` notation, its parser and its canonical writer.

Knows text and records, not the rules: legality and scoring belong to ``replay``.
"""

from .compiled import select

select()  # the optional compiled build, or pure Python (TRICTRAC_PURE=1, stale build)
