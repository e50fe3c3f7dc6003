"""A progress bar on stderr: redrawn in place on a terminal, a line every few seconds elsewhere.

The package has no hard dependency beyond numpy, so this replaces tqdm for
the few long loops of the report (the bootstrap).  When the stream is not a
terminal (a pipe, a log file, a batch job) carriage returns would pile up,
so the bar writes a plain line instead, at most every ``line_interval``
seconds; a run shorter than that writes nothing.
"""

from __future__ import annotations

import sys
import time

__all__ = ["ProgressBar"]


class ProgressBar:
    """``label [#######.......]  45%  12 s, about 15 s left`` redrawn in place with ``\\r``.

    Parameters
    ----------
    total : int
        Steps to completion.
    stream : file, optional
        Default ``sys.stderr`` (looked up when the bar is created).
    enabled : bool, optional
        True: draw the bar in place; False: write nothing.  Default: in
        place when ``stream.isatty()``, else a line every ``line_interval``.
    width : int, default 28
        Characters of the bar itself.
    interval : float, default 0.1
        Minimum seconds between redraws, so a fast loop is not slowed by drawing.
    line_interval : float, default 5
        Seconds between the lines written off a terminal.

    Examples
    --------
    >>> import io
    >>> stream = io.StringIO()
    >>> with ProgressBar(4, stream=stream, enabled=True, width=4, interval=0) as bar:
    ...     bar.update(2)
    >>> "[##..]  50%" in stream.getvalue()
    True
    """

    def __init__(self, total, *, stream=None, enabled=None, width=28, interval=0.1, line_interval=5.0):
        self.total = max(int(total), 1)
        self.stream = sys.stderr if stream is None else stream
        self.lines = False
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
            self.lines = not enabled
        self.enabled = enabled
        self.line_interval = line_interval
        self._last_line = time.monotonic()
        self.width = width
        self.interval = interval
        self.done = 0
        self.label = ""
        self._last_draw = float("-inf")
        self._start = time.monotonic()
        self._drawn_width = 0
        self._lined = None

    def describe(self, label):
        """Change the text in front of the bar (the step being run)."""
        self.label = label
        self._draw(force=True)

    def update(self, steps=1):
        """Advance by ``steps``."""
        self.done = min(self.done + steps, self.total)
        self._draw(force=self.done == self.total)

    def close(self):
        """Erase the bar, leaving the cursor at the start of an empty line."""
        if self.enabled and self._drawn_width:
            self.stream.write("\r" + " " * self._drawn_width + "\r")
            self.stream.flush()
        self._drawn_width = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False

    def _write_line(self):
        now = time.monotonic()
        if now - self._last_line < self.line_interval or self.done == self._lined:
            return
        self._last_line, self._lined = now, self.done
        elapsed = now - self._start
        text = f"progress: {self.label} {100 * self.done // self.total}% ({self.done} of {self.total}), {elapsed:.0f} s"
        if 0 < self.done < self.total:
            text += f", about {elapsed * (self.total - self.done) / self.done:.0f} s left"
        self.stream.write(text + "\n")
        self.stream.flush()

    def _draw(self, *, force=False):
        if self.lines:
            self._write_line()
            return
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last_draw < self.interval:
            return
        self._last_draw = now
        filled = self.width * self.done // self.total
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = now - self._start
        text = f"{self.label} [{bar}] {100 * self.done // self.total:3d}%  {elapsed:.0f} s"
        if 0 < self.done < self.total:
            text += f", about {elapsed * (self.total - self.done) / self.done:.0f} s left"
        # Pad to the previous width so a shorter line overwrites a longer one completely.
        self.stream.write("\r" + text.ljust(self._drawn_width))
        self.stream.flush()
        self._drawn_width = max(self._drawn_width, len(text))
