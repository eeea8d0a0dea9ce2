"""Progress reporting for Python in the swift-activity protocol, through libactivity.

    import activity

    for photo in activity.track(photos, "Indexing photos", unit="photos"):
        index(photo)

    with activity.begin("Downloading", total=12, unit="files") as download:
        for name in names:
            fetch(name)
            download.advance()

Where events go is set by ACTIVITY_SINK (unix:PATH, fd:N, file:PATH, stdout, stderr, none),
which `activity run` sets, or by set_sink(); unset, every call does nothing, cheaply. Activities
begun inside another's `with` block (or inside a `track` loop) nest under it, also across
threads started with contextvars.copy_context() and in asyncio tasks.

An activity begun with cancellable=True may be cancelled by the person watching (Esc in
`activity run --mode overlay`): the cancel comes back through the library, and the work learns of
it from `cancel_requested` (a cheap check for loops) or an `on_cancel` callback, then stops and
ends the activity as cancelled (raising `Cancelled` in a `with` block does that).

advance() counts in Python and hands the count to the library every few milliseconds, so a
tight loop costs a few tens of nanoseconds a call; the library coalesces what it sends anyway.
"""

from __future__ import annotations

import contextvars
import math
import time
from typing import Callable, Iterable, Iterator, Optional, TypeVar

from ._native import CANCEL_HANDLER, LEVEL, STATUS, lib, text

__all__ = ["Activity", "ActivityError", "Cancelled", "begin", "track", "current", "log", "set_sink", "flush",
           "version"]
__version__ = "0.2.0"

T = TypeVar("T")

_current: contextvars.ContextVar[Optional["Activity"]] = contextvars.ContextVar("activity", default=None)
_monotonic = time.monotonic

# How often the Python-side count is handed to the library: about every 2 ms, whatever the loop's
# speed (the number of calls between two hand-overs adapts).
_SYNC_SECONDS = 0.002


class ActivityError(OSError):
    """A call that libactivity rejected (bad arguments)."""


class Cancelled(Exception):
    """Raised by the work when it stops because of a cancel; a `with` block ends the activity as
    cancelled for it."""


def _check(code: int) -> None:
    if code < 0:
        raise ActivityError(-code, lib.activity_strerror(code).decode())


def version() -> str:
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return lib.activity_version().decode()


def set_sink(spec: str) -> None:
    """Overrides ACTIVITY_SINK: "fd:3", "file:/tmp/events.jsonl", "unix:/run/x.sock", "none", ..."""
    _check(lib.activity_set_sink(text(spec)))


def flush(timeout_ms: int = -1) -> bool:
    """Writes pending progress now; False when the reader did not take it in time."""
    return lib.activity_flush(timeout_ms) == 0


def current() -> Optional["Activity"]:
    """The activity whose `with` block (or `track` loop) the caller is in, if any."""
    return _current.get()


def log(message: str, level: str = "info", activity: Optional["Activity"] = None) -> None:
    """Writes a log message ("debug", "info", "warning", "error"), attached to an activity or not."""
    if level not in LEVEL:
        raise ValueError(f"level must be one of {', '.join(LEVEL)}, not {level!r}")
    handle = activity._handle if activity is not None else None
    _check(lib.activity_log(handle, LEVEL[level], text(message)))


class Activity:
    """One unit of work. As a context manager it is the current activity inside the block (new
    activities nest under it); an exception ends it as a failure (KeyboardInterrupt as cancelled),
    a normal exit as a success. `parent` defaults to the current activity.
    """

    __slots__ = ("_handle", "_ended", "_completed", "_reported", "_countdown", "_every", "_synced_at", "_token",
                 "_on_cancel")

    def __init__(self, title: str, total: Optional[float] = None, unit: Optional[str] = None,
                 parent: Optional["Activity"] = None, message: Optional[str] = None,
                 cancellable: bool = False) -> None:
        if parent is None:
            parent = _current.get()
        parent_handle = parent._handle if parent is not None and not parent._ended else None
        determinate = total is not None and math.isfinite(total) and total >= 0
        begin_function = lib.activity_begin_cancellable if cancellable else lib.activity_begin
        self._handle = begin_function(parent_handle, text(title), float(total) if determinate else -1.0, text(unit))
        if not self._handle:
            raise MemoryError("activity_begin")
        self._ended = False
        self._completed = 0
        self._reported = 0
        self._countdown = 1
        self._every = 1
        self._synced_at = _monotonic()
        self._token: Optional[contextvars.Token] = None
        self._on_cancel = None
        if message is not None:
            self.set_message(message)

    @property
    def id(self) -> str:
        """The activity's id: pass it to a child process as ACTIVITY_PARENT."""
        return lib.activity_id(self._handle).decode() if not self._ended else ""

    @property
    def completed(self) -> float:
        """How much is done, as counted so far."""
        return self._completed

    def advance(self, delta: float = 1) -> None:
        """Adds delta to the completed count. The hot path: counts in Python, no I/O."""
        if delta != 1:
            self._advance_by(delta)
            return
        self._completed += 1
        self._countdown -= 1
        if self._countdown <= 0:
            self._sync()

    def _advance_by(self, delta: float) -> None:
        if not (delta >= 0 and math.isfinite(delta)):
            raise ActivityError(22, f"invalid argument: advance({delta!r})")
        self._completed += delta
        self._countdown -= 1
        if self._countdown <= 0:
            self._sync()

    def _sync(self) -> None:
        """Hands the count to the library and sets how many calls to wait until the next time."""
        if self._ended:
            return
        if self._completed != self._reported:
            self._reported = self._completed
            lib.activity_set_completed(self._handle, float(self._completed))
        now = _monotonic()
        elapsed = now - self._synced_at
        self._synced_at = now
        if elapsed < _SYNC_SECONDS / 2 and self._every < 1 << 20:
            self._every *= 2
        elif elapsed > _SYNC_SECONDS * 2 and self._every > 1:
            self._every //= 2
        self._countdown = self._every

    @property
    def cancel_requested(self) -> bool:
        """Whether the person watching asked to cancel the activity (begun with cancellable=True).
        Cheap: check it in the work's loop."""
        return not self._ended and lib.activity_cancel_requested(self._handle) == 1

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Calls callback() once when the person watching asks to cancel the activity. It runs on
        the library's thread, not the caller's: keep it short (set an event, cancel a future). It
        is never called once end() has returned. A cancel that came before it was set does not call
        it: check cancel_requested too."""
        def handler(_handle: object, _context: object) -> None:
            try:
                callback()
            except BaseException:  # nothing may unwind into the C library's thread
                pass
        wrapped = CANCEL_HANDLER(handler)
        _check(lib.activity_set_cancel_handler(self._handle, wrapped, None))
        self._on_cancel = wrapped  # kept alive while the library may call it

    def set_completed(self, completed: float) -> None:
        """Sets the completed count (an absolute number, never a percentage)."""
        _check(lib.activity_set_completed(self._handle, completed))
        self._completed = self._reported = completed

    def set_total(self, total: Optional[float]) -> None:
        """None makes the activity indeterminate."""
        _check(lib.activity_set_total(self._handle, -1.0 if total is None else total))

    def set_message(self, message: str) -> None:
        _check(lib.activity_set_message(self._handle, text(message)))

    def log(self, message: str, level: str = "info") -> None:
        log(message, level, self)

    def end(self, status: str = "success", message: Optional[str] = None) -> None:
        """Ends the activity ("success", "failure", "cancelled", "skipped"); later calls do nothing.
        The latest count is reported first."""
        if status not in STATUS:
            raise ValueError(f"status must be one of {', '.join(STATUS)}, not {status!r}")
        if self._ended:
            return
        if self._completed != self._reported:
            self._reported = self._completed
            lib.activity_set_completed(self._handle, float(self._completed))
        _check(lib.activity_end(self._handle, STATUS[status], text(message)))
        self._ended = True
        self._handle = None
        self._on_cancel = None

    def __enter__(self) -> "Activity":
        self._token = _current.set(self)
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if self._token is not None:
            try:
                _current.reset(self._token)
            except ValueError:  # left in another context than it was entered in
                pass
            self._token = None
        if kind is None:
            self.end("success")
        elif issubclass(kind, Cancelled):
            self.end("cancelled", str(error) or None)
        elif issubclass(kind, (KeyboardInterrupt, GeneratorExit)):
            self.end("cancelled", "interrupted")
        else:
            self.end("failure", f"{kind.__name__}: {error}")


def begin(title: str, total: Optional[float] = None, unit: Optional[str] = None,
          parent: Optional[Activity] = None, message: Optional[str] = None, cancellable: bool = False) -> Activity:
    """Begins an activity under `parent` (default: the current one). Use it in a `with` block."""
    return Activity(title, total, unit, parent, message, cancellable)


def track(iterable: Iterable[T], title: str, total: Optional[float] = None, unit: Optional[str] = None) -> Iterator[T]:
    """Yields the items of `iterable` while an activity counts them, like tqdm(iterable).

    The total is len(iterable) when it has one. Leaving the loop early ends the activity as a
    success with what was counted; activities begun in the loop's body nest under it.
    """
    if total is None:
        try:
            total = len(iterable)  # type: ignore[arg-type]
        except TypeError:
            total = None
    activity = Activity(title, total, unit)
    token = _current.set(activity)
    completed = 0
    try:
        countdown = 1
        for item in iterable:
            yield item
            completed += 1
            countdown -= 1
            if not countdown:
                activity._completed = completed
                activity._sync()
                countdown = activity._every
    finally:
        try:
            _current.reset(token)
        except ValueError:
            pass
        activity._completed = completed
        activity.end()
