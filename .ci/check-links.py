#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/*.md names an existing file and, when it names a heading
(`page.md#anchor`), a heading of that page, anchored as GitHub does. Prints each broken link; exit status 1 if any."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    """GitHub's heading anchors: lower case, punctuation but '-' and '_' dropped, spaces as '-', repeats numbered."""
    seen, found, fenced = {}, set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not re.match(r"#{1,6} ", line):
            continue
        slug = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


broken = []
for page in pages:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in link.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        name, _, anchor = target.partition("#")
        path = (page.parent / name).resolve() if name else page
        if not path.exists():
            broken.append(f"{page.relative_to(root)}: {target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{page.relative_to(root)}: {target}: no such heading")
for line in broken:
    print(line)
print(f"{len(pages)} pages checked, {len(broken)} broken links")
sys.exit(1 if broken else 0)
