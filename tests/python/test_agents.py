"""zonepath.AgentWorld and AgentPlanner: queries by class on an agent world
built by the tool, oriented classes included; the same answers as the
tool's own queries; errors."""

import json
import os
import subprocess

import pytest

import zonepath
from conftest import source_dir

STEP = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
        "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}


@pytest.fixture(scope="module")
def agent_world(tmp_path_factory):
    tool = os.environ.get("ZONEPATH_TOOL")
    if not tool:
        pytest.skip("needs ZONEPATH_TOOL")
    tmp = tmp_path_factory.mktemp("agents")
    agents = os.path.join(source_dir(), "data", "agents", "example.agents")
    map_path, zpa = str(tmp / "m.map"), str(tmp / "w.zpa")
    for args in (("gen", map_path, "--kind", "mixed", "--width", "160",
                  "--height", "128", "--seed", "3"),
                 ("build", map_path, "-o", zpa, "--agents", agents,
                  "--zone-size", "16")):
        subprocess.run([tool, *args], check=True, stdout=subprocess.DEVNULL)
    return tool, zpa


def tool_query(tool, zpa, agent, start, goal):
    out = subprocess.run(
        [tool, "query", zpa, str(start[0]), str(start[1]), str(goal[0]),
         str(goal[1]), "--agent", agent, "--json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def walk(path):
    """The end anchor of an AgentPath's runs (positions only)."""
    x, y = path.start
    for action, what, count in path.runs:
        if action == "turn":
            continue
        dx, dy = STEP[what]
        if action == "backward":
            dx, dy = -dx, -dy
        x, y = x + dx * count, y + dy * count
    return (x, y)


def test_plans_every_kind_of_class_like_the_tool(agent_world):
    tool, zpa = agent_world
    world = zonepath.AgentWorld.load(zpa)
    assert "tank" in world.classes and "wagon" in world.oriented
    assert (world.width, world.height) == (160, 128)
    assert world.memory_bytes > 160 * 128
    planner = zonepath.AgentPlanner(world)
    found = 0
    for agent in ("tank", "wagon", "infantry"):
        for start, goal in (((2, 2), (150, 120)), ((10, 100), (140, 20))):
            try:
                path = planner.find_path(agent, start, goal)
            except zonepath.Error as e:  # an endpoint the class cannot use
                assert e.code == "INVALID_ARGUMENT"
                continue
            want = tool_query(tool, zpa, agent, start, goal)
            if not path.found:
                assert want["status"] == "unreachable"
                continue
            found += 1
            assert walk(path) == goal
            assert path.cost == pytest.approx(want["cost"], rel=1e-12)
            assert path.moves == want["moves"]
            if agent == "wagon":
                assert path.turns > 0
            else:
                assert path.turns == 0 and path.merged == 0
    assert found >= 3


def test_errors(agent_world):
    _, zpa = agent_world
    planner = zonepath.AgentPlanner(zonepath.AgentWorld.load(zpa))
    with pytest.raises(zonepath.Error) as e:
        planner.find_path("zeppelin", (2, 2), (20, 20))
    assert e.value.code == "INVALID_ARGUMENT" and "zeppelin" in str(e.value)
    with pytest.raises(ValueError, match="start_heading"):
        planner.find_path("wagon", (2, 2), (20, 20), start_heading="UP")
    only = zonepath.AgentPlanner(
        zonepath.AgentWorld.load(zpa, classes=["tank"]))
    with pytest.raises(zonepath.Error) as e:
        only.find_path("wagon", (2, 2), (20, 20))
    assert e.value.code == "FAILED_PRECONDITION"
    with pytest.raises(zonepath.Error) as e:
        zonepath.AgentWorld.load(zpa + ".missing")
    assert "missing" in str(e.value)
    with pytest.raises(ValueError, match="classes is empty"):
        zonepath.AgentWorld.load(zpa, classes=[])


def test_one_planner_shared_by_threads_takes_turns(agent_world):
    """Python threads sharing one AgentPlanner (the GIL is released while it
    plans) take turns: the same answers as alone, no crash."""
    import threading
    _, zpa = agent_world
    world = zonepath.AgentWorld.load(zpa)
    shared = zonepath.AgentPlanner(world)
    queries = [("infantry", (2, 2), (150, 120)), ("wagon", (2, 2), (150, 120)),
               ("tank", (10, 100), (140, 20))]
    want = {}
    alone = zonepath.AgentPlanner(world)
    for agent, s, g in queries:
        try:
            p = alone.find_path(agent, s, g)
            want[agent] = (p.found, p.moves, p.cost)
        except zonepath.Error:
            want[agent] = "error"
    mismatches = []

    def work(k):
        for i in range(30):
            agent, s, g = queries[(i + k) % len(queries)]
            try:
                p = shared.find_path(agent, s, g)
                got = (p.found, p.moves, p.cost)
            except zonepath.Error:
                got = "error"
            if got != want[agent]:
                mismatches.append((agent, got, want[agent]))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not mismatches


def test_build_and_save_like_the_tool(agent_world, tmp_path):
    """AgentWorld.build gives the world `zonepath build --agents` gives:
    saved, its file is byte for byte the tool's, and it plans the same."""
    _, zpa = agent_world
    agents = os.path.join(source_dir(), "data", "agents", "example.agents")
    map_path = os.path.join(os.path.dirname(zpa), "m.map")
    built = zonepath.AgentWorld.build(map_path, agents, zone_size=16,
                                      threads=1)
    assert built.classes == zonepath.AgentWorld.load(zpa).classes
    out = str(tmp_path / "built.zpa")
    built.save(out)
    with open(out, "rb") as a, open(zpa, "rb") as b:
        assert a.read() == b.read()
    # Class worlds as world files (format version 1): larger, the same
    # classes and paths when loaded.
    plain = str(tmp_path / "plain.zpa")
    built.save(plain, compact_classes=False)
    assert os.path.getsize(plain) > os.path.getsize(out)
    with open(plain, "rb") as f:
        assert f.read(12)[8:] == (1).to_bytes(4, "little")
    reloaded = zonepath.AgentWorld.load(plain)
    assert reloaded.classes == built.classes
    a = zonepath.AgentPlanner(reloaded).find_path("wagon", (2, 2), (150, 120))
    b = zonepath.AgentPlanner(built).find_path("wagon", (2, 2), (150, 120))
    assert (a.found, a.moves, a.cost) == (b.found, b.moves, b.cost)
    some = zonepath.AgentWorld.build(map_path, agents, classes=["wagon"],
                                     zone_size=16)
    assert some.classes == ["wagon"] and some.oriented == ["wagon"]
    path = zonepath.AgentPlanner(some).find_path("wagon", (2, 2), (150, 120))
    want = zonepath.AgentPlanner(built).find_path("wagon", (2, 2), (150, 120))
    assert (path.found, path.moves, path.cost) == (want.found, want.moves,
                                                   want.cost)
    with pytest.raises(zonepath.Error) as e:
        zonepath.AgentWorld.build(map_path, agents, zone_size=2)
    assert e.value.code == "INVALID_ARGUMENT"
    bad = tmp_path / "bad.agents"
    bad.write_text("terrain ground 1 .\nclass big size 9 cost ground=1\n")
    with pytest.raises(zonepath.Error) as e:
        zonepath.AgentWorld.build(map_path, str(bad))
    assert e.value.code == "INVALID_ARGUMENT" and "bad.agents:2" in str(e.value)
    with pytest.raises(zonepath.Error):
        built.save(str(tmp_path / "no_such_dir" / "x.zpa"))
