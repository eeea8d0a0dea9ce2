"""Loads libactivity and declares the C functions the package calls."""

from __future__ import annotations

import ctypes
import ctypes.util
import os

STATUS = {"success": 0, "failure": 1, "cancelled": 2, "skipped": 3}
LEVEL = {"debug": 0, "info": 1, "warning": 2, "error": 3}


def _load() -> ctypes.CDLL:
    # Scripts/install puts the package in PREFIX/lib/pythonX.Y/site-packages and the library in
    # PREFIX/lib: found there even when PREFIX is not on the system's library path.
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "libactivity.so.0")
    candidates = [
        os.environ.get("ACTIVITY_LIBRARY"),
        os.path.normpath(beside) if os.path.exists(beside) else None,
        ctypes.util.find_library("activity"),
        "libactivity.so.0",
    ]
    errors = []
    for candidate in filter(None, candidates):
        try:
            return ctypes.CDLL(candidate)
        except OSError as error:
            errors.append(f"{candidate}: {error}")
    raise ImportError("libactivity not found (set ACTIVITY_LIBRARY to its path): " + "; ".join(errors))


lib = _load()
_handle = ctypes.c_void_p
# void (*)(activity *a, void *context): called on the library's thread (ctypes takes the GIL).
CANCEL_HANDLER = ctypes.CFUNCTYPE(None, _handle, ctypes.c_void_p)
for _name, _result, _arguments in [
    ("activity_version", ctypes.c_char_p, []),
    ("activity_begin", _handle, [_handle, ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p]),
    ("activity_begin_cancellable", _handle, [_handle, ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p]),
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
    _function = getattr(lib, _name)
    _function.restype = _result
    _function.argtypes = _arguments


def text(value: str | None) -> bytes | None:
    return None if value is None else value.encode("utf-8", "surrogateescape")
