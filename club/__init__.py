"""The club database: its schema and migrations, the import, the queries (docs/database.md)."""

from ..notation.compiled import select

select()  # before any module of the package: its import may run compiled (compile_core.CLUB_IMPORT)
