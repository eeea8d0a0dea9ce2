"""Progress reporting for Python through libactivity (ctypes), as swift-activity protocol v1 lines.

    import activity

    with activity.Activity("Downloading", total=12, unit="files") as download:
        for name in names:
            fetch(name)
            download.advance()

Where events go is set by ACTIVITY_SINK (unix:PATH, fd:N, file:PATH, stdout, stderr, none) or
activity.set_sink(); unset, every call does nothing, cheaply. The library is found through
ACTIVITY_LIBRARY (a path), then the system's library search (libactivity.so.0).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import os

__all__ = ["Activity", "ActivityError", "log", "set_sink", "flush", "version"]

# The values of activity_status and activity_level in activity.h, under the header's names. Statuses
# and levels are separate on purpose: ACTIVITY_LEVEL_ERROR is no status.
ACTIVITY_STATUS_SUCCESS = 0
ACTIVITY_STATUS_FAILURE = 1
ACTIVITY_STATUS_CANCELLED = 2
ACTIVITY_STATUS_SKIPPED = 3
ACTIVITY_LEVEL_DEBUG = 0
ACTIVITY_LEVEL_INFO = 1
ACTIVITY_LEVEL_WARNING = 2
ACTIVITY_LEVEL_ERROR = 3

_STATUS = {
    "success": ACTIVITY_STATUS_SUCCESS,
    "failure": ACTIVITY_STATUS_FAILURE,
    "cancelled": ACTIVITY_STATUS_CANCELLED,
    "skipped": ACTIVITY_STATUS_SKIPPED,
}
_LEVEL = {
    "debug": ACTIVITY_LEVEL_DEBUG,
    "info": ACTIVITY_LEVEL_INFO,
    "warning": ACTIVITY_LEVEL_WARNING,
    "error": ACTIVITY_LEVEL_ERROR,
}


class ActivityError(OSError):
    """A call that libactivity rejected (bad arguments)."""


def _load() -> ctypes.CDLL:
    candidates = [os.environ.get("ACTIVITY_LIBRARY"), ctypes.util.find_library("activity"), "libactivity.so.0"]
    errors = []
    for candidate in filter(None, candidates):
        try:
            return ctypes.CDLL(candidate)
        except OSError as error:
            errors.append(f"{candidate}: {error}")
    raise ImportError("libactivity not found (set ACTIVITY_LIBRARY to its path): " + "; ".join(errors))


_lib = _load()
_handle = ctypes.c_void_p
# void (*)(activity *a, void *context), called on the library's thread.
_CANCEL_HANDLER = ctypes.CFUNCTYPE(None, _handle, ctypes.c_void_p)
for _name, _result, _arguments in [
    ("activity_version", ctypes.c_char_p, []),
    ("activity_begin", _handle, [_handle, ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p]),
    ("activity_begin_cancellable", _handle, [_handle, ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p]),
    ("activity_cancel_requested", ctypes.c_int, [_handle]),
    ("activity_set_cancel_handler", ctypes.c_int, [_handle, _CANCEL_HANDLER, ctypes.c_void_p]),
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
    _function = getattr(_lib, _name)
    _function.restype = _result
    _function.argtypes = _arguments


def _text(value: str | None) -> bytes | None:
    return None if value is None else value.encode("utf-8", "surrogateescape")


def _check(code: int) -> None:
    if code < 0:
        raise ActivityError(-code, _lib.activity_strerror(code).decode())


def version() -> str:
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return _lib.activity_version().decode()


def set_sink(spec: str) -> None:
    """Overrides ACTIVITY_SINK: "fd:3", "file:/tmp/events.jsonl", "unix:/run/x.sock", "none", ..."""
    _check(_lib.activity_set_sink(_text(spec)))


def flush(timeout_ms: int = -1) -> bool:
    """Writes pending progress now; False when the reader did not take it in time."""
    return _lib.activity_flush(timeout_ms) == 0


def log(message: str, level: str = "info", activity: Activity | None = None) -> None:
    """Writes a log message ("debug", "info", "warning", "error"), attached to an activity or not."""
    handle = activity._handle if activity is not None else None
    _check(_lib.activity_log(handle, _LEVEL[level], _text(message)))


class Activity:
    """One unit of work. Use it as a context manager: an exception ends it as a failure
    (KeyboardInterrupt as cancelled), a normal exit as a success."""

    def __init__(self, title: str, total: float | None = None, unit: str | None = None,
                 parent: Activity | None = None, cancellable: bool = False) -> None:
        parent_handle = parent._handle if parent is not None else None
        determinate = total is not None and math.isfinite(total) and total >= 0
        begin = _lib.activity_begin_cancellable if cancellable else _lib.activity_begin
        self._handle = begin(parent_handle, _text(title), float(total) if determinate else -1.0, _text(unit))
        if not self._handle:
            raise MemoryError("activity_begin")
        self._ended = False
        self._on_cancel = None

    @property
    def cancel_requested(self) -> bool:
        """Whether the person watching asked to cancel it (cancellable=True): cheap, for loops."""
        return not self._ended and _lib.activity_cancel_requested(self._handle) == 1

    def on_cancel(self, callback) -> None:
        """Calls callback() once on a cancel, on the library's thread: keep it short."""
        self._on_cancel = _CANCEL_HANDLER(lambda _handle, _context: callback())  # kept alive until end()
        _check(_lib.activity_set_cancel_handler(self._handle, self._on_cancel, None))

    @property
    def id(self) -> str:
        """The activity's id: pass it to a child process as ACTIVITY_PARENT."""
        return _lib.activity_id(self._handle).decode() if not self._ended else ""

    def advance(self, delta: float = 1) -> None:
        """Adds delta to the completed count (the hot path: no I/O)."""
        _check(_lib.activity_advance(self._handle, delta))

    def set_completed(self, completed: float) -> None:
        _check(_lib.activity_set_completed(self._handle, completed))

    def set_total(self, total: float | None) -> None:
        """None makes the activity indeterminate."""
        _check(_lib.activity_set_total(self._handle, -1.0 if total is None else total))

    def set_message(self, message: str) -> None:
        _check(_lib.activity_set_message(self._handle, _text(message)))

    def log(self, message: str, level: str = "info") -> None:
        log(message, level, self)

    def end(self, status: str = "success", message: str | None = None) -> None:
        """Ends the activity ("success", "failure", "cancelled", "skipped"); later calls do nothing."""
        if self._ended:
            return
        _check(_lib.activity_end(self._handle, _STATUS[status], _text(message)))
        self._ended = True
        self._handle = None
        self._on_cancel = None

    def __enter__(self) -> Activity:
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if kind is None:
            self.end("success")
        elif issubclass(kind, KeyboardInterrupt):
            self.end("cancelled", "interrupted")
        else:
            self.end("failure", f"{kind.__name__}: {error}")
