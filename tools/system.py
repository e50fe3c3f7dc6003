"""Install the Debian packages a build step needs, only those that are missing.

    python3 tools/system.py WHAT PACKAGE...

WHAT names the step in messages (tex, browser, all).  As root, missing packages are
installed with apt-get (``--no-install-recommends``, after one ``apt-get update``);
otherwise the command to run is printed and the exit status is 1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

PURPOSE = {
    "tex": "the PDF (xelatex from Debian's TeX, pdftotext for its test)",
    "browser": "the browser test (Debian's Chromium)",
    "all": "the PDF and the browser test",
}


def missing(packages: list[str]) -> list[str]:
    """The packages dpkg does not list as installed."""
    absent = []
    for package in packages:
        result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                                capture_output=True, text=True)
        if result.returncode != 0 or "install ok installed" not in result.stdout:
            absent.append(package)
    return absent


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    what, packages = argv[0], argv[1:]
    if shutil.which("dpkg-query") is None:
        print(f"{what}: not a Debian system; install the equivalents of: {' '.join(packages)}",
              file=sys.stderr)
        return 1 if any(shutil.which(t) is None for t in ("xelatex", "pdftotext")) else 0
    absent = missing(packages)
    if not absent:
        return 0
    command = ["apt-get", "install", "-y", "--no-install-recommends", *absent]
    if os.geteuid() != 0:
        print(f"{PURPOSE.get(what, what)} needs Debian packages that are not installed:\n"
              f"  {' '.join(absent)}\n"
              f"Install them as root, then run make again:\n"
              f"  sudo apt-get update && sudo {' '.join(command)}", file=sys.stderr)
        return 1
    print(f"Installing for {PURPOSE.get(what, what)}: {' '.join(absent)}", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run([*command, "-qq"], check=True, env=env)
    still = missing(absent)
    if still:
        print(f"apt-get did not install: {' '.join(still)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
