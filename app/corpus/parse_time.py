"""The page reader's time limit (reader.MAX_SECONDS) on a page parsed in docschat's own process:
reStructuredText by docutils, MyST by markdown-it-py. A page that takes longer is not indexed, with
a warning naming the limit, as an MDX page V8 reads too slowly is (reader.py) and an MkDocs page
(python_markdown.py, whose parser runs in a worker process).

docutils is quadratic in a simple table's width (each cell's line is re-measured character by
character: 2,000 rows of 40 columns take 9 s of CPU here, 22 s in sphinx-build 9.0.4) and has no
time limit of its own; Sphinx pays the same. The parse stays in the caller's thread (the page's
Build callbacks read the repository through compose's recorder there); a watchdog thread raises
an exception in it, between two bytecodes, once the thread's CPU time passes the limit (CPU time:
a busy machine does not refuse a page an idle one reads). Both parsers are pure Python, so the
exception arrives promptly. It is never raised inside a Build callback (a git read left half
done would corrupt the next): one due then is raised when the callback returns.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import wraps
from typing import Any, TypeVar

from app.corpus import reader
from app.corpus.myst import Build

__all__ = ["TimeLimitExceeded", "in_time"]

T = TypeVar("T")
_AGAIN_SECONDS = 0.05


class TimeLimitExceeded(Exception):
    """The page was not parsed within the limit; its message says so, naming the limit."""


class _Expired(BaseException):
    """Raised in the parsing thread when its time is up. Not an Exception: no `except Exception`
    of the parser or of docschat's directives takes it for an error of the page's."""


@dataclass
class _Watch:
    thread: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    state: str = "running"  # "raised" (in the thread), "due" (while in a callback), "done"
    in_callback: int = 0

    def expire(self) -> None:
        with self.lock:
            if self.state not in ("running", "raised"):  # "raised" again: it may have been dropped
                return
            if self.in_callback:
                self.state = "due"
            else:
                _raise_in(self.thread, _Expired)
                self.state = "raised"

    def finish(self) -> bool:
        """Whether the time ran out; no exception is pending in the thread after it."""
        while True:
            try:
                with self.lock:
                    was, self.state = self.state, "done"
                    if was == "raised":
                        _raise_in(self.thread, None)  # not yet delivered: cleared
                return was != "running"  # "done": set by a pass an _Expired cut short
            except _Expired:  # delivered here, before the state was "done": take the lock again
                continue


_WATCH = threading.local()


def _raise_in(thread: int, exception: type[BaseException] | None) -> None:
    """Sets (None: clears) the exception the thread raises at its next bytecode."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread),
                                               ctypes.py_object(exception) if exception else None)


def _cpu_seconds(thread: int) -> Callable[[], float]:
    try:
        clock = time.pthread_getcpuclockid(thread)
    except (AttributeError, OSError):  # no per-thread clock here: wall time
        return time.monotonic
    return lambda: time.clock_gettime(clock)


def _whole(callback: Callable[..., Any]) -> Callable[..., Any]:
    """`callback` run whole: the time limit, if it passes meanwhile, is raised when it returns."""
    @wraps(callback)
    def run(*arguments: Any) -> Any:
        watch: _Watch | None = getattr(_WATCH, "current", None)
        if watch is None:
            return callback(*arguments)
        with watch.lock:
            if watch.state == "raised":  # pending: raised here instead, before the callback
                _raise_in(watch.thread, None)
                watch.state = "due"
            if watch.state == "due":
                raise _Expired
            watch.in_callback += 1
        try:
            return callback(*arguments)
        finally:
            with watch.lock:
                watch.in_callback -= 1
                due = watch.state == "due" and not watch.in_callback
            if due:
                raise _Expired
    return run


def in_time(render: Callable[[str, Build], T], text: str, build: Build) -> T:
    """render(text, build) within reader.MAX_SECONDS of this thread's CPU time, or
    TimeLimitExceeded (after which the thread runs on as before)."""
    limit = reader.MAX_SECONDS
    watch = _Watch(threading.get_ident())
    spent, done = _cpu_seconds(watch.thread), threading.Event()
    start = spent()

    def watchdog() -> None:
        remaining = limit
        while not done.wait(remaining):
            remaining = limit - (spent() - start)
            if remaining <= 0:
                # Raised again until the parse ends: Python prints and drops an exception that
                # arrives inside a weakref callback or __del__ (CI saw docutils run on 10 s so).
                watch.expire()
                remaining = _AGAIN_SECONDS

    callbacks: dict[str, Any] = {name: _whole(callback) for name in ("xref", "xref_link", "include", "literal_include")
                                 if (callback := getattr(build, name)) is not None}
    guarded = replace(build, **callbacks)
    outer, _WATCH.current = getattr(_WATCH, "current", None), watch
    message = f"not read within the page reader's time limit ({limit:g} s)"
    threading.Thread(target=watchdog, name="docschat-parse-time", daemon=True).start()
    result: T | None = None
    failure: BaseException | None = None
    try:
        try:
            result = render(text, guarded)
        except BaseException as exc:  # noqa: BLE001 - decided once the watch is over
            failure = exc
        expired = watch.finish()
    except _Expired:  # delivered between the render's end and the watch's: the only one there is
        expired = True
        watch.finish()
    finally:
        done.set()
        _WATCH.current = outer
    if expired or isinstance(failure, _Expired):
        raise TimeLimitExceeded(message) from None
    if failure is not None:
        raise failure
    return result  # type: ignore[return-value]  # set when nothing failed
