import sys
from babel.messages.pofile import read_po
page=sys.argv[1]
cat=read_po(open(f"locale/zh_CN/LC_MESSAGES/book/{page}.po","rb"))
for i,m in enumerate(cat):
    if not m.id: continue
    print(f"@@ {i}\n{m.id}\n")
