"""The rules and what is done with them: the engine (:mod:`.rules`), the verifier and its findings
(:mod:`.verifier`), the recorder's session (:mod:`.recorder`), the generators (:mod:`.generate`)."""

from ..notation.compiled import select

select()  # before any module of the package: the compiled build or pure Python
