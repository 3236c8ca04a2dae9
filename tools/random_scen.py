#!/usr/bin/env python3
"""Writes a MovingAI .scen of random long queries for a .map, for timing.

usage: tools/random_scen.py MAP OUT.scen COUNT SEED

Endpoints are passable cells at least a third of the map's longer side apart
(Chebyshev); the optimal length is written as 0 (unknown), so `zonepath scen`
reports times but no suboptimality. Same arguments, same file.
"""
import random
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, out, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open(path, 'rb') as f:
        f.readline()
        height = int(f.readline().split()[1])
        width = int(f.readline().split()[1])
        f.readline()
        rows = [f.readline().rstrip(b'\n') for _ in range(height)]
    rng = random.Random(seed)
    blocked = set(b'@OTW')

    def cell():
        while True:
            x, y = rng.randrange(width), rng.randrange(height)
            if rows[y][x] not in blocked:
                return x, y

    name = path.split('/')[-1]
    with open(out, 'w') as f:
        f.write('version 1\n')
        written = 0
        while written < count:
            (sx, sy), (gx, gy) = cell(), cell()
            if max(abs(sx - gx), abs(sy - gy)) < max(width, height) // 3:
                continue
            f.write(f'0\t{name}\t{width}\t{height}\t{sx}\t{sy}\t{gx}\t{gy}\t0\n')
            written += 1


if __name__ == '__main__':
    main()
