"""Writing a report's folder: never over a file the tool did not write, and in one step.

A report folder belongs to the tool.  It holds a marker file,
:data:`MARKER`, listing every file the report wrote, so a later run can tell
its own folder from a folder of the user's.  :func:`check_target` accepts a
folder that does not exist yet, an empty one, or one that holds a previous
report and nothing else; anything else (the user's own ``report.md``, the
input CSV, a read-only folder) stops the run with a one-line
:class:`~evalmetrics.report.ReportError` *before* any number is computed.

:func:`publish` then writes every file into a fresh temporary folder beside
the target and puts it in place with one rename: an atomic exchange of the
two folders where the system offers it (Linux ``renameat2``), else two
renames with signals held back between them.  Whatever happens -- a full
disk, an interrupt, a second report racing for the same new folder -- the
target holds either the complete previous report or the complete new one,
and no temporary folder is left behind.

That holds for every signal that would end the process and can be caught
(:func:`~evalmetrics.report.signals.stopping_signals`: SIGTERM, SIGHUP,
SIGQUIT, SIGUSR1, the real-time signals, ...; not SIGKILL, which nothing can
catch).  While it writes,
:func:`publish` turns each into an exception, removes its temporary folder,
puts the previous handlers back and then delivers the signal again to them:
by default the process then ends by that signal, and under
``evalmetrics report`` (which handles them all for the whole run, see
:func:`~evalmetrics.report.signals.catching_signals`) the command says so in one line and exits with
status 128 + the signal's number.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
import signal
import stat
import tempfile
from pathlib import Path

from .data import ReportError
from .signals import Interrupted, Signalled, catching_signals, held, stopping_signals

__all__ = ["MARKER", "check_target", "publish"]

#: The file that marks a folder as a report folder (JSON: the files the report wrote).
MARKER = ".evalmetrics-report"


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _marked_files(folder):
    """The files a previous report listed in ``folder``'s marker, or None when it is not a report folder."""
    try:
        listed = json.loads((folder / MARKER).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(listed, list) or not all(isinstance(name, str) for name in listed):
        return None
    return set(listed)


def _foreign(folder):
    """Relative paths under ``folder`` that no report wrote (empty for a new, empty or report folder)."""
    entries = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if not p.is_dir() or p.is_symlink())
    entries += sorted(p.relative_to(folder).as_posix() + "/" for p in folder.rglob("*")
                      if p.is_dir() and not p.is_symlink() and not any(p.iterdir()))
    if not entries:
        return []
    # The marker sits in the report folder; a figures folder inside it is listed there.
    resolved = folder.resolve()
    owner = next((f for f in (resolved, *resolved.parents) if (f / MARKER).is_file()), None)
    ours = None if owner is None else _marked_files(owner)
    if ours is None:
        return entries
    prefix = resolved.relative_to(owner).as_posix()
    return [name for name in entries
            if name != MARKER and (name if prefix == "." else f"{prefix}/{name}") not in ours]


def _read_only(path):
    # Write bits, not only access(): a file the user protected stays protected from root too.
    mode = path.lstat().st_mode
    return not os.access(path, os.W_OK) or not mode & 0o222


def _contains_working_folder(path):
    here = Path.cwd().resolve()
    return here == path or path in here.parents


def check_target(folder, option):
    """Fail early, before any work, unless ``folder`` can receive a report without losing a file.

    Parameters
    ----------
    folder : str or path-like
        The folder the report goes to.
    option : str
        The option that named it, for the message ("--out").

    Returns
    -------
    bool
        Whether the folder exists: hand it to :func:`publish`, which then
        refuses to replace a report another run wrote meanwhile in a folder
        that was new.

    Raises
    ------
    ReportError
        When it exists and is not a folder, holds files no report wrote,
        is the current folder, or cannot be written.

    Examples
    --------
    >>> check_target("a-folder-that-does-not-exist-yet", "--out")
    False
    """
    path = Path(folder)
    where = f"{option} {folder}"
    if path.is_symlink():
        raise ReportError(f"{where}: is a symbolic link; name the folder itself")
    if path.exists() and not path.is_dir():
        raise ReportError(f"{where}: exists and is not a folder")
    resolved = path.resolve()
    if resolved.parent == resolved or _contains_working_folder(resolved):
        raise ReportError(f"{where}: is the current folder or contains it; the report replaces its folder "
                          "as a whole, so name a new subfolder such as evalmetrics-report")
    if path.exists():
        foreign = _foreign(path)
        if foreign:
            more = f" and {len(foreign) - 1} other(s)" if len(foreign) > 1 else ""
            raise ReportError(f"{where}: holds {foreign[0]!r}{more}, which no evalmetrics report wrote; "
                              "choose a new or empty folder (nothing was changed)")
        for item in [path, *path.rglob("*")]:
            if _read_only(item):
                raise ReportError(f"{where}: {item} is read-only; nothing was changed")
    for parent in resolved.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ReportError(f"{where}: {parent} is not a folder")
            if _read_only(parent) or not os.access(parent, os.X_OK):
                raise ReportError(f"{where}: cannot write beside it, {parent} is not writable")
            return path.exists()
    return False


# ---------------------------------------------------------------------------
# the one rename
# ---------------------------------------------------------------------------

_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


def _exchange(first, second):
    """Swap two folders atomically; False when the system cannot (then nothing happened)."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False  # an old kernel or a file system without the exchange
    raise OSError(code, os.strerror(code), str(second))


def _no_interrupts():
    """Hold the stopping signals back (main thread only) so that a step cannot stop halfway."""
    return held(stopping_signals())


def _put_in_place(temporary, target, existed):
    """Move the finished folder ``temporary`` to ``target``; returns the folder to delete (old report) or None."""
    if not existed:
        try:
            # rename() fails on a non-empty folder: a report written meanwhile by another run is never replaced.
            os.rename(temporary, target)
        except OSError as error:
            if error.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
                raise ReportError(f"{target}: another run wrote a report there meanwhile; this one was not "
                                  "written") from None
            raise
        return None
    if not target.is_dir():
        raise ReportError(f"{target}: was removed or replaced while the report was computed; nothing written")
    if _exchange(temporary, target):
        return temporary  # now the previous report
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=target.parent))
    old.rmdir()
    os.rename(target, old)
    try:
        os.rename(temporary, target)
    except BaseException:
        os.rename(old, target)
        raise
    return old


def _take_back(target, temporary, old):
    """Undo :func:`_put_in_place`: the previous report (or no folder) at ``target`` again."""
    if old is None:
        os.rename(target, temporary)
    elif old == temporary:
        _exchange(temporary, target)
    else:
        os.rename(target, temporary)
        os.rename(old, target)


def _remove(folder):
    def writable_then_retry(function, path, _):
        os.chmod(os.path.dirname(path), stat.S_IRWXU)
        function(path)
    shutil.rmtree(folder, onerror=writable_then_retry)


def _layout(files):
    """``{target folder: {relative path: bytes}}``, a folder inside another written as part of it."""
    folders = sorted((Path(folder).resolve() for folder in files), key=lambda p: len(p.parts))
    layout = {}
    for folder, contents in files.items():
        folder = Path(folder).resolve()
        home = next(f for f in folders if f == folder or f in folder.parents)
        prefix = folder.relative_to(home).as_posix()
        for name, payload in contents.items():
            layout.setdefault(home, {})[name if prefix == "." else f"{prefix}/{name}"] = payload
    return layout


def _stage(temporary, contents):
    """Write the report and its marker into the temporary folder."""
    for name, payload in contents.items():
        path = temporary / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(payload)
    marker = {"written_by": "evalmetrics report", "files": sorted(contents)}
    (temporary / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")


def publish(files, *, existed=None):
    """Write ``{folder: {file name: bytes}}``, each folder complete or not at all, in one rename.

    A stopping signal that arrives meanwhile (see the module's docstring)
    leaves no temporary folder; it is then delivered again to the handler
    that was in place before.

    Each folder must have passed :func:`check_target`; a folder inside
    another is written as part of it.

    Parameters
    ----------
    files : mapping of path-like to mapping of str to bytes
    existed : mapping of path-like to bool, optional
        What :func:`check_target` returned for each folder.  A folder that
        was new then and exists now was written by another run meanwhile:
        it is left alone and this run fails.

    Returns
    -------
    list of pathlib.Path
        Every file written, in order.

    Raises
    ------
    ReportError
        When a file cannot be written, or another run wrote to a new folder first.
    Signalled
        When a signal stopped the report before it was complete (if the
        previous handler let the process go on).
    Interrupted
        When an interrupt or a signal arrived after the report was complete.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     written = publish({os.path.join(root, "out"): {"a.txt": b"hello"}})
    ...     [p.name for p in written], sorted(os.listdir(os.path.join(root, "out")))
    (['a.txt'], ['.evalmetrics-report', 'a.txt'])
    """
    try:
        with catching_signals():
            return _publish(files, existed)
    except Signalled as stop:
        signum, complete = stop.signum, isinstance(stop, Interrupted)
        if signum is None:
            raise
    # The temporary folders are gone and the previous handlers back: they get the signal.
    try:
        signal.raise_signal(signum)
    except KeyboardInterrupt:
        pass
    raise (Interrupted if complete else Signalled)(signum) from None


def _publish(files, existed):
    was_there = {Path(folder).resolve(): bool(flag) for folder, flag in (existed or {}).items()}
    layout = _layout(files)
    staged, swapped, complete = [], [], False
    try:
        for target, contents in layout.items():
            existed_now = target.exists()
            if existed_now and not was_there.get(target, True):
                raise ReportError(f"{target}: another run wrote a report there meanwhile; this one was not written")
            if existed_now and _foreign(target):
                raise ReportError(f"{target}: files appeared that no evalmetrics report wrote; nothing written")
            target.parent.mkdir(parents=True, exist_ok=True)
            with _no_interrupts():  # a folder made is a folder recorded, to be removed
                temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}-new-", dir=target.parent))
                staged.append((target, temporary, existed_now))
            # mkdtemp makes the folder private (0700); a report folder gets the usual mode.
            temporary.chmod(0o777 & ~_umask())
            _stage(temporary, contents)
        with _no_interrupts():
            try:
                for target, temporary, existed_now in staged:
                    swapped.append((target, temporary, _put_in_place(temporary, target, existed_now)))
            except BaseException:
                # The figures' folder and the report's go together: undo the swaps made so far.
                for target, temporary, old in reversed(swapped):
                    _take_back(target, temporary, old)
                swapped.clear()
                raise
            complete = True
            for _, _, old in swapped:
                if old is not None:
                    _remove(old)
    except OSError as error:
        if not complete:
            raise ReportError(f"cannot write the report: {error.strerror or error} "
                              f"({error.filename or 'the report folder'})") from None
        # Complete: only a previous report's removal failed; it is retried below.
    except KeyboardInterrupt as stop:
        if complete:
            raise Interrupted(getattr(stop, "signum", None)) from None
        raise
    finally:
        # A second signal waits until the folders are removed.
        with _no_interrupts():
            leftovers = [temporary for _, temporary, _ in staged] + [old for _, _, old in swapped if old is not None]
            for leftover in leftovers:
                if leftover.exists() and leftover not in layout:
                    _remove(leftover)
    return [target / name for target, contents in layout.items() for name in contents]

