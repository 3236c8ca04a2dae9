#!/usr/bin/env python3
"""Writes a MovingAI .scen of random queries legal for a square footprint.

usage: tools/legal_scen.py MAP OUT.scen COUNT SEED SIZE CHARS

Start and goal are anchors (top-left cells) of a SIZE x SIZE footprint whose
cells are all map characters in CHARS (e.g. ".=" for ground and road of the
mixed kind, "~W" for water), any distance apart; the optimal length is
written as 0 (unknown). For comparing agent worlds class by class (README,
"One world for every class"). Same arguments, same file.
"""
import random
import sys


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    path, out = sys.argv[1], sys.argv[2]
    count, seed, size = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    ok = set(sys.argv[6])
    with open(path) as f:
        rows = f.read().split('\n')[4:]
    rows = [r for r in rows if r]
    height, width = len(rows), len(rows[0])
    rng = random.Random(seed)

    def legal(x, y):
        if x + size > width or y + size > height:
            return False
        return all(rows[y + j][x + i] in ok
                   for j in range(size) for i in range(size))

    points = []
    for _ in range(1000 * 2 * count):
        if len(points) == 2 * count:
            break
        x, y = rng.randrange(width), rng.randrange(height)
        if legal(x, y):
            points.append((x, y))
    if len(points) < 2 * count:
        sys.exit(f'{path}: found {len(points)} legal anchors, need {2 * count}')
    with open(out, 'w') as f:
        f.write('version 1\n')
        for i in range(count):
            (sx, sy), (gx, gy) = points[2 * i], points[2 * i + 1]
            f.write(f'0\t{path}\t{width}\t{height}\t{sx}\t{sy}\t{gx}\t{gy}\t0\n')


if __name__ == '__main__':
    main()
