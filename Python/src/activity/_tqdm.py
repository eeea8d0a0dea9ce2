"""tqdm's API on activities: `from activity import tqdm, trange` in place of `from tqdm import ...`.

The bar is an activity: its description is the title, `n` the completed count, `total` the total,
the postfix the message. Nothing is drawn here (the renderer draws), so the drawing options
(`ncols`, `file`, `ascii`, `bar_format`, `colour`, `mininterval`, ...) are accepted and ignored.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Iterable, Iterator, Mapping, Optional

from . import Activity, _current, _exception_leaving, _outcome, _reset_current

# tqdm's counting unit, which the protocol calls items (no unit).
_TQDM_ITEMS = "it"


def _unit(unit: str, unit_scale: Any) -> Optional[str]:
    if unit == _TQDM_ITEMS:
        return None
    if unit == "B" and unit_scale is True or (unit == "B" and unit_scale == 1):
        return "bytes"  # renderers show KiB/MiB and B/s, as tqdm's unit_scale does
    return unit


def _format_postfix(ordered: Mapping[str, Any]) -> str:
    """tqdm's postfix text: "key=value, ..." with numbers formatted as tqdm formats them."""
    parts = []
    for key, value in ordered.items():
        if isinstance(value, bool):
            shown = str(value)
        elif isinstance(value, (int, float)):
            shown = _format_number(value)
        elif isinstance(value, str):
            shown = value.strip()
        else:
            shown = str(value)
        parts.append(f"{key.strip()}={shown}")
    return ", ".join(parts)


def _format_number(value: float) -> str:
    # tqdm.format_num: the shorter of '{:.3g}' and str(), with its exponent trimmed.
    short = f"{value:.3g}".replace("e+0", "e+").replace("e-0", "e-")
    plain = str(value)
    return short if len(short) < len(plain) else plain


class _UnknownException(Exception):
    """An exception left the loop's body, and before Python 3.12 which one is not known."""


class tqdm:  # noqa: N801  (tqdm's own name)
    """A progress bar with tqdm's constructor and methods, reported as an activity.

    Iterating it counts the items; activities (and bars) begun in the loop's body, or inside its
    `with` block, nest under it. `close()` (or the end of the loop or block) ends the activity:
    a success, or a failure when an exception left the loop or block (KeyboardInterrupt
    cancelled), as `activity.track` and `activity.begin` end theirs.
    """

    _lock = threading.RLock()

    def __init__(self, iterable: Optional[Iterable] = None, desc: Optional[str] = None,
                 total: Optional[float] = None, leave: Optional[bool] = True, file: Any = None,
                 ncols: Optional[int] = None, mininterval: float = 0.1, maxinterval: float = 10.0,
                 miniters: Optional[float] = None, ascii: Any = None, disable: Optional[bool] = False,
                 unit: str = "it", unit_scale: Any = False, dynamic_ncols: bool = False,
                 smoothing: float = 0.3, bar_format: Optional[str] = None, initial: float = 0,
                 position: Optional[int] = None, postfix: Any = None, unit_divisor: float = 1000,
                 write_bytes: bool = False, lock_args: Any = None, nrows: Optional[int] = None,
                 colour: Optional[str] = None, delay: float = 0, gui: bool = False, **kwargs: Any) -> None:
        if kwargs:
            raise TypeError(f"tqdm() got unexpected keyword arguments: {', '.join(sorted(kwargs))}")
        if total is None and iterable is not None:
            try:
                total = len(iterable)  # type: ignore[arg-type]
            except (TypeError, AttributeError):
                total = None
        if total == float("inf"):
            total = None  # tqdm's "unknown"
        self.iterable = iterable
        self.desc = desc or ""
        self.leave = leave
        self.position = position
        self.unit = unit
        self.unit_scale = unit_scale
        self.disable = bool(disable)
        self.postfix: Optional[str] = None
        self._n = initial
        self._total = total
        self._scale = 1
        self._assigned = False
        self._activity: Optional[Activity] = None
        self._token = None
        if self.disable:
            return
        # A numeric unit_scale other than 1 scales n and total for display, as tqdm does.
        self._scale = unit_scale if (not isinstance(unit_scale, bool) and unit_scale not in (0, 1)) else 1
        self._activity = Activity(self.desc, self._scaled(total), _unit(unit, unit_scale))
        if initial:
            self._activity.set_completed(self._scaled(initial))
        if postfix is not None:
            if isinstance(postfix, Mapping):
                self.set_postfix(postfix)
            else:
                self.set_postfix_str(str(postfix))

    def _scaled(self, value: Optional[float]) -> Optional[float]:
        return None if value is None else value * self._scale

    # n and total: tqdm's attributes, assignable; the activity follows at the next update or refresh.
    @property
    def n(self) -> float:
        return self._n

    @n.setter
    def n(self, value: float) -> None:
        self._n = value
        self._assigned = True  # the activity's count no longer follows by adding

    @property
    def total(self) -> Optional[float]:
        return self._total

    @total.setter
    def total(self, value: Optional[float]) -> None:
        self._total = value
        if self._activity is not None:
            self._activity.set_total(self._scaled(value) if value is not None else None)

    def __len__(self) -> int:
        if self._total is not None:
            return int(self._total)
        return len(self.iterable)  # type: ignore[arg-type]

    def __iter__(self) -> Iterator:
        if self.disable or self._activity is None:
            yield from self.iterable  # type: ignore[misc]
            return
        token = _current.set(self._activity)
        error: Optional[BaseException] = None
        try:
            for item in self.iterable:  # type: ignore[union-attr]
                yield item
                self._n += 1
                self._activity.advance(self._scale)
        except GeneratorExit:
            # Closed early: by break (a success), or by an exception in the loop's body, which
            # only the caller's frame tells (as for activity.track).
            left_by_exception, exception = _exception_leaving(sys._getframe().f_back)
            if exception is not None:
                error = exception
            elif left_by_exception:
                error = _UnknownException()
            raise
        except BaseException as exception:
            error = exception
            raise
        finally:
            _reset_current(token)
            self._close(error)

    def update(self, n: float = 1) -> None:
        """Adds n (tqdm allows a negative n, to count back) to the count."""
        if self.disable or self._activity is None:
            return
        self._n += n
        if n == 1 and self._scale == 1 and not self._assigned:
            self._activity.advance()  # the hot path: a count in Python
        elif n >= 0 and not self._assigned:
            self._activity.advance(n * self._scale)
        else:
            self._assigned = False
            self._activity.set_completed(max(self._n, 0) * self._scale)

    def refresh(self, nolock: bool = False, lock_args: Any = None) -> None:
        """Hands n (which may have been assigned) to the activity now."""
        if self._activity is not None and (self._assigned or self._activity.completed != self._n * self._scale):
            self._assigned = False
            self._activity.set_completed(max(self._n, 0) * self._scale)

    def reset(self, total: Optional[float] = None) -> None:
        """Counts from 0 again; a total given replaces the total."""
        self._n = 0
        self._assigned = False
        if total is not None:
            self.total = total
        if self._activity is not None:
            self._activity.set_completed(0)

    def set_description(self, desc: Optional[str] = None, refresh: bool = True) -> None:
        """Renames the activity; `desc` reads as tqdm's does ("name: "), the title is the name."""
        self.set_description_str(desc, refresh)
        self.desc = f"{desc}: " if desc else ""

    def set_description_str(self, desc: Optional[str] = None, refresh: bool = True) -> None:
        self.desc = desc or ""
        if self._activity is not None:
            self._activity.set_title(self.desc)

    def set_postfix(self, ordered_dict: Optional[Mapping[str, Any]] = None, refresh: bool = True,
                    **kwargs: Any) -> None:
        values = dict(ordered_dict or {})
        values.update(sorted(kwargs.items()))  # tqdm sorts the keyword arguments
        self.set_postfix_str(_format_postfix(values), refresh)

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        self.postfix = str(s)
        if self._activity is not None:
            self._activity.set_message(self.postfix)

    def close(self) -> None:
        """Ends the activity, with the count so far; later calls do nothing."""
        self._close(None)

    def _close(self, error: Optional[BaseException]) -> None:
        if self._activity is None:
            return
        self.refresh()
        activity, self._activity = self._activity, None
        self.disable = True  # as tqdm: a closed bar counts no more
        if isinstance(error, _UnknownException):
            activity.end("failure", "left by an exception (which one is known from Python 3.12)")
        else:
            activity.end(*_outcome(error))

    def clear(self, nolock: bool = False) -> None:
        """Nothing to clear: nothing is drawn here."""

    def display(self, msg: Optional[str] = None, pos: Optional[int] = None) -> None:
        """Nothing to draw: the renderer draws."""

    def unpause(self) -> None:
        """Nothing to do: the renderer keeps the time."""

    def __enter__(self) -> "tqdm":
        if self._activity is not None:
            self._token = _current.set(self._activity)
        return self

    def __exit__(self, kind: Any, error: Optional[BaseException], traceback: Any) -> None:
        if self._token is not None:
            try:
                _current.reset(self._token)
            except ValueError:
                pass
            self._token = None
        self._close(error)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # the interpreter may be tearing the module down
            pass

    def __repr__(self) -> str:
        total = "?" if self._total is None else f"{self._total:g}"
        return f"{self.desc}: {self._n:g}/{total}"

    @classmethod
    def write(cls, s: str, file: Any = None, end: str = "\n", nolock: bool = False) -> None:
        """Prints s as tqdm.write does (to standard output by default): with nothing drawn here,
        nothing needs moving out of its way."""
        target = file if file is not None else sys.stdout
        target.write(s)
        target.write(end)

    @classmethod
    def set_lock(cls, lock: Any) -> None:
        cls._lock = lock

    @classmethod
    def get_lock(cls) -> Any:
        return cls._lock

    @classmethod
    def external_write_mode(cls, file: Any = None, nolock: bool = False):  # noqa: ANN206
        import contextlib
        return contextlib.nullcontext()


def trange(*args: Any, **kwargs: Any) -> tqdm:
    """tqdm(range(*args), **kwargs)."""
    return tqdm(range(*args), **kwargs)
