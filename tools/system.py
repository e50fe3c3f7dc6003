"""Install the Debian packages a build step needs, only those that are missing.

    python3 tools/system.py WHAT PACKAGE...

WHAT names the step in messages (tex, browser, all).  As root, missing packages are
installed with apt-get (``--no-install-recommends``, after one ``apt-get update``);
otherwise the command to run is printed and the exit status is 1.

Every installation on the machine goes through one lock (``LOCK``): ``make system``,
``make tex``, ``make browser`` and the test fixtures that call them may run at the same
moment (two pytest workers, one wanting TeX, the other Chromium), and two ``apt-get``
runs at once fail on dpkg's own lock.  The lock is held from the check of what is
missing to the end of the install, so the second caller finds the work done; apt-get is
also told to wait for dpkg's lock (``DPkg::Lock::Timeout``) in case something outside
this project holds it.  A failure is reported in one line, with apt-get's own last
words, and the exit status is 1.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PURPOSE = {
    "tex": "the PDF (xelatex from Debian's TeX, pdftotext for its test)",
    "browser": "the browser test (Debian's Chromium)",
    "all": "the PDF and the browser test",
    "npm": "axe-core, the browser test's accessibility engine (npm from Debian)",
}
# One lock for every installation of this project on this machine, whatever the checkout.
LOCK = Path(tempfile.gettempdir()) / "evalmetrics-system-packages.lock"
# Seconds apt-get waits for dpkg's lock held by someone else before it gives up.
DPKG_LOCK_TIMEOUT = 900


def missing(packages: list[str]) -> list[str]:
    """The packages dpkg does not list as installed."""
    absent = []
    for package in packages:
        result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                                capture_output=True, text=True)
        if result.returncode != 0 or "install ok installed" not in result.stdout:
            absent.append(package)
    return absent


def apt_get(*arguments: str) -> list[str]:
    """The apt-get command line: quiet, non-interactive, waiting for dpkg's lock."""
    return ["apt-get", "-qq", "-o", f"DPkg::Lock::Timeout={DPKG_LOCK_TIMEOUT}", *arguments]


def last_words(output: str) -> str:
    """apt-get's last meaningful line, for a one-line failure message."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("E:", "W:"))]
    return (errors or lines or ["no output"])[-1]


def install(what: str, absent: list[str]) -> int:
    print(f"Installing for {PURPOSE.get(what, what)}: {' '.join(absent)}", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for name, step in (("apt-get update", apt_get("update")),
                       ("apt-get install", apt_get("install", "-y", "--no-install-recommends",
                                                   *absent))):
        result = subprocess.run(step, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            print(f"{what}: {name} failed (exit {result.returncode}): "
                  f"{last_words(result.stdout + result.stderr)}", file=sys.stderr)
            return 1
    still = missing(absent)
    if still:
        print(f"{what}: apt-get did not install: {' '.join(still)}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    what, packages = argv[0], argv[1:]
    if shutil.which("dpkg-query") is None:
        print(f"{what}: not a Debian system; install the equivalents of: {' '.join(packages)}",
              file=sys.stderr)
        return 1 if any(shutil.which(t) is None for t in ("xelatex", "pdftotext")) else 0
    if not missing(packages):
        return 0  # the common case: no lock, no apt
    if os.geteuid() != 0:
        absent = missing(packages)
        command = ["apt-get", "install", "-y", "--no-install-recommends", *absent]
        print(f"{PURPOSE.get(what, what)} needs Debian packages that are not installed:\n"
              f"  {' '.join(absent)}\n"
              f"Install them as root, then run make again:\n"
              f"  sudo apt-get update && sudo {' '.join(command)}", file=sys.stderr)
        return 1
    with open(LOCK, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # another caller may be installing: wait for it
        absent = missing(packages)  # what is still missing once it has finished
        return install(what, absent) if absent else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
