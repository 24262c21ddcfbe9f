"""Whether a module's numba loops are compiled already, told without numba.

numba compiles a ``@njit(cache=True)`` function on its first call and keeps
the machine code in files beside the source (``__pycache__``), or under
``NUMBA_CACHE_DIR`` when it is set (the user's cache directory when
``__pycache__`` is not writable): an index ``<file>.<function>-<line>.pyXY.nbi``
and a data file per compiled signature. A new install has none: its first
compiled count waits for the compiler (about half a minute for the counting
kernels), which ``cpknight warm`` does ahead, once.

:class:`CompiledLoops` names a module of compiled loops and what compiling
it costs; :meth:`CompiledLoops.built` reads the module's source for the
functions it hands to numba (``ast``: the module is not imported) and finds
each one's index where numba would look, written by this numba version for
this source: no numba import (about a third of a second), a few milliseconds.
numba itself decides at the call; this is the guess ``auto`` acts on.

Examples:
    >>> loops = CompiledLoops("cpknight.runtime.compiled", 1.0)
    >>> loops.functions()  # this module hands nothing to numba
    ()
    >>> loops.missing(), loops.built(), loops.waiting()
    ((), True, 0.0)
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ast
    from collections.abc import Sequence

# ast, hashlib and pickle are imported where the check runs: every count
# imports this module, few run the check.

__all__ = [
    "COMPILE_FLOOR",
    "CompiledLoops",
    "Jitted",
    "cache_dir",
    "numba_version",
    "waiting_seconds",
]

COMPILE_FLOOR = 5.0
"""Seconds of compiling left under which a kernel counts as built: a count
that ran only some of a module's loops (in memory, not on disk) cached those
and left a few small ones, which compile in about the time loading the cache
takes anyway."""


@dataclass(frozen=True)
class Jitted:
    """One function a module hands to numba with ``cache=True``.

    Attributes:
        name: its name (a function at the module's top level).
        line: the first line of its code (its first decorator's, if any):
            numba's cache files carry it.
        lines: how many lines it has: its share of the module's compiling
            time is guessed from them.
    """

    name: str
    line: int
    lines: int = 1

    def index_name(self, source: Path) -> str:
        """The name of the function's index file in numba's cache.

        Examples:
            >>> Jitted("emit", 359).index_name(Path("dense_jit.py"))[:20]
            'dense_jit.emit-359.p'
        """
        version = f"py{sys.version_info[0]}{sys.version_info[1]}"
        return f"{source.stem}.{self.name}-{self.line}.{version}{sys.abiflags}.nbi"


@dataclass(frozen=True)
class CompiledLoops:
    """A module of numba loops: its dotted name and what compiling it costs.

    Attributes:
        module: the module's dotted name (``cpknight.counting.dense_jit``).
        seconds: about how long compiling all its loops takes from nothing
            (measured on 2 cores, ``benchmarks/warm.py``).
    """

    module: str
    seconds: float

    def source(self) -> Path:
        """The module's source file (found, not imported).

        Raises:
            ModuleNotFoundError: no such module.
        """
        spec = importlib.util.find_spec(self.module)
        if spec is None or spec.origin is None:
            raise ModuleNotFoundError(f"no module named {self.module!r}")
        return Path(spec.origin)

    def functions(self) -> tuple[Jitted, ...]:
        """The functions the module compiles and caches (read from its source)."""
        source = self.source()
        stat = source.stat()
        return _jitted(str(source), stat.st_mtime_ns, stat.st_size)

    def missing(self) -> tuple[str, ...]:
        """The functions numba has no current cache of (numba not imported).

        Every one without numba installed; none when the source cannot be
        read (a zipped install: nothing to tell, taken as built).
        """
        try:
            functions = self.functions()
            version = numba_version()
            if version is None:
                return tuple(f.name for f in functions)
            source = self.source()
            folder = cache_dir(source)
            stamp = _Stamp(source)
        except (OSError, SyntaxError, ValueError):
            return ()
        return tuple(
            f.name
            for f in functions
            if not _current(folder / f.index_name(source), version, stamp)
        )

    def built(self) -> bool:
        """Whether every loop of the module is compiled and cached already."""
        return not self.missing()

    def waiting(self) -> float:
        """About how long compiling what is missing takes (s; 0: built).

        :attr:`seconds` shared among the functions by their lines: a count
        that runs only some of the module's loops (in memory, not on disk)
        caches only those, and leaves a little to compile.
        """
        functions = self.functions()
        missing = set(self.missing())
        total = sum(f.lines for f in functions)
        if not total:
            return 0.0
        left = sum(f.lines for f in functions if f.name in missing)
        return self.seconds * left / total


def waiting_seconds(loops: Sequence[CompiledLoops]) -> float:
    """The seconds of compiling ``loops`` still wait for; 0 under :data:`COMPILE_FLOOR`.

    Examples:
        >>> waiting_seconds([])
        0.0
    """
    waiting = sum(module.waiting() for module in loops)
    return waiting if waiting >= COMPILE_FLOOR else 0.0


def numba_version() -> str | None:
    """The installed numba's version (from its install record, not imported).

    The name of its ``numba-<version>.dist-info`` folder beside it (a glob,
    a millisecond), else :mod:`importlib.metadata` (tens of milliseconds to
    import). ``None`` when numba is not installed.
    """
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return None
    records = list(Path(spec.origin).parent.parent.glob("numba-*.dist-info"))
    if len(records) == 1:
        return records[0].name.removeprefix("numba-").removesuffix(".dist-info")
    from importlib import metadata

    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return None


def cache_dir(source: Path) -> Path:
    """Where numba keeps the compiled loops of the module at ``source``.

    ``NUMBA_CACHE_DIR`` when it is set (a folder per source folder in it),
    else ``__pycache__`` beside the source when it can be written, else the
    user's cache directory: numba's own order.

    Examples:
        >>> import os
        >>> saved = os.environ.get("NUMBA_CACHE_DIR")
        >>> os.environ["NUMBA_CACHE_DIR"] = "/cache"
        >>> cache_dir(Path("/src/pkg/mod.py")).as_posix()[:11]
        '/cache/pkg_'
        >>> os.environ.pop("NUMBA_CACHE_DIR") and None
        >>> if saved is not None:
        ...     os.environ["NUMBA_CACHE_DIR"] = saved
    """
    import hashlib

    folder = os.path.dirname(os.path.abspath(source))
    sub = f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
    chosen = os.environ.get("NUMBA_CACHE_DIR", "")
    if chosen:
        return Path(chosen) / sub
    in_tree = Path(folder) / "__pycache__"
    writable = in_tree if in_tree.is_dir() else Path(folder)
    if os.access(writable, os.W_OK):
        return in_tree
    if sys.platform == "darwin":
        user = Path.home() / "Library" / "Caches"
    else:
        user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return user / "numba" / sub


@functools.lru_cache(maxsize=32)
def _jitted(source: str, mtime_ns: int, size: int) -> tuple[Jitted, ...]:
    """The cached numba functions of a source file (kept per mtime and size).

    A function decorated with ``njit(cache=True ...)`` (not inlined: an
    ``inline="always"`` one is compiled into its callers only), or handed to
    ``njit(cache=True ...)(function)`` anywhere in the module.
    """
    import ast

    del mtime_ns, size  # the cache's key only
    tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    tops = {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    found: dict[str, Jitted] = {}
    for node in tops.values():
        decorators = [d for d in node.decorator_list if isinstance(d, ast.Call)]
        if any(_caches(d) for d in decorators):
            found[node.name] = _function(node)
    for call in ast.walk(tree):
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Call)
            and _caches(call.func)
            and len(call.args) == 1
            and isinstance(call.args[0], ast.Name)
            and call.args[0].id in tops
        ):
            found[call.args[0].id] = _function(tops[call.args[0].id])
    return tuple(sorted(found.values(), key=lambda f: f.line))


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Jitted:
    """A function's name, first line (its first decorator's) and length."""
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    last = node.end_lineno or node.lineno
    return Jitted(node.name, first, last - first + 1)


def _caches(call: ast.Call) -> bool:
    """Whether ``call`` is ``njit(cache=True ...)`` or ``jit``, not inlined."""
    import ast

    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in ("njit", "jit"):
        return False
    words = {k.arg: k.value for k in call.keywords}
    cache = words.get("cache")
    inline = words.get("inline")
    cached = isinstance(cache, ast.Constant) and cache.value is True
    inlined = isinstance(inline, ast.Constant) and inline.value == "always"
    return cached and not inlined


class _Stamp:
    """What numba stamps an index with: the source's hash (or mtime and size).

    numba 0.68 stamps the SHA-256 of the source; earlier versions its
    modification time and size. Both are read from the source once.
    """

    def __init__(self, source: Path) -> None:
        import hashlib

        stat = source.stat()
        self.mtime = stat.st_mtime
        self.size = stat.st_size
        self.digest = hashlib.sha256(source.read_bytes()).digest()

    def matches(self, values: list[object]) -> bool:
        """Whether the first values of an index's pickle are this stamp."""
        if values and isinstance(values[0], bytes):
            return values[0] == self.digest
        return values[:2] == [self.mtime, self.size]


def _current(index: Path, version: str, stamp: _Stamp) -> bool:
    """Whether ``index`` is numba's, this version's, this source's, with data.

    Read without unpickling numba's objects (which would import numba): the
    version is a plain string; the stamp and the data files' names are read
    from the pickle's opcodes.
    """
    import io
    import pickle
    import pickletools

    try:
        with index.open("rb") as f:
            if pickle.load(f) != version:
                return False
            data = f.read()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        return False
    values: list[object] = []
    files: list[str] = []
    try:
        for op, arg, _ in pickletools.genops(io.BytesIO(data)):
            number = op.name in ("BINFLOAT", "BININT", "BININT1", "BININT2", "LONG1")
            if number or (isinstance(arg, bytes) and not values):
                values.append(arg)
            elif isinstance(arg, str) and arg.endswith(".nbc"):
                files.append(arg)
    except (ValueError, EOFError):
        return False
    return (
        stamp.matches(values)
        and bool(files)
        and all((index.parent / name).is_file() for name in files)
    )
