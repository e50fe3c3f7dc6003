"""The signals that stop a report, turned into exceptions while it is written.

* :func:`stopping_signals` -- every signal that would end the process and can
  be caught (SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, the real-time signals, ...).
* :func:`catching_signals` -- a block inside which each of them raises
  :class:`Signalled`, with the previous handlers put back after it.
* :func:`held` -- a block during which some signals wait.

:func:`~evalmetrics.report.output.publish` uses them so that a signal leaves
no temporary folder behind; ``evalmetrics report`` so that it ends with one
line and the status 128 + the signal's number.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

__all__ = ["Interrupted", "Signalled", "catching_signals", "held", "stopping_signals"]


class Signalled(KeyboardInterrupt):
    """A signal stopped the report before it was written (``signum``: which one)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


class Interrupted(Signalled):
    """An interrupt that arrived while the report was being published, after it was complete.

    ``signum`` is the signal, or None for a KeyboardInterrupt raised some other way.
    """

    def __init__(self, signum=None):
        super().__init__(signum)


# Signals that end a process by default but are no request to stop: faults of the
# process itself (a Python handler cannot run safely then) and an abort it asked for.
_FAULTS = ("SIGABRT", "SIGBUS", "SIGFPE", "SIGILL", "SIGSEGV", "SIGSYS", "SIGTRAP")
# ... and those whose default is to do nothing, stop or continue.
_HARMLESS = ("SIGCHLD", "SIGCLD", "SIGCONT", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGWINCH")


def stopping_signals():
    """The signals that would end the process now and can be caught, by number.

    Every signal the system has, less SIGKILL and SIGSTOP (which cannot be
    caught), the faults of the process itself (SIGSEGV, SIGBUS, ...), those
    that by default do nothing, stop or continue (SIGCHLD, SIGTSTP, ...),
    and those set to be ignored (as ``nohup`` sets SIGHUP, or Python SIGPIPE).

    Returns
    -------
    list of signal.Signals

    Examples
    --------
    >>> import signal
    >>> signal.SIGTERM in stopping_signals(), signal.SIGKILL in stopping_signals()
    (True, False)
    """
    skipped = {getattr(signal, name) for name in ("SIGKILL", "SIGSTOP") + _FAULTS + _HARMLESS
               if hasattr(signal, name)}
    found = []
    for number in sorted(signal.valid_signals()):
        if number in skipped:
            continue
        try:
            if signal.getsignal(number) == signal.SIG_IGN:
                continue
        except (ValueError, OSError):
            continue
        found.append(number)
    return found


def _stop(signum, frame):
    try:
        signum = signal.Signals(signum)
    except ValueError:
        pass  # a real-time signal without a name of its own
    raise Signalled(signum)


@contextmanager
def held(numbers):
    """Hold the signals ``numbers`` back inside the block (main thread only); they arrive after it."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(numbers))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def catching_signals():
    """Turn every stopping signal into :class:`Signalled` inside the block; the previous handlers after it.

    Only the main thread can set handlers; elsewhere the block runs as it is.

    Examples
    --------
    >>> import signal
    >>> with catching_signals():
    ...     try:
    ...         signal.raise_signal(signal.SIGUSR1)
    ...     except Signalled as stop:
    ...         print(stop.signum.name)
    SIGUSR1
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    try:
        for number in stopping_signals():
            previous[number] = signal.signal(number, _stop)
        yield
    finally:
        # Put back at once: a signal that comes meanwhile finds the previous handler.
        with held(previous):
            for number, handler in previous.items():
                signal.signal(number, handler)
