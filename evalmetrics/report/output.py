"""Writing a report's files all at once, or not at all.

Everything is rendered in memory first.  :func:`publish` then writes each
folder's files into a fresh temporary folder beside it and only moves them
into place when every write has succeeded, so an error (a full disk, a
permission problem, an interrupt) never leaves half a report behind.  An
existing folder keeps its other files; the report's own files are replaced.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .data import ReportError

__all__ = ["check_target", "publish"]


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_target(folder, option):
    """Fail early, before any work, when ``folder`` cannot become a folder.

    Examples
    --------
    >>> check_target("a-folder-that-does-not-exist-yet", "--out")
    """
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise ReportError(f"{option} {folder}: exists and is not a folder")
    for parent in path.resolve().parents:
        if parent.exists():
            if not parent.is_dir():
                raise ReportError(f"{option} {folder}: {parent} is not a folder")
            if not os.access(parent, os.W_OK | os.X_OK) and not path.exists():
                raise ReportError(f"{option} {folder}: cannot create it, {parent} is not writable")
            break


def publish(files):
    """Write ``{folder: {file name: bytes}}`` atomically per file, all or nothing per run.

    Parameters
    ----------
    files : mapping of path-like to mapping of str to bytes

    Returns
    -------
    list of pathlib.Path
        Every file written, in order.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     written = publish({os.path.join(root, "out"): {"a.txt": b"hello"}})
    ...     [p.name for p in written], sorted(os.listdir(os.path.join(root, "out")))
    (['a.txt'], ['a.txt'])
    """
    staged = []
    try:
        for folder, contents in files.items():
            target = Path(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
            # mkdtemp makes the folder private (0700); a report folder gets the usual mode.
            temporary.chmod(0o777 & ~_umask())
            staged.append((temporary, target, list(contents)))
            for name, payload in contents.items():
                (temporary / name).write_bytes(payload)
    except OSError as error:
        for temporary, _, _ in staged:
            shutil.rmtree(temporary, ignore_errors=True)
        raise ReportError(f"cannot write the report: {error.strerror or error} ({error.filename})") from None
    except BaseException:
        for temporary, _, _ in staged:
            shutil.rmtree(temporary, ignore_errors=True)
        raise
    written = []
    for temporary, target, names in staged:
        if not target.exists():
            os.replace(temporary, target)
        else:
            for name in names:
                os.replace(temporary / name, target / name)
            temporary.rmdir()
        written += [target / name for name in names]
    return written
