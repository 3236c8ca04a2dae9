"""zonepath.Planner, PathCursor and plan_batch on a generated world."""

import numpy as np
import pytest

import zonepath
from conftest import walk

START, GOAL = (2, 60), (93, 3)


def test_find_path_is_legal_with_walked_cost(world, grid):
    planner = zonepath.Planner(world)
    for smooth in (False, True):
        path = planner.find_path(START, GOAL, smooth=smooth)
        assert path.found and path.start == START and path.end == GOAL
        end, cost = walk(grid, path.start, path.runs)
        assert end == GOAL
        assert cost == pytest.approx(path.cost, rel=1e-12)
        cells = path.cells
        assert cells.shape == (path.steps + 1, 2)
        assert tuple(cells[0]) == START and tuple(cells[-1]) == GOAL
        assert np.abs(np.diff(cells, axis=0)).max() == 1
        assert path.stats["expanded"] > 0 and path.stats["time_us"] >= 0
        assert len(path) == path.steps
    assert planner.find_path(START, START).steps == 0


def test_stats_split_refinement_by_level(grid):
    # Zones of 8, 16 and 32 cells: this query plans on level 2 (its ends
    # are under four level-3 zones apart) and refines levels 2 and 1.
    world = zonepath.World.build(grid, zone_size=8, levels=3, group=2,
                                 threads=1)
    planner = zonepath.Planner(world)
    for smooth in (False, True):
        stats = planner.find_path(START, GOAL, smooth=smooth).stats
        assert not stats["used_direct"] and stats["top_level"] >= 2
        levels = stats["refine_levels"]
        assert [l["level"] for l in levels] == list(
            range(1, stats["top_level"] + 1))
        assert all(l["windows"] > 0 for l in levels)
        # No free crossings, so level 1 cannot fall back; level 2 does not
        # on this query.
        assert all(l["fallbacks"] == 0 for l in levels)
        assert all(l["expanded"] > 0 for l in levels[1:])  # window searches
        assert sum(l["expanded"] for l in levels) == \
            stats["refine"]["expanded"]
    assert planner.find_path(START, START).stats["refine_levels"] == []


def test_abstract_weight_gives_legal_paths_and_is_range_checked(world, grid):
    planner = zonepath.Planner(world)
    exact = planner.find_path(START, GOAL)
    for weight in (1.0, 1.5, 10.0):
        path = planner.find_path(START, GOAL, abstract_weight=weight)
        end, cost = walk(grid, path.start, path.runs)
        assert path.found and end == GOAL
        assert cost == pytest.approx(path.cost, rel=1e-12)
        if weight == 1.0:  # the default: the same search
            assert path.runs_string == exact.runs_string
    cursor = planner.plan(START, GOAL, abstract_weight=1.5)
    while not cursor.done:
        cursor.next(64)
    assert cursor.position == GOAL
    batch = zonepath.plan_batch(world, [START + GOAL], threads=1,
                                abstract_weight=2.0)
    assert batch[0].found and batch[0].end == GOAL
    for bad in (0.5, 11.0, float("nan")):
        with pytest.raises(zonepath.Error) as e:
            planner.find_path(START, GOAL, abstract_weight=bad)
        assert e.value.code == "INVALID_ARGUMENT"
        assert "abstract_weight" in str(e.value)


def test_free_crossings_give_legal_paths_everywhere(world, grid):
    planner = zonepath.Planner(world)
    plain = planner.find_path(START, GOAL)
    path = planner.find_path(START, GOAL, free_crossings=True)
    end, cost = walk(grid, path.start, path.runs)
    assert path.found and end == GOAL
    assert cost == pytest.approx(path.cost, rel=1e-12)
    # On this map the crossings re-chosen give a shorter path (138.71
    # against 140.47): the option reaches the planner.
    assert path.cost < plain.cost - 1e-9
    cursor = planner.plan(START, GOAL, free_crossings=True)
    runs = []
    while not cursor.done:
        runs.extend(tuple(r) for r in cursor.next(16))
    assert cursor.position == GOAL
    assert walk(grid, START, np.array(runs))[1] == pytest.approx(path.cost)
    batch = zonepath.plan_batch(world, [START + GOAL], threads=1,
                                free_crossings=True)
    assert batch[0].runs_string == path.runs_string


def test_smoothing_by_string_pulling_or_by_search(grid):
    # On a grid of one cost `smooth` pulls the path tight; with
    # smooth_by_search it searches windows again. Either way: legal, its
    # walked cost, no longer than unsmoothed, the same by find_path, plan
    # and plan_batch.
    one_cost = np.where(grid > 0, 1, 0).astype(np.uint8)
    world = zonepath.World.build(one_cost, zone_size=16, threads=1)
    planner = zonepath.Planner(world)
    plain = planner.find_path(START, GOAL)
    # On this map the searched path is the shorter (120.47 against
    # 121.05): the option reaches the planner.
    assert planner.find_path(START, GOAL, smooth=True,
                             smooth_by_search=True).cost < planner.find_path(
                                 START, GOAL, smooth=True).cost - 1e-9
    for by_search in (False, True):
        path = planner.find_path(START, GOAL, smooth=True,
                                 smooth_by_search=by_search)
        end, cost = walk(one_cost, path.start, path.runs)
        assert path.found and end == GOAL
        assert cost == pytest.approx(path.cost, rel=1e-12)
        assert path.cost <= plain.cost + 1e-9
        cursor = planner.plan(START, GOAL, smooth=True,
                              smooth_by_search=by_search)
        runs = []
        while not cursor.done:
            runs.extend(tuple(r) for r in cursor.next(16))
        assert walk(one_cost, START, np.array(runs))[1] == pytest.approx(
            path.cost)
        batch = zonepath.plan_batch(world, [START + GOAL], threads=1,
                                    smooth=True, smooth_by_search=by_search)
        assert batch[0].runs_string == path.runs_string


def test_unreachable_is_not_an_error(world):
    path = zonepath.Planner(world).find_path(START, (85, 55))
    assert not path.found and path.steps == 0 and path.runs.shape == (0, 2)


def test_bad_endpoints_raise_with_message(world):
    planner = zonepath.Planner(world)
    with pytest.raises(zonepath.Error) as e:
        planner.find_path(START, (48, 20))  # in the wall
    assert e.value.code == "INVALID_ARGUMENT" and "(48,20)" in str(e.value)
    with pytest.raises(zonepath.Error, match="INVALID|outside|grid"):
        planner.find_path((500, 1), GOAL)
    with pytest.raises(ValueError, match="start must be an"):
        planner.find_path("no", GOAL)
    with pytest.raises(ValueError, match="goal must be an"):
        planner.find_path(START, (1, 2, 3))
    with pytest.raises(ValueError, match="direct_search_zones"):
        planner.find_path(START, GOAL, direct_search_zones=-1)


def test_cursor_yields_the_find_path_moves(world):
    planner = zonepath.Planner(world)
    expected = planner.find_path(START, GOAL).runs_string
    cursor = planner.plan(START, GOAL)
    moves = []
    while not cursor.done:
        chunk = cursor.next(8)
        assert chunk.shape[0] > 0
        moves.extend((int(d), int(c)) for d, c in chunk)
    assert cursor.position == GOAL
    assert cursor.next(8).shape == (0, 2)
    merged = []
    for d, c in moves:
        if merged and merged[-1][0] == d:
            merged[-1] = (d, merged[-1][1] + c)
        else:
            merged.append((d, c))
    text = ",".join(f"{zonepath.DIRECTIONS[d]}{c}" for d, c in merged)
    assert text == expected


def test_cursor_goes_stale_and_checks_arguments(world):
    planner = zonepath.Planner(world)
    cursor = planner.plan(START, GOAL)
    with pytest.raises(ValueError, match="min_steps"):
        cursor.next(0)
    planner.find_path(START, GOAL)
    with pytest.raises(zonepath.Error) as e:
        cursor.next(4)
    assert e.value.code == "FAILED_PRECONDITION"
    assert planner.plan(START, (85, 55)).done  # unreachable


def random_queries(grid, n, seed):
    rng = np.random.default_rng(seed)
    open_cells = np.argwhere(grid > 0)
    picks = open_cells[rng.integers(0, len(open_cells), size=(n, 2))]
    # argwhere gives (y, x): rows of (sx, sy, gx, gy).
    return np.stack([picks[:, 0, 1], picks[:, 0, 0], picks[:, 1, 1],
                     picks[:, 1, 0]], axis=1)


def test_plan_batch_same_on_1_and_2_threads_and_as_find_path(world, grid):
    queries = random_queries(grid, 300, seed=5)
    one = zonepath.plan_batch(world, queries, threads=1)
    two = zonepath.plan_batch(world, queries, threads=2)
    planner = zonepath.Planner(world)
    assert len(one) == len(two) == len(queries)
    found = 0
    for q, a, b in zip(queries, one, two):
        assert a.found == b.found
        assert np.array_equal(a.runs, b.runs) and a.cost == b.cost
        single = planner.find_path((q[0], q[1]), (q[2], q[3]))
        assert single.found == a.found
        assert np.array_equal(single.runs, a.runs) and single.cost == a.cost
        found += a.found
    assert found > 200  # the pocket is small: most queries are reachable
    smooth = zonepath.plan_batch(world, queries[:20], threads=2, smooth=True)
    for q, s in zip(queries[:20], smooth):
        single = planner.find_path((q[0], q[1]), (q[2], q[3]), smooth=True)
        assert np.array_equal(single.runs, s.runs) and single.cost == s.cost


def test_plan_batch_errors_name_the_query(world):
    with pytest.raises(zonepath.Error) as e:
        zonepath.plan_batch(world, [(2, 60, 93, 3), (2, 60, 48, 20)])
    assert e.value.code == "INVALID_ARGUMENT" and "query 1" in str(e.value)
    with pytest.raises(ValueError, match=r"\(n, 4\)"):
        zonepath.plan_batch(world, [(1, 2, 3)])
    with pytest.raises(ValueError, match="threads"):
        zonepath.plan_batch(world, [(2, 60, 93, 3)], threads=-1)
    # Not truncated to integers (0.5 used to plan from 0).
    with pytest.raises(ValueError, match="integers"):
        zonepath.plan_batch(world, [(0.5, 60, 93, 3)])
    with pytest.raises(ValueError, match="integers"):
        zonepath.plan_batch(world, [(float("nan"), 60, 93, 3)])


def test_planner_keeps_its_world_alive(grid):
    planner = zonepath.Planner(zonepath.World.build(grid, zone_size=16))
    import gc
    gc.collect()
    assert planner.find_path(START, GOAL).found
    assert planner.world.width == 96 and planner.memory_bytes > 0
