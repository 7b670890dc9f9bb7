#!/usr/bin/env python3
"""Finds Sandtable's icon on a screenshot of a file manager: prints the
centre of each icon's red miniature, one "x y" a line, in reading order
(row by row, left to right), so that a script can double-click the Nth file
of a folder as a person does. Standard library only; the PNG is read as
check-screenshot.py reads it."""
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location(
    "check_screenshot", os.path.join(os.path.dirname(__file__), "check-screenshot.py"))
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)

# The red miniature of assets/icons/sandtable.svg.
RED = (0xE4, 0x57, 0x2E)
CLOSE = 40


def main(path):
    w, h, ch, rows = check.read_png(path)
    hits = set()
    for y in range(h):
        row = rows[y]
        for x in range(w):
            r, g, b = row[x * ch:x * ch + 3]
            if abs(r - RED[0]) < CLOSE and abs(g - RED[1]) < CLOSE and abs(b - RED[2]) < CLOSE:
                hits.add((x, y))
    # Pixels within 4 of one another belong to one miniature.
    blobs, seen = [], set()
    for start in sorted(hits):
        if start in seen:
            continue
        seen.add(start)
        blob, todo = [], [start]
        while todo:
            x, y = todo.pop()
            blob.append((x, y))
            for dx in range(-4, 5):
                for dy in range(-4, 5):
                    p = (x + dx, y + dy)
                    if p in hits and p not in seen:
                        seen.add(p)
                        todo.append(p)
        if len(blob) >= 6:
            blobs.append(blob)
    if not blobs:
        sys.exit(f"{path}: no Sandtable icon on the screen")
    centres = [(sum(x for x, _ in b) // len(b), sum(y for _, y in b) // len(b)) for b in blobs]
    # A row of icons shares its height, give or take a few pixels.
    centres.sort(key=lambda c: (c[1] // 24, c[0]))
    for x, y in centres:
        print(x, y)


if __name__ == "__main__":
    main(sys.argv[1])
