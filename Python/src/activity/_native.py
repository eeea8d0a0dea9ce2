"""Loads libactivity and declares the C functions the package calls."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

STATUS = {"success": 0, "failure": 1, "cancelled": 2, "skipped": 3}
LEVEL = {"debug": 0, "info": 1, "warning": 2, "error": 3}


def _candidates() -> list[str]:
    """The libraries to try, in order. ACTIVITY_LIBRARY, when set, is the one tried: a program told
    which to use never falls back to another one."""
    chosen = os.environ.get("ACTIVITY_LIBRARY")
    if chosen:
        return [chosen]
    package = os.path.dirname(os.path.abspath(__file__))
    # The copy a wheel built from the checkout carries (Python/setup.py compiles it into the package).
    bundled = os.path.join(package, "libactivity.so.0")
    # Scripts/install puts the package in PREFIX/lib/pythonX.Y/site-packages and the library in
    # PREFIX/lib: found there even when PREFIX is not on the system's library path.
    installed = os.path.normpath(os.path.join(package, "..", "..", "..", "libactivity.so.0"))
    found = [path for path in (bundled, installed) if os.path.exists(path)]
    return found + [name for name in (ctypes.util.find_library("activity"), "libactivity.so.0") if name]


def _load() -> tuple[ctypes.CDLL | _Unavailable, str | None]:
    """The library and the path (or name) it was loaded from; None when none could be."""
    errors = []
    for candidate in _candidates():
        try:
            return ctypes.CDLL(candidate), candidate
        except OSError as error:
            errors.append(f"{candidate}: {error}")
    return _Unavailable("; ".join(errors)), None


class _Unavailable:
    """Stands in for a library that could not be loaded: every call does what the library does
    with reporting off, so a missing library never breaks the program that reports. One warning
    on standard error says so, when a sink was asked for (ACTIVITY_SINK, or set_sink)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.warned = False
        if os.environ.get("ACTIVITY_SINK", "none") not in ("", "none"):
            self.warn("ACTIVITY_SINK=" + os.environ["ACTIVITY_SINK"])

    def warn(self, sink: str) -> None:
        if not self.warned:
            self.warned = True
            sys.stderr.write(f"activity: {sink}: libactivity could not be loaded ({self.reason}); "
                             "set ACTIVITY_LIBRARY to its path; reporting is off\n")
            sys.stderr.flush()

    # A handle like the library's for an activity begun while reporting is off.
    def activity_begin(self, *_arguments: object) -> int:
        return 1

    activity_begin_cancellable = activity_begin_under = activity_begin

    def activity_set_sink(self, spec: bytes | None) -> int:
        if spec not in (None, b"", b"none"):
            self.warn(spec.decode("utf-8", "replace"))
        return 0

    def activity_id(self, *_arguments: object) -> bytes:
        return b""

    activity_version = activity_strerror = activity_id

    def activity_cancel_requested(self, _handle: object) -> int:
        return 0

    def __getattr__(self, name: str) -> object:
        # advance, set_completed, set_total, set_message, log, end, set_cancel_handler, flush
        if not name.startswith("activity_"):
            raise AttributeError(name)
        return lambda *_arguments: 0


lib, library_path = _load()
_handle = ctypes.c_void_p
# void (*)(activity *a, void *context): called on the library's thread (ctypes takes the GIL).
CANCEL_HANDLER = ctypes.CFUNCTYPE(None, _handle, ctypes.c_void_p)
for _name, _result, _arguments in [
    ("activity_version", ctypes.c_char_p, []),
    ("activity_begin", _handle, [_handle, ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p]),
    ("activity_begin_cancellable", _handle, [_handle, ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p]),
    ("activity_begin_under", _handle, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p,
                               ctypes.c_int]),
    ("activity_set_title", ctypes.c_int, [_handle, ctypes.c_char_p]),
    ("activity_cancel_requested", ctypes.c_int, [_handle]),
    ("activity_set_cancel_handler", ctypes.c_int, [_handle, CANCEL_HANDLER, ctypes.c_void_p]),
    ("activity_advance", ctypes.c_int, [_handle, ctypes.c_double]),
    ("activity_set_completed", ctypes.c_int, [_handle, ctypes.c_double]),
    ("activity_set_total", ctypes.c_int, [_handle, ctypes.c_double]),
    ("activity_set_message", ctypes.c_int, [_handle, ctypes.c_char_p]),
    ("activity_log", ctypes.c_int, [_handle, ctypes.c_int, ctypes.c_char_p]),
    ("activity_end", ctypes.c_int, [_handle, ctypes.c_int, ctypes.c_char_p]),
    ("activity_id", ctypes.c_char_p, [_handle]),
    ("activity_set_sink", ctypes.c_int, [ctypes.c_char_p]),
    ("activity_flush", ctypes.c_int, [ctypes.c_int]),
    ("activity_strerror", ctypes.c_char_p, [ctypes.c_int]),
]:
    if isinstance(lib, ctypes.CDLL):
        _function = getattr(lib, _name)
        _function.restype = _result
        _function.argtypes = _arguments


def text(value: str | None) -> bytes | None:
    return None if value is None else value.encode("utf-8", "surrogateescape")
