#!/usr/bin/env python3
"""Builds a world from a NumPy array, plans a batch of paths on 2 threads,
and saves a matplotlib figure of the paths over the terrain.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/batch_figure.py out.png
"""

import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import zonepath  # noqa: E402


def make_terrain(size=256, seed=1):
    """Open ground (cost 1), a marsh (cost 4), walls with doors."""
    rng = np.random.default_rng(seed)
    grid = np.ones((size, size), dtype=np.uint8)
    yy, xx = np.mgrid[0:size, 0:size]
    grid[(xx - 0.6 * size) ** 2 + (yy - 0.4 * size) ** 2 < (0.18 * size) ** 2] = 4
    for wall in range(size // 4, size, size // 4):
        grid[wall, :] = 0
        grid[:, wall] = 0
        for door in rng.integers(0, size, 6):
            grid[wall, door:door + 3] = 1
            grid[door:door + 3, wall] = 1
    return grid


def main(out):
    grid = make_terrain()
    world = zonepath.World.build(grid, zone_size=32)
    print(world)

    # Random (start, goal) pairs on open cells: rows of (sx, sy, gx, gy).
    rng = np.random.default_rng(7)
    open_cells = np.argwhere(grid > 0)[:, ::-1]  # (x, y)
    pairs = open_cells[rng.integers(0, len(open_cells), (8, 2))]
    queries = pairs.reshape(8, 4)
    paths = zonepath.plan_batch(world, queries, threads=2, smooth=True)
    for q, p in zip(queries, paths):
        print(tuple(q), "found" if p.found else "unreachable",
              f"cost {p.cost:.1f}, {p.steps} steps, {len(p.runs)} runs")

    fig, ax = plt.subplots(figsize=(6, 6))
    ax.imshow(zonepath.render(world), interpolation="nearest")
    for p in paths:
        if p.found:
            cells = p.cells
            ax.plot(cells[:, 0], cells[:, 1], linewidth=1.5)
            ax.plot(*cells[0], "o", color="black", markersize=3)
    ax.set_title("zonepath: smoothed paths, plan_batch on 2 threads")
    ax.set_axis_off()
    fig.savefig(out, dpi=100, bbox_inches="tight")
    print("wrote", out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "zonepath_paths.png")
