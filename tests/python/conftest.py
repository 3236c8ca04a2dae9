"""Shared fixtures of the zonepath Python tests (run by ctest: PYTHONPATH
points at build/python, ZONEPATH_SOURCE_DIR at the repository and
ZONEPATH_TOOL at the built `zonepath` tool)."""

import math
import os

import numpy as np
import pytest

import zonepath

DX = (0, 1, 1, 1, 0, -1, -1, -1)
DY = (-1, -1, 0, 1, 1, 1, 0, -1)


def walk(costs, start, runs):
    """Walks runs over a (h, w) cost array: asserts every step is legal and
    returns (end cell, summed step cost)."""
    h, w = costs.shape
    x, y = start
    total = 0.0
    for d, count in runs:
        dx, dy = DX[d], DY[d]
        for _ in range(count):
            nx, ny = x + dx, y + dy
            assert 0 <= nx < w and 0 <= ny < h, (x, y, d)
            a, b = int(costs[y, x]), int(costs[ny, nx])
            assert a > 0 and b > 0, ("blocked", x, y, d)
            if dx and dy:
                assert costs[y, nx] > 0 and costs[ny, x] > 0, ("corner", x, y)
            total += (a + b) / 2.0 * (math.sqrt(2.0) if dx and dy else 1.0)
            x, y = nx, ny
    return (x, y), total


def room_grid():
    """96 x 64: cost-3 band, a wall with one gap at (48, 5), a closed pocket."""
    g = np.ones((64, 96), dtype=np.uint8)
    g[:, 20:26] = 3
    g[:, 48] = 0
    g[5, 48] = 1
    g[50:61, 80] = 0
    g[50:61, 90] = 0
    g[50, 80:91] = 0
    g[60, 80:91] = 0
    return g


@pytest.fixture
def grid():
    return room_grid()


@pytest.fixture
def world(grid):
    return zonepath.World.build(grid, zone_size=16, threads=1)


def source_dir():
    return os.environ.get(
        "ZONEPATH_SOURCE_DIR",
        os.path.join(os.path.dirname(__file__), "..", ".."))


def shared_maps():
    return os.path.join(source_dir(), "..", "shared", "maps")
