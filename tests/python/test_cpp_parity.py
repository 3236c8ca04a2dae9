"""Paths through the bindings equal the C++ library's on the shared MovingAI
maps: the `zonepath scen --algo hpa --paths` tool (C++) and Python plan the
same scenario problems on the same default world; every path (runs) and
cost must match. Needs ../shared/maps and the tool (ZONEPATH_TOOL)."""

import os
import subprocess

import numpy as np
import pytest

import zonepath
from conftest import shared_maps, walk

MAPS = ["dao/den520d", "cities/Berlin_1_256", "cities/Boston_0_1024"]


def read_scen(path):
    with open(path) as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("version")
    out = []
    for line in lines[1:]:
        if line.strip():
            f = line.split("\t")
            out.append((int(f[4]), int(f[5]), int(f[6]), int(f[7])))
    return np.array(out, dtype=np.int64)


def cpp_paths(tool, map_path, scen_path, out, smooth):
    args = [tool, "scen", map_path, scen_path, "--algo", "hpa", "--paths", out]
    if smooth:
        args.append("--smooth")
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    rows = []
    with open(out) as f:
        for line in f:
            index, outcome, cost, moves = line.rstrip("\n").split("\t")
            rows.append((outcome == "ok", float(cost), moves))
    return rows


@pytest.mark.parametrize("name", MAPS)
@pytest.mark.parametrize("smooth", [False, True])
def test_bindings_match_cpp(name, smooth, tmp_path):
    tool = os.environ.get("ZONEPATH_TOOL")
    map_path = os.path.join(shared_maps(), name + ".map")
    if not tool or not os.path.exists(map_path):
        pytest.skip("needs ../shared/maps and ZONEPATH_TOOL")
    if smooth and name.endswith("1024"):
        pytest.skip("smoothing is checked on the smaller maps (time)")
    scen_path = map_path + ".scen"
    queries = read_scen(scen_path)
    expected = cpp_paths(tool, map_path, scen_path, str(tmp_path / "p.txt"),
                         smooth)
    assert len(expected) == len(queries)

    world = zonepath.World.build(map_path)
    costs = world.costs
    planner = zonepath.Planner(world)
    batch = zonepath.plan_batch(world, queries, threads=2, smooth=smooth)
    for i, (q, (found, cost, moves)) in enumerate(zip(queries, expected)):
        path = planner.find_path((q[0], q[1]), (q[2], q[3]), smooth=smooth)
        assert path.found == found, i
        assert path.runs_string == moves, i
        assert path.cost == pytest.approx(cost, abs=2e-9, rel=1e-12), i
        assert batch[i].runs_string == moves and batch[i].cost == path.cost
        if i % 50 == 0 and found:
            end, walked = walk(costs, path.start, path.runs)
            assert end == (q[2], q[3])
            assert walked == pytest.approx(path.cost, rel=1e-12)
