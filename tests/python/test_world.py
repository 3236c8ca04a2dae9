"""zonepath.World: building, loading, saving, properties, changes, errors."""

import os
import subprocess

import numpy as np
import pytest

import zonepath
from conftest import room_grid, source_dir


def test_build_from_numpy_keeps_the_grid(world, grid):
    assert (world.width, world.height) == (96, 64)
    assert world.shape == grid.shape
    assert world.levels >= 1 and world.zone_size == 16
    assert world.connectivity == 8 and world.version == 0
    assert world.memory_bytes >= grid.size
    assert np.array_equal(world.costs, grid)


def test_build_from_map_file(tmp_path):
    path = tmp_path / "small.map"
    path.write_text("type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n")
    world = zonepath.World.build(str(path))
    assert world.shape == (3, 4)
    assert world.costs[1, 1] == 0 and world.costs[0, 0] == 1
    assert zonepath.World.build(path).shape == (3, 4)  # os.PathLike


def test_bad_map_file_names_file_and_line(tmp_path):
    path = tmp_path / "bad.map"
    path.write_text("type octile\nheight 2\nwidth 3\nmap\n...\n.?.\n")
    with pytest.raises(zonepath.Error) as e:
        zonepath.World.build(str(path))
    assert e.value.code == "INVALID_ARGUMENT"
    assert "bad.map:6" in str(e.value)


def test_bad_grids_raise():
    with pytest.raises(TypeError, match="uint8"):
        zonepath.World.build(np.ones((8, 8)))
    with pytest.raises(ValueError, match="2-D"):
        zonepath.World.build(np.ones((8, 8, 2), dtype=np.uint8))
    with pytest.raises(TypeError):
        zonepath.World.build([[1, 1], [1, 1]])
    with pytest.raises(zonepath.Error, match="zone_size 3 not in 4..1024"):
        zonepath.World.build(room_grid(), zone_size=3)
    with pytest.raises(ValueError, match="connectivity"):
        zonepath.World.build(room_grid(), connectivity=6)
    # A view that costs no memory but stands for too many cells is refused
    # by its size before any copy (it used to crash copying it).
    with pytest.raises(zonepath.Error, match="65536"):
        zonepath.World.build(np.broadcast_to(np.uint8(1), (200000, 200000)))
    with pytest.raises(ValueError, match="threads"):
        zonepath.World.build(room_grid(), threads=-5)


def test_non_contiguous_grid_is_read_correctly(grid):
    view = np.asfortranarray(grid)
    assert np.array_equal(zonepath.World.build(view, zone_size=16).costs, grid)


def test_save_load_round_trip(world, grid, tmp_path):
    path = str(tmp_path / "w.zpw")
    world.save(path)
    loaded = zonepath.World.load(path)
    assert np.array_equal(loaded.costs, grid)
    assert (loaded.zone_size, loaded.levels) == (16, world.levels)
    a = zonepath.Planner(world).find_path((2, 60), (93, 3))
    b = zonepath.Planner(loaded).find_path((2, 60), (93, 3))
    assert np.array_equal(a.runs, b.runs) and a.cost == b.cost


def test_load_errors_name_the_file(tmp_path):
    with pytest.raises(zonepath.Error) as e:
        zonepath.World.load(str(tmp_path / "missing.zpw"))
    assert e.value.code == "NOT_FOUND" and "missing.zpw" in str(e.value)
    junk = tmp_path / "junk.zpw"
    junk.write_bytes(b"ZONEPATH" + bytes(200))
    with pytest.raises(zonepath.Error) as e:
        zonepath.World.load(str(junk))
    assert e.value.code in ("DATA_LOSS", "FAILED_PRECONDITION")
    assert "junk.zpw" in str(e.value)
    with pytest.raises(zonepath.Error):
        zonepath.World.build(room_grid()).save(
            os.path.join(str(tmp_path), "no_dir", "x.zpw"))


def test_apply_changes_makes_a_new_version(world, grid):
    closed = world.apply_changes([(48, 5, 0), (10, 10, 7)])
    assert closed.version == 1 and world.version == 0
    assert closed.costs[5, 48] == 0 and closed.costs[10, 10] == 7
    assert world.costs[5, 48] == 1  # the old version is unchanged
    assert closed.owned_bytes < closed.memory_bytes
    assert not zonepath.Planner(closed).find_path((2, 60), (93, 3)).found
    assert zonepath.Planner(world).find_path((2, 60), (93, 3)).found
    same = world.apply_changes(np.zeros((0, 3), dtype=np.int64))
    assert same.version == 1 and np.array_equal(same.costs, grid)


def test_changes_must_be_integers(world):
    with pytest.raises(ValueError, match="integers"):
        world.apply_changes([(1.5, 2, 3)])
    with pytest.raises(ValueError, match="threads"):
        world.apply_changes([(1, 2, 3)], threads=-1)


def test_bad_changes_name_the_change(world):
    with pytest.raises(zonepath.Error) as e:
        world.apply_changes([(1, 1, 0), (500, 1, 0)])
    assert e.value.code == "INVALID_ARGUMENT" and "change 1" in str(e.value)
    with pytest.raises(zonepath.Error, match="change 0"):
        world.apply_changes([(1, 1, 300)])
    with pytest.raises(ValueError, match="triples"):
        world.apply_changes([(1, 1)])


def test_docstrings_everywhere():
    for name in zonepath.__all__:
        obj = getattr(zonepath, name)
        if callable(obj):
            assert obj.__doc__, name
    for cls in (zonepath.World, zonepath.Planner, zonepath.PathCursor,
                zonepath.Path, zonepath.PathStore, zonepath.AgentWorld,
                zonepath.AgentPlanner, zonepath.AgentPath):
        for attr, member in vars(cls).items():
            if attr.startswith("_"):
                continue
            assert getattr(member, "__doc__", None), f"{cls.__name__}.{attr}"


def test_load_a_class_of_an_agent_world(tmp_path):
    """World.load(path, agent=C) gives class C's world of an agent world
    (built by the tool): the same paths as the class's own world file."""
    tool = os.environ.get("ZONEPATH_TOOL")
    if not tool:
        pytest.skip("needs ZONEPATH_TOOL")
    agents = os.path.join(source_dir(), "data", "agents", "example.agents")
    map_path, zpa, zpw = (str(tmp_path / n) for n in ("m.map", "w.zpa", "t.zpw"))

    def run(*args):
        subprocess.run([tool, *args], check=True, stdout=subprocess.DEVNULL)

    run("gen", map_path, "--kind", "mixed", "--width", "160", "--height",
        "128", "--seed", "3")
    run("build", map_path, "-o", zpa, "--agents", agents, "--zone-size", "16")
    run("build", map_path, "-o", zpw, "--agents", agents, "--agent", "tank",
        "--zone-size", "16")
    shared = zonepath.World.load(zpa, agent="tank")
    own = zonepath.World.load(zpw)
    assert np.array_equal(shared.costs, own.costs)
    free = np.argwhere(own.costs > 0)
    a, b = tuple(free[0][::-1]), tuple(free[-1][::-1])
    p = zonepath.Planner(shared).find_path(a, b)
    q = zonepath.Planner(own).find_path(a, b)
    assert np.array_equal(p.runs, q.runs) and p.cost == q.cost
    # "default" when no class is named; errors name the file or the class.
    assert zonepath.World.load(zpa).width == 160
    with pytest.raises(zonepath.Error) as e:
        zonepath.World.load(zpa, agent="zeppelin")
    assert e.value.code == "INVALID_ARGUMENT" and "zeppelin" in str(e.value)
    with pytest.raises(zonepath.Error) as e:
        zonepath.World.load(zpa, agent="wagon")
    assert e.value.code == "INVALID_ARGUMENT" and "oriented" in str(e.value)
    with pytest.raises(zonepath.Error) as e:
        zonepath.World.load(zpw, agent="tank")
    assert e.value.code == "INVALID_ARGUMENT" and "t.zpw" in str(e.value)


def test_connection_tables_are_optional_and_change_no_path():
    grid = np.ones((512, 512), dtype=np.uint8)
    grid[100:400:50, 20:490] = 0
    grid[100:400:50, 250] = 1
    tabled = zonepath.World.build(grid, zone_size=16, group=2, levels=4)
    plain = zonepath.World.build(grid, zone_size=16, group=2, levels=4,
                                 connection_tables=False)
    assert tabled.memory_bytes > plain.memory_bytes
    a = zonepath.Planner(tabled).find_path((5, 5), (500, 500))
    b = zonepath.Planner(plain).find_path((5, 5), (500, 500))
    assert a.end == b.end == (500, 500)
    assert np.array_equal(a.runs, b.runs) and a.cost == b.cost


def test_beacon_spacing_adds_beacons_and_is_range_checked():
    grid = room_grid()
    plain = zonepath.World.build(grid, zone_size=16)
    spaced = zonepath.World.build(grid, zone_size=16, beacon_spacing=4)
    assert spaced.memory_bytes > plain.memory_bytes
    assert (plain.beacon_spacing, spaced.beacon_spacing) == (0, 4)
    a = zonepath.Planner(plain).find_path((5, 5), (70, 40))
    b = zonepath.Planner(spaced).find_path((5, 5), (70, 40))
    assert a.end == b.end == (70, 40)
    with pytest.raises(zonepath.Error, match="beacon_spacing 1 not 0 or in 2..1024"):
        zonepath.World.build(grid, zone_size=16, beacon_spacing=1)
