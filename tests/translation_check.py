"""What a translated message must keep of its English original (``tests/test_translations.py``).

A message is one paragraph, heading, caption, list item or table cell of a page, in
MyST.  Its translation may say it in other words, never with other numbers or links:
the same glued values (``{glue:text}`` keys with their formats), the same inline
math, the same code, the same targets of cross-references and citations (the link
text of ``{ref}`text <target>``` is translated, the target is not), and the same
typed numbers (a number of the English text written in words, "ten rows", is
written in words in the translation too: a digit the English has not would be a
number nobody computed).
"""

from __future__ import annotations

import re
from collections import Counter

ROLE = re.compile(r"\{([\w:.-]+)\}`([^`]*)`")
MATH = re.compile(r"\$([^$]+)\$")
CODE = re.compile(r"(?<![}`])`([^`]+)`")
NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*")


def _target(role: str, content: str) -> str:
    if role.startswith("glue"):
        return content
    found = re.search(r"<([^<>]+)>\s*$", content)
    return found.group(1) if found else content


def parts(text: str) -> dict[str, Counter]:
    """The parts of a message a translation keeps: roles, math, code, numbers."""
    roles = Counter(f"{role}:{_target(role, content)}" for role, content in ROLE.findall(text))
    rest = ROLE.sub(" ", text)
    maths = Counter(m.strip() for m in MATH.findall(rest))
    rest = MATH.sub(" ", rest)
    code = Counter(CODE.findall(rest))
    rest = CODE.sub(" ", rest)
    numbers = Counter(n.replace(",", "") for n in NUMBER.findall(rest))
    return {"roles": roles, "math": maths, "code": code, "numbers": numbers}


def differences(english: str, translated: str) -> list[str]:
    """What the translation lost or added, part by part (empty: nothing)."""
    found = []
    ours, theirs = parts(english), parts(translated)
    for kind in ours:
        lost = ours[kind] - theirs[kind]
        added = theirs[kind] - ours[kind]
        if lost:
            found.append(f"{kind} missing: {sorted(lost.elements())}")
        if added:
            found.append(f"{kind} added: {sorted(added.elements())}")
    return found
