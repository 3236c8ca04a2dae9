"""zonepath.PathStore, the codecs, and render()."""

import numpy as np
import pytest

import zonepath
from conftest import DX, DY

START, GOAL = (2, 60), (93, 3)


@pytest.fixture
def path(world):
    return zonepath.Planner(world).find_path(START, GOAL, smooth=True)


@pytest.mark.parametrize("codec", zonepath.CODECS)
def test_store_round_trip_and_advance(path, codec):
    store = zonepath.PathStore(codec)
    assert store.codec == codec and len(store) == 0
    store.set(1, path)
    store.set(2, path, max_steps=10)
    assert 1 in store and 3 not in store and len(store) == 2
    assert np.array_equal(store.read(1), path.runs)
    assert store.remaining(1) == path.steps and store.remaining(2) == 10
    assert store.position(1) == START
    store.advance(1, 3)
    assert store.remaining(1) == path.steps - 3
    assert store.position(1) == tuple(path.cells[3])
    assert store.cell_at(1, 5) == tuple(path.cells[8])
    head = store.read(1, 4)
    assert head[:, 1].sum() == 4
    stats = store.stats
    assert stats["units"] == 2 and stats["encoded_bytes"] > 0
    assert store.memory_bytes == stats["memory_bytes"] > stats["encoded_bytes"]
    assert store.remove(2) and not store.remove(2)
    store.set(3, (START, path.runs))  # (start, runs) pair


def test_store_errors(path):
    store = zonepath.PathStore()
    with pytest.raises(zonepath.Error) as e:
        store.read(9)
    assert e.value.code == "NOT_FOUND"
    store.set(1, path)
    with pytest.raises(zonepath.Error):
        store.advance(1, path.steps + 1)
    with pytest.raises(ValueError, match="codec"):
        zonepath.PathStore("zip")
    with pytest.raises(ValueError, match=r"runs\[1\]"):
        store.set(2, (START, [(2, 3), (9, 1)]))
    with pytest.raises(TypeError):
        store.set(2, 42)


def test_codecs_sizes_and_round_trip(path):
    sizes = {}
    for codec in zonepath.CODECS:
        data = zonepath.encode_path(path, codec)
        start, runs = zonepath.decode_path(data)
        assert start == START and np.array_equal(runs, path.runs)
        sizes[codec] = len(data)
    assert sizes["run_length"] < sizes["raw_cells"]
    with pytest.raises(zonepath.Error) as e:
        zonepath.decode_path(zonepath.encode_path(path)[:-3])
    assert e.value.code == "DATA_LOSS"


def test_render_draws_terrain_and_paths(world, grid, path):
    image = zonepath.render(world, [path], cell_px=2)
    assert image.shape == (128, 192, 3) and image.dtype == np.uint8
    wall = image[2 * 20, 2 * 48]
    ground = image[2 * 30, 2 * 5]
    band = image[2 * 30, 2 * 22]
    assert tuple(wall) == (40, 40, 40)
    assert ground.sum() > band.sum() > wall.sum()
    x, y = path.cells[len(path.cells) // 2]
    assert tuple(image[2 * y, 2 * x]) == (220, 30, 30)
    assert zonepath.render(world).shape == (64, 96, 3)
    with pytest.raises(ValueError, match="cell_px"):
        zonepath.render(world, cell_px=0)
    # Paths are checked before a cell is drawn: one leaving the world, or
    # the coordinate range, or longer than 2^32-1 moves, is an error (a
    # run of 2^32-1 moves used to wrap or spin for minutes).
    Path = type("Path", (), {})
    far = Path()
    far.start, far.runs = (0, 0), np.array([[2, 200]])
    with pytest.raises(ValueError, match="leaves the world"):
        zonepath.render(world, [far])
    huge = Path()
    huge.start, huge.runs = (0, 0), np.array([[2, 2**32 - 1], [6, 2**32 - 1]])
    with pytest.raises(ValueError, match="coordinate range"):
        zonepath.render(world, [huge])


def test_direction_table_matches_cells(path):
    x, y = path.start
    for d, count in path.runs:
        x, y = x + DX[d] * count, y + DY[d] * count
    assert (x, y) == path.end == GOAL
