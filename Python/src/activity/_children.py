"""Child processes report under the activity that started them, to the same sink.

A child learns both from its environment, as the Swift SDK and the C library read them:
ACTIVITY_PARENT (the id its top-level activities nest under) and ACTIVITY_SINK. Every way Python
starts a child gets them:

- os.fork and multiprocessing's fork method: the child is a copy, the current activity with it;
- subprocess (Popen, run, ...): the two variables go into the child's environment, and a
  `fd:N` sink's descriptor is passed to it (pass_fds);
- multiprocessing's spawn and forkserver methods: the parent and the sink travel with the
  pickled Process object (a `fd:N` descriptor as multiprocessing passes its own), and the child
  takes them up as it unpickles it;
- a task submitted to a multiprocessing Pool or a ProcessPoolExecutor nests under the activity
  current where it was submitted, whichever worker runs it.

multiprocessing is patched when it is imported (importing it here would slow `import activity`).
"""

from __future__ import annotations

import contextvars
import functools
import os
import subprocess
import sys
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from . import Activity, _current, _current_activity, _end_open_activities, _native

PARENT = "ACTIVITY_PARENT"
SINK = "ACTIVITY_SINK"

# The parent of the activities a pool task begins outside any of its own: the activity current
# where the task was submitted ("" for none: top-level, as in the process that submitted it).
# None outside a task.
_task_parent: contextvars.ContextVar[Optional[str]] = contextvars.ContextVar("activity_task_parent", default=None)
# The activity current in the parent process when this one was started by multiprocessing's spawn
# or forkserver method; None otherwise (ACTIVITY_PARENT, which the library reads, applies).
_process_parent: Optional[str] = None
# The sink given to set_sink(), which replaces ACTIVITY_SINK for children too.
_sink_override: Optional[str] = None


def inherited_parent() -> Optional[str]:
    """The id an activity begun with no current activity nests under, or None for the library's
    ACTIVITY_PARENT."""
    task = _task_parent.get()
    if task is not None:
        return task or None
    return _process_parent


def sink_set(spec: str) -> None:
    global _sink_override
    _sink_override = spec


def nesting_id(activity: Optional[Activity] = None) -> Optional[str]:
    """The id a child's activities nest under: `activity`'s (by default the current one's), else
    what this process's top-level activities nest under; None for the library's ACTIVITY_PARENT."""
    if activity is None:
        activity = _current_activity()
    if activity is not None:
        return activity.id or None  # "" with reporting off or once ended
    return inherited_parent()


def child_sink() -> Optional[str]:
    """ACTIVITY_SINK for a child: the sink this process writes to, a relative file: or unix: path
    made absolute (a child may run in another folder); None when none was asked for."""
    spec = _sink_override if _sink_override is not None else os.environ.get(SINK) or None
    if spec is not None and spec.startswith(("file:", "unix:")) and not os.path.isabs(spec[5:]):
        spec = spec[:5] + os.path.abspath(spec[5:])
    return spec


def sink_descriptor(spec: Optional[str]) -> Optional[int]:
    """N for a `fd:N` sink whose descriptor is open here (and is not a standard stream)."""
    if spec is None or not spec.startswith("fd:") or not spec[3:].isdigit():
        return None
    descriptor = int(spec[3:])
    if descriptor <= 2:
        return None
    try:
        os.fstat(descriptor)
    except OSError:
        return None
    return descriptor


def child_environment(activity: Optional[Activity] = None,
                      base: Optional[Mapping[Any, Any]] = None) -> Dict[Any, Any]:
    """`base` (by default os.environ) with ACTIVITY_PARENT set to `activity`'s id (by default the
    current activity's) and ACTIVITY_SINK to this process's sink: for a child started in a way
    the package does not see (os.posix_spawn, os.exec*). A variable that `base` sets to a value of
    its own (not os.environ's) is kept."""
    environment = dict(os.environ if base is None else base)
    _fill(environment, PARENT, nesting_id(activity))
    _fill(environment, SINK, child_sink())
    return environment


def _fill(environment: Dict[Any, Any], name: str, value: Optional[str]) -> None:
    """Sets `name` unless `environment` gives it a value of its own: absent, or as os.environ has
    it, the variable was not chosen by the caller."""
    if value is None:
        return
    key: Any = name
    if any(isinstance(existing, bytes) for existing in environment):
        key, value, inherited = os.fsencode(name), os.fsencode(value), os.environb.get(os.fsencode(name))
    else:
        inherited = os.environ.get(name)
    held = environment.get(key)
    if held is None or held == inherited:
        environment[key] = value


# subprocess: every Popen (run, call, check_output, asyncio's subprocesses) goes through
# _execute_child, whose leading parameters have been the same since Python 3.2.
_execute_child = subprocess.Popen._execute_child  # type: ignore[attr-defined]


@functools.wraps(_execute_child)
def _execute_child_reporting(self: subprocess.Popen, args: Any, executable: Any, preexec_fn: Any, close_fds: bool,
                             pass_fds: Tuple[int, ...], cwd: Any, env: Any, *rest: Any) -> Any:
    parent, sink = nesting_id(), child_sink()
    if parent is not None or sink is not None:
        env = child_environment(base=env)
        chosen = env.get(SINK, env.get(SINK.encode()))
        descriptor = sink_descriptor(sink)
        if descriptor is not None and chosen in (sink, os.fsencode(sink)) and descriptor not in pass_fds:
            pass_fds = tuple(pass_fds) + (descriptor,)
    return _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd, env, *rest)


subprocess.Popen._execute_child = _execute_child_reporting  # type: ignore[attr-defined]


# multiprocessing: a started Process carries its origin; spawn and forkserver pickle it.
class _Origin:
    """Where a multiprocessing child was started: the id its activities nest under and the sink.
    Pickled for a spawn or forkserver child, it reads back as nothing but sets both there."""

    __slots__ = ("parent", "sink")

    def __init__(self) -> None:
        self.parent = nesting_id()
        self.sink = child_sink()

    def __reduce__(self) -> Tuple[Callable[..., None], Tuple[Any, ...]]:
        shared = None
        descriptor = sink_descriptor(self.sink)
        if descriptor is not None:
            from multiprocessing import context

            popen = context.get_spawning_popen()
            if popen is not None:  # the way multiprocessing hands its own descriptors to a child
                shared = popen.DupFd(popen.duplicate_for_child(descriptor))
        return _adopt, (self.parent, self.sink, shared)


def _adopt(parent: Optional[str], sink: Optional[str], shared: Any) -> None:
    """In a spawn or forkserver child, as it unpickles its Process object: report where the
    parent did, under the activity current there when the child was started."""
    global _process_parent
    _process_parent = parent
    if shared is not None:
        sink = f"fd:{shared.detach()}"  # the descriptor's number in this process
    if sink is not None and sink != _sink_override:
        _native.lib.activity_set_sink(_native.text(sink))  # a sink that fails says so on stderr
        sink_set(sink)


def _patch_process(module: Any) -> None:
    start = module.BaseProcess.start
    bootstrap = module.BaseProcess._bootstrap

    @functools.wraps(start)
    def start_reporting(self: Any) -> None:
        self._activity_origin = _Origin()
        start(self)

    @functools.wraps(bootstrap)
    def bootstrap_reporting(self: Any, *arguments: Any, **options: Any) -> int:
        # A fork or forkserver child leaves through os._exit, without atexit: end what it left open.
        try:
            return bootstrap(self, *arguments, **options)
        finally:
            _end_open_activities()

    module.BaseProcess.start = start_reporting
    module.BaseProcess._bootstrap = bootstrap_reporting


class _Submitted:
    """A task's function, run under the activity current where the task was submitted."""

    __slots__ = ("function", "parent")

    def __init__(self, function: Callable[..., Any], parent: str) -> None:
        self.function = function
        self.parent = parent

    def __call__(self, *arguments: Any, **options: Any) -> Any:
        current = _current.set(None)
        task = _task_parent.set(self.parent)
        try:
            return self.function(*arguments, **options)
        finally:
            _task_parent.reset(task)
            _current.reset(current)

    def __reduce__(self) -> Tuple[type, Tuple[Callable[..., Any], str]]:
        return _Submitted, (self.function, self.parent)


def _submitted(function: Any) -> Any:
    if isinstance(function, _Submitted) or not callable(function):
        return function  # not callable: the pool's own error
    return _Submitted(function, nesting_id() or "")


def _submitting(method: Callable[..., Any], keyword: str) -> Callable[..., Any]:
    """`method` with its function (the first argument, or the argument named `keyword`) wrapped."""
    @functools.wraps(method)
    def submit(self: Any, *arguments: Any, **options: Any) -> Any:
        if arguments:
            arguments = (_submitted(arguments[0]),) + arguments[1:]
        elif keyword in options:
            options[keyword] = _submitted(options[keyword])
        return method(self, *arguments, **options)
    return submit


def _patch_pool(module: Any) -> None:
    # apply() goes through apply_async(); the others through private helpers.
    for name in ("apply_async", "map", "map_async", "starmap", "starmap_async", "imap", "imap_unordered"):
        setattr(module.Pool, name, _submitting(getattr(module.Pool, name), "func"))


def _patch_executor(module: Any) -> None:
    # map() goes through submit().
    module.ProcessPoolExecutor.submit = _submitting(module.ProcessPoolExecutor.submit, "fn")


_PATCHES: Dict[str, Callable[[Any], None]] = {
    "multiprocessing.process": _patch_process,
    "multiprocessing.pool": _patch_pool,
    "concurrent.futures.process": _patch_executor,
}


class _PatchingLoader:
    """The module's own loader, which then patches the module it executed."""

    def __init__(self, loader: Any, patch: Callable[[Any], None]) -> None:
        self._loader = loader
        self._patch = patch

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        self._patch(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _PatchOnImport:
    """A finder that finds nothing itself: it hands the modules to patch to a patching loader."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is _PatchOnImport or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _PatchingLoader(spec.loader, patch)
                return spec
        return None


for _name, _patch in _PATCHES.items():
    if _name in sys.modules:
        _patch(sys.modules[_name])
sys.meta_path.insert(0, _PatchOnImport)  # type: ignore[arg-type]
