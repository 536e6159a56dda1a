"""numba's ``njit``, imported when a compiled function is first called.

Importing numba costs about 0.7 s, more than everything else a command such
as ``wythoff show`` does; most commands read what is stored and never call a
kernel. So the kernels' modules decorate with this ``njit``: it records the
function and its options, and the first call imports numba and compiles every
deferred function that the caller's module can reach (numba resolves a
kernel's globals when it compiles it, so those must be real dispatchers by
then), replacing them in their modules. Later calls go straight to numba's
dispatcher, and the machine code is still cached on disk (``cache=True``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any


class Deferred:
    """A function to be compiled by ``numba.njit(**options)`` on first call."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.func = func
        self.options = options
        self.compiled: Any = None
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self.__wrapped__ = func

    def __call__(self, *args: Any) -> Any:
        if self.compiled is None:
            materialize(sys.modules[self.func.__module__])
        return self.compiled(*args)


class Intrinsic:
    """A numba intrinsic named by module and attribute, put in place of this
    placeholder with the deferred functions (importing it imports numba).
    Called from Python, ``python`` stands in for it."""

    def __init__(self, module: str, name: str, python: Callable[..., Any]) -> None:
        self.module, self.name, self.python = module, name, python

    def load(self) -> Any:
        import importlib

        return getattr(importlib.import_module(self.module), self.name)

    def __call__(self, *args: Any) -> Any:
        return self.python(*args)


def _python_trailing_zeros(value: int) -> int:
    value = int(value) & (2**64 - 1)
    return (value & -value).bit_length() - 1 if value else 64


#: The count of trailing zero bits of an integer (64 for 0 in an int64):
#: one instruction in compiled code.
trailing_zeros = Intrinsic(
    "numba.cpython.unsafe.numbers", "trailing_zeros", _python_trailing_zeros
)


def _python_leading_zeros(value: int) -> int:
    return 64 - (int(value) & (2**64 - 1)).bit_length()


#: The count of leading zero bits of a 64-bit integer (64 for 0).
leading_zeros = Intrinsic(
    "numba.cpython.unsafe.numbers", "leading_zeros", _python_leading_zeros
)


def njit(*args: Any, **options: Any) -> Any:
    """``@njit`` or ``@njit(cache=True, …)``, as numba's, but deferred."""
    if args and callable(args[0]) and not options:
        return Deferred(args[0], {})
    return lambda func: Deferred(func, options)


def materialize(module: ModuleType, _seen: set[str] | None = None) -> None:
    """Compile the deferred functions of ``module`` and of the modules its
    deferred functions can reach through their globals, and put the
    dispatchers in their place."""
    if "numba" not in sys.modules:
        _cache_in_user_folder()
    import numba

    seen = _seen if _seen is not None else set()
    if module.__name__ in seen:
        return
    seen.add(module.__name__)
    namespace = vars(module)
    reached = []
    for name, value in list(namespace.items()):
        if isinstance(value, Deferred):
            if value.compiled is None:
                value.compiled = numba.njit(**value.options)(value.func)
            namespace[name] = value.compiled
            reached.append(sys.modules.get(value.func.__module__))
        elif isinstance(value, Intrinsic):
            namespace[name] = value.load()
        elif isinstance(value, ModuleType):
            reached.append(value)
    for other in reached:
        if other is not None and _defers(other):
            materialize(other, seen)


def _defers(module: ModuleType) -> bool:
    return any(isinstance(v, Deferred) for v in vars(module).values())


def _cache_in_user_folder(sources: Path | None = None) -> None:
    """``NUMBA_CACHE_DIR``, unless the user set it: a folder of the user's
    cache named by a digest of the compiled modules' sources (numba reads
    it once, when it is imported).

    numba keys a function's cached code on its own file's source only, but
    the kernels inline functions of other modules: after a change to
    ``wedges.py`` alone, the climb of ``wedgescan.py`` (unchanged) was
    loaded compiled with the old ``wedges`` code, and crashed. A folder per
    content of the sources never serves code compiled from other sources;
    an upgrade starts a new one (the old ones are safe to delete).
    ``sources``: the folder of the modules (this one's by default)."""
    import hashlib
    import os

    import platformdirs

    if "NUMBA_CACHE_DIR" in os.environ:
        return
    digest = hashlib.sha256()
    for path in sorted((sources or Path(__file__).parent).glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(
        platformdirs.user_cache_dir("wythoff-catalog"), "numba", digest.hexdigest()[:16]
    )
