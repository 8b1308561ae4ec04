"""Which build runs: the pure-Python modules, or the optional mypyc build of them.

``python -m trictrac.bench.compile_core`` compiles the rules engine, the verifier and
the reader in place: one extension next to each ``.py`` (the import system prefers it)
and a manifest of the sources it was built from.  The pure-Python source stays the
reference and the fallback: every module is loaded from its ``.py`` when
``TRICTRAC_PURE=1`` is set, or when any compiled source changed since the build (the
compiled modules call each other directly, so they are all used or none).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

__all__ = ["MANIFEST", "PACKAGES", "active", "manifest_entry", "select"]

#: the packages that may be compiled, by installed name
PACKAGES = ("trictrac.notation", "trictrac.replay")
#: written by the build next to its shared library, in the ``replay`` folder
MANIFEST = "core__mypyc.manifest.json"
_ROOT = Path(__file__).resolve().parent.parent  # the repository: notation/, replay/


class _SourceFirst:
    """A meta path finder that loads the ``.py`` of a module of :data:`PACKAGES`."""

    @classmethod
    def find_spec(
        cls, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if path is None or not name.startswith(tuple(p + "." for p in PACKAGES)):
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                return spec_from_file_location(name, source)
        return None  # a package (judges/): the usual finders


def manifest_entry(source: Path) -> list[int]:
    """What the build records of a source: its size and modification time (ns)."""
    st = source.stat()
    return [st.st_size, st.st_mtime_ns]


def _stale() -> bool:
    """A source compiled by the build changed since (or the manifest is unreadable)."""
    try:
        sources = json.loads((_ROOT / "replay" / MANIFEST).read_text(encoding="utf-8"))
        return any(manifest_entry(_ROOT / rel) != entry for rel, entry in sources.items())
    except (OSError, ValueError, TypeError):
        return True


def active() -> bool:
    """Is the compiled build in use in this process (not forced or fallen back to pure)?"""
    return _SourceFirst not in sys.meta_path and (_ROOT / "replay" / MANIFEST).exists()


def select() -> None:
    """Called once as ``trictrac.notation`` is imported: pure Python if asked or if the
    build is stale; nothing to do without a build."""
    if _SourceFirst in sys.meta_path or not (_ROOT / "replay" / MANIFEST).exists():
        return
    if os.environ.get("TRICTRAC_PURE") or _stale():
        sys.meta_path.insert(0, _SourceFirst)
