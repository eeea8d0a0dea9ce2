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

import atexit
import contextvars
import dis
import errno
import gc
import math
import re
import sys
import time
import weakref
from types import FrameType, TracebackType
from typing import Callable, Iterable, Iterator, Optional, TypeVar

from ._native import CANCEL_HANDLER, LEVEL, STATUS, lib, text
from ._native import library_path as _library_path  # where libactivity was loaded from, or None

__all__ = ["Activity", "ActivityError", "Cancelled", "begin", "track", "current", "log", "set_sink", "flush",
           "version", "child_environment", "tqdm", "trange"]
__version__ = "0.2.0"

T = TypeVar("T")

_current: contextvars.ContextVar[Optional["Activity"]] = contextvars.ContextVar("activity", default=None)


def _reset_current(token: contextvars.Token) -> None:
    """Makes the activity that was current before `token`'s set current again."""
    try:
        _current.reset(token)
    except ValueError:  # finished in another context than it began in
        pass


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


def _checked_total(total: Optional[float]) -> float:
    """The total for the library: -1 for None (indeterminate). The library takes any negative total
    as indeterminate and activity_begin cannot refuse one, so a bad total is refused here."""
    if total is None:
        return -1.0
    try:
        value = math.nan if isinstance(total, (str, bytes)) else float(total)
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise ActivityError(errno.EINVAL, f"invalid argument: total={total!r} (a finite count, not negative, "
                                          "or None for an indeterminate activity)")
    return value


def _outcome(error: Optional[BaseException]) -> "tuple[str, Optional[str]]":
    """The status and message an activity ends with when `error` (None: no exception) left its block."""
    if error is None:
        return "success", None
    if isinstance(error, Cancelled):
        return "cancelled", str(error) or None
    if isinstance(error, (KeyboardInterrupt, GeneratorExit)):
        return "cancelled", "interrupted"
    return "failure", f"{type(error).__name__}: {error}"


def version() -> str:
    """The library's version, "MAJOR.MINOR.PATCH"."""
    return lib.activity_version().decode()


def set_sink(spec: str) -> None:
    """Overrides ACTIVITY_SINK: "fd:3", "file:/tmp/events.jsonl", "unix:/run/x.sock", "none", ..."""
    _check(lib.activity_set_sink(text(spec)))
    _sink_set(spec)  # children started from now on report there too


def flush(timeout_ms: int = -1) -> bool:
    """Writes pending progress now; False when the reader did not take it in time."""
    return lib.activity_flush(timeout_ms) == 0


def current() -> Optional["Activity"]:
    """The activity whose `with` block (or `track` loop) the caller is in, if any."""
    return _current_activity()


def log(message: str, level: str = "info", activity: Optional["Activity"] = None) -> None:
    """Writes a log message ("debug", "info", "warning", "error"), attached to `activity`, by default
    the current one (outside any, to none)."""
    if level not in LEVEL:
        raise ValueError(f"level must be one of {', '.join(LEVEL)}, not {level!r}")
    if activity is None:
        activity = _current_activity()
    handle = activity._handle if activity is not None else None
    _check(lib.activity_log(handle, LEVEL[level], text(message)))


class Activity:
    """One unit of work. As a context manager it is the current activity inside the block (new
    activities nest under it); an exception ends it as a failure (KeyboardInterrupt as cancelled),
    a normal exit as a success. `parent` defaults to the current activity.
    """

    __slots__ = ("_handle", "_ended", "_completed", "_reported", "_countdown", "_every", "_synced_at", "_token",
                 "_on_cancel", "__weakref__")

    def __init__(self, title: str, total: Optional[float] = None, unit: Optional[str] = None,
                 parent: "Optional[Activity | str]" = None, message: Optional[str] = None,
                 cancellable: bool = False) -> None:
        self._ended = True  # until begun: a refused argument leaves nothing to end
        if parent is None:
            parent = _current_activity()
            if parent is None:  # in a child process or a pool task: the activity that started it
                parent = _inherited_parent()
        if isinstance(parent, str):
            parent_id = _checked_parent_id(parent)
        elif parent is None or isinstance(parent, Activity):
            parent_id = parent.id if parent is not None and not parent._ended else None
        else:
            raise TypeError(f"parent must be an Activity, an activity id (str) or None, not {type(parent).__name__}")
        checked_total = _checked_total(total)
        self._handle = lib.activity_begin_under(text(parent_id), text(title), checked_total, text(unit),
                                                1 if cancellable else 0)
        if not self._handle:
            raise MemoryError("activity_begin")
        self._ended = False
        _open[_begun()] = self
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
        """None makes the activity indeterminate; NaN, infinite or negative totals raise ActivityError."""
        _check(lib.activity_set_total(self._handle, _checked_total(total)))

    def set_message(self, message: str) -> None:
        _check(lib.activity_set_message(self._handle, text(message)))

    def set_title(self, title: str) -> None:
        """Renames the activity."""
        _check(lib.activity_set_title(self._handle, text(title)))

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

    def __del__(self) -> None:
        # Released without end(), as the Swift SDK's rule says: a failure, so that no consumer
        # waits for it forever.
        try:
            if not self._ended:
                self.end("failure", "never ended")
        except Exception:  # the interpreter may be tearing the module down
            pass

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
        self.end(*_outcome(error))


_ID = re.compile(r"[A-Za-z0-9._:@/+-]{1,128}")


def _checked_parent_id(parent: str) -> str:
    if not _ID.fullmatch(parent):
        raise ActivityError(errno.EINVAL, f"invalid argument: parent={parent!r} is not an activity id "
                                          "(1 to 128 characters of A-Z a-z 0-9 . _ : @ / + -)")
    return parent


# The activities begun and not ended, in the order they began (weakly: releasing one ends it).
_open: "weakref.WeakValueDictionary[int, Activity]" = weakref.WeakValueDictionary()
_begun = iter(range(1, sys.maxsize)).__next__


@atexit.register
def _end_open_activities() -> None:
    """At interpreter exit, ends what is still open, the latest begun first (children before their
    parents): a `track` loop as its iterator's release would, any other as the Swift SDK ends one
    never ended (failure, "never ended"); then writes what is pending."""
    for key in sorted(_open.keys(), reverse=True):
        open_activity = _open.get(key)
        if open_activity is None or open_activity._ended:
            continue
        iterator = getattr(open_activity, "_iterator", None)
        generator = iterator() if iterator is not None else None
        if generator is not None:
            generator.close()
        if not open_activity._ended:
            open_activity.end("failure", "never ended")
    flush(500)


def begin(title: str, total: Optional[float] = None, unit: Optional[str] = None,
          parent: "Optional[Activity | str]" = None, message: Optional[str] = None,
          cancellable: bool = False) -> Activity:
    """Begins an activity under `parent`: an Activity, an activity's id (as another process was
    given it in ACTIVITY_PARENT), or None for the current one. Use it in a `with` block."""
    return Activity(title, total, unit, parent, message, cancellable)


def track(iterable: Iterable[T], title: str, total: Optional[float] = None, unit: Optional[str] = None) -> Iterator[T]:
    """Yields the items of `iterable` while an activity counts them, like tqdm(iterable).

    The activity begins with the first item asked for; the total is len(iterable) when it has one.
    Activities begun in the loop's body nest under it. It ends when the loop does:
    - every item taken: success;
    - left by break or return: success, with what was counted. When a variable still holds the
      iterator, it ends only once the iterator is released or closed (close()), but it is no
      longer the current activity after the loop: what is begun there does not nest under it;
    - left by an exception, in the body or from `iterable`: as a `with` block ends (failure with
      the exception as its error, KeyboardInterrupt cancelled). Python hides an exception raised
      in the body from the iterator; before Python 3.12 only that one left the loop is known, and
      the end is a failure that says so, whatever the exception (KeyboardInterrupt too). With the
      iterator held in a variable, it ends when the iterator is released, as a success.
    """
    if total is None:
        try:
            total = len(iterable)  # type: ignore[arg-type]
        except TypeError:
            total = None
    _checked_total(total)  # a bad total is refused here, not at the first item
    itself: list = []
    generator = _tracked(iterable, title, total, unit, itself)
    itself.append(weakref.ref(generator))
    return generator


class _TrackedActivity(Activity):
    """The activity of a `track` loop, with what it takes to tell whether its loop was left while
    a variable still holds the iterator (then it is no longer the current activity)."""

    __slots__ = ("_iterator", "_loop_references", "_outer")

    def _loop_left(self) -> bool:
        """Whether the `for` loop's own reference to the iterator, on its frame's stack, is gone:
        fewer references than when the loop took the first item. Never for an iterator that no
        `for` loop took (next(), list(): no count was kept)."""
        if self._ended:
            return True
        if not self._loop_references:
            return False
        iterator = self._iterator()
        return iterator is None or _getrefcount(iterator) < self._loop_references


def _current_activity() -> Optional[Activity]:
    """The current activity, passing over `track` activities whose loop was left."""
    active = _current.get()
    while type(active) is _TrackedActivity and active._loop_left():
        active = active._outer
    return active


# sys.getrefcount is CPython's (PyPy has none: there a loop left with the iterator held is not noticed).
_getrefcount: Optional[Callable[[object], int]] = getattr(sys, "getrefcount", None)
_FOR_ITER = dis.opmap["FOR_ITER"]


def _loop_references(caller: Optional[FrameType], iterator_reference: "weakref.ref") -> int:
    """The iterator's references while the `for` loop in `caller` runs over it, counted with the
    same temporaries as _TrackedActivity._loop_left; 0 when `caller` is not at a `for`."""
    if _getrefcount is None or caller is None:
        return 0
    code = caller.f_code.co_code
    if not (0 <= caller.f_lasti < len(code) and code[caller.f_lasti] == _FOR_ITER):
        return 0
    iterator = iterator_reference()
    return _getrefcount(iterator)


# The instructions with which a frame drops an iterator when no exception is under way: the pop of
# `break` and `return` (POP_ITER from Python 3.14), a store or `del` of the variable that held it.
# Any other may be one that raised.
_PLAIN_RELEASES = frozenset(code for name, code in dis.opmap.items()
                            if name in ("POP_TOP", "POP_ITER", "END_FOR")
                            or name.startswith(("STORE_", "DELETE_", "RETURN_")))


def _exception_leaving(frame: Optional[FrameType]) -> "tuple[bool, Optional[BaseException]]":
    """Whether an exception is unwinding `frame`, the frame that released (or closed) a `track`
    generator, and that exception when it can be known.

    Python closes a generator it releases with GeneratorExit and hides the exception under way:
    sys.exc_info() shows the GeneratorExit, whose __context__ is not that exception. But an
    exception unwinding a frame has already added the frame to its traceback, an entry for the
    frame at the instruction the frame is at, and only the garbage collector's lists lead to it.
    From Python 3.12 the exception holds the entry (as __traceback__); before, only the
    interpreter does. The search walks the collector's objects: only when no `break` explains the
    release.
    """
    if frame is None:
        return False, None
    lasti = frame.f_lasti
    code = frame.f_code.co_code
    if 0 <= lasti < len(code) and code[lasti] in _PLAIN_RELEASES:
        return False, None
    for entry in gc.get_referrers(frame):
        if type(entry) is TracebackType and entry.tb_frame is frame and entry.tb_lasti == lasti:
            for holder in gc.get_referrers(entry):
                if isinstance(holder, BaseException) and holder.__traceback__ is entry:
                    return True, holder
            return True, None
    return False, None


def _tracked(iterable: Iterable[T], title: str, total: Optional[float], unit: Optional[str],
             itself: list) -> Iterator[T]:
    outer = _current_activity()
    activity = _TrackedActivity(title, total, unit, outer)
    activity._outer = outer
    activity._iterator = itself[0]
    activity._loop_references = _loop_references(sys._getframe().f_back, itself[0])
    token = _current.set(activity)
    completed = 0
    status, message = "success", None
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
    except GeneratorExit:
        # Closed before the end: by break or return, a release, close(), or an exception in the
        # loop's body, which only the caller's frame tells.
        left_by_exception, exception = _exception_leaving(sys._getframe().f_back)
        if exception is not None:
            status, message = _outcome(exception)
        elif left_by_exception:
            status, message = "failure", "left by an exception (which one is known from Python 3.12)"
        raise
    except BaseException as exception:  # from `iterable` itself
        status, message = _outcome(exception)
        raise
    finally:
        _reset_current(token)
        activity._completed = completed
        activity.end(status, message)


from ._children import child_environment  # noqa: E402  (built on what is above)
from ._children import inherited_parent as _inherited_parent  # noqa: E402
from ._children import sink_set as _sink_set  # noqa: E402
from ._tqdm import tqdm, trange  # noqa: E402
