"""Which build runs: the pure-Python modules, or the optional mypyc build of them.

``python -m trictrac.bench.compile_core`` compiles the rules engine, the verifier, the
reader and writer, and the club database's import in place: one extension next to each
``.py`` (the import system prefers it) and a manifest of the sources it was built from.
The pure-Python source stays the reference and the fallback: every module is loaded from
its ``.py`` when ``TRICTRAC_PURE=1`` is set, or when any compiled source changed since the
build (the compiled modules call each other directly, so they are all used or none).
"""

from __future__ import annotations

import copyreg
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from importlib.machinery import ExtensionFileLoader, ModuleSpec, PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

__all__ = ["MANIFEST", "PACKAGES", "active", "compiled_module", "manifest_entry", "mypyc_attr", "select"]

_C = TypeVar("_C")
try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pure Python without mypy installed: the build's marks do nothing

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_C], _C]:  # type: ignore[misc]
        return lambda cls: cls


#: the packages that may be compiled, by installed name
PACKAGES = ("trictrac.notation", "trictrac.replay", "trictrac.club")  # club: its import (compile_core.CLUB_IMPORT)
#: written by the build next to its shared library, in the ``replay`` folder
MANIFEST = "core__mypyc.manifest.json"
_ROOT = Path(__file__).resolve().parent.parent  # the repository: notation/, replay/
_PREFIXES = tuple(p + "." for p in PACKAGES)


class _PackageFinder:
    """A meta path finder for the modules of :data:`PACKAGES` (others: the usual finders)."""

    @classmethod
    def find_spec(
        cls, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if path is None or not name.startswith(_PREFIXES):
            return None
        return cls.spec(name, path)

    @classmethod
    def spec(cls, name: str, path: Sequence[str]) -> ModuleSpec | None:
        raise NotImplementedError


class _SourceFirst(_PackageFinder):
    """Loads the ``.py`` of a module of :data:`PACKAGES`."""

    @classmethod
    def spec(cls, name: str, path: Sequence[str]) -> ModuleSpec | None:
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


def compiled_module(file: str) -> bool:
    """Does the module of this ``__file__`` run compiled (an extension, not its ``.py``)?"""
    return not file.endswith(".py")


def active() -> bool:
    """Is the compiled build in use in this process (not forced or fallen back to pure)?"""
    return _Compiled in sys.meta_path


def select() -> None:
    """Called once as ``trictrac.notation`` is imported: pure Python if asked or if the
    build is stale; nothing to do without a build."""
    if _SourceFirst in sys.meta_path or _Compiled in sys.meta_path or not (_ROOT / "replay" / MANIFEST).exists():
        return
    if os.environ.get("TRICTRAC_PURE") or _stale():
        sys.meta_path.insert(0, _SourceFirst)
    else:
        sys.meta_path.insert(0, _Compiled)


# -- copy and pickle of compiled classes ------------------------------------------------
# A compiled (native) class has no __dict__ and its allocator runs __init__: copy.deepcopy
# (the typo recovery's look-ahead) and pickle (``-j`` workers) fail on it.  Every native
# class of a compiled module gets a reducer, as it is imported: a dataclass is rebuilt by
# its constructor, any other class allocated (its __init__ runs with its defaults) and
# given its attributes back; one whose __init__ needs arguments is marked
# ``mypyc_attr(native_class=False)`` (a plain class, with compiled methods).


def _rebuild(cls: type[_C], attrs: dict[str, Any]) -> _C:
    obj = cls.__new__(cls)  # __init__ runs (with its defaults) unless the class is serializable
    for name, value in attrs.items():
        setattr(obj, name, value)
    return obj


def _reduce_dataclass(obj: Any) -> tuple[Any, ...]:
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))


def _reduce_native(obj: Any) -> tuple[Any, ...]:
    names = {n for c in type(obj).__mro__ for n in vars(c).get("__mypyc_attrs__", ())}
    return _rebuild, (type(obj), {n: getattr(obj, n) for n in names if hasattr(obj, n)})


def _register_loaded() -> None:
    """Reducers for the native classes of every compiled module loaded so far (a compiled
    module imports the others of its build directly, not through the finders).  Every
    module is looked at each time: one still being initialised (it is in ``sys.modules``
    before its classes exist) gets its classes at a later call."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(_PREFIXES) or getattr(module, "__file__", ".py").endswith(".py"):
            continue
        for value in list(vars(module).values()):
            if (
                isinstance(value, type)
                and value.__module__ == name
                and "__mypyc_attrs__" in vars(value)
                and value not in copyreg.dispatch_table
            ):
                copyreg.pickle(value, _reduce_dataclass if is_dataclass(value) else _reduce_native)


class _RegisteringLoader(ExtensionFileLoader):
    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        _register_loaded()


class _Compiled(_PackageFinder):
    """The compiled modules of :data:`PACKAGES`, their classes made copyable as they are
    imported."""

    @classmethod
    def spec(cls, name: str, path: Sequence[str]) -> ModuleSpec | None:
        spec = PathFinder.find_spec(name, path)
        if spec is not None and isinstance(spec.loader, ExtensionFileLoader) and spec.origin:
            spec.loader = _RegisteringLoader(name, spec.origin)
        return spec
