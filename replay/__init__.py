"""The rules: positions and legal plays, scoring events, the score ledger, the verifier."""

from ..notation.compiled import select

select()  # before any module of the package: the compiled build or pure Python
