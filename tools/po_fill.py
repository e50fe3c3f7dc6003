"""One-off: fill msgstr of a catalogue from '@@ N' blocks, checking roles, math and numbers."""
import re, sys
from collections import Counter
from babel.messages.pofile import read_po, write_po
sys.path.insert(0, "tests")
from translation_check import differences
page = sys.argv[1]
path = f"locale/zh_CN/LC_MESSAGES/book/{page}.po"
cat = read_po(open(path, "rb"))
entries = [m for m in cat]
blocks = re.split(r"^@@ (\d+)\n", open(f"_build/tr/{page}.txt").read(), flags=re.M)[1:]
bad = 0
for number, text in zip(blocks[::2], blocks[1::2]):
    m = entries[int(number)]
    text = text.strip("\n")
    problems = differences(m.id, text)
    if problems:
        bad += 1
        print(number, problems, "\n   ", m.id[:80])
    m.string = text
    m.flags.discard("fuzzy")
with open(path, "wb") as f:
    write_po(f, cat, width=0)
print(page, "filled", len(blocks) // 2, "problems", bad)
