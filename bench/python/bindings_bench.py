#!/usr/bin/env python3
"""What the Python bindings cost over calling the C++ library directly.

1. find_path overhead on short queries: the same Planner and queries, timed
   in a C++ loop (zonepath._zonepath._time_find_path_cpp, no Python per
   query) and in a Python loop of Planner.find_path (argument parsing, GIL,
   result object); the difference per call is the overhead.
2. plan_batch throughput: zonepath.plan_batch (queries from NumPy, Path
   objects back) against the library's PlanBatch timed in C++
   (_time_plan_batch_cpp), same queries, same thread count.
Runs alternate and medians are reported (the machine is shared and noisy).

    PYTHONPATH=build/python /usr/bin/python3 bench/python/bindings_bench.py \
        ../shared/maps/dao/den520d.map [--threads 2] [--rounds 5]
"""

import argparse
import statistics
import time

import numpy as np

import zonepath
from zonepath import _zonepath


def read_scen(path):
    rows, lengths = [], []
    with open(path) as f:
        next(f)
        for line in f:
            f_ = line.split("\t")
            if len(f_) >= 9:
                rows.append([int(v) for v in f_[4:8]])
                lengths.append(float(f_[8]))
    return np.array(rows, dtype=np.int64), np.array(lengths)


def random_short_queries(world, planner, count, seed):
    """`count` reachable queries between open cells at most 8 apart."""
    costs = world.costs
    open_cells = np.argwhere(costs > 0)  # (y, x) rows
    rng = np.random.default_rng(seed)
    queries = []
    while len(queries) < count:
        y, x = open_cells[rng.integers(len(open_cells))]
        gx = int(x) + int(rng.integers(-8, 9))
        gy = int(y) + int(rng.integers(-8, 9))
        if not (0 <= gx < world.width and 0 <= gy < world.height):
            continue
        if costs[gy, gx] == 0 or (gx, gy) == (x, y):
            continue
        if planner.find_path((int(x), int(y)), (gx, gy)).found:
            queries.append([int(x), int(y), gx, gy])
    return np.array(queries, dtype=np.int64)


def compare_find_path(planner, queries, name, rounds):
    as_tuples = [((int(q[0]), int(q[1])), (int(q[2]), int(q[3])))
                 for q in queries]
    repeats = max(1, 20000 // len(queries))
    singles = [q.reshape(1, 4).copy() for q in queries]
    cpp_us, py_us, hook_us = [], [], []
    for _ in range(rounds):
        seconds = _zonepath._time_find_path_cpp(planner, queries, repeats)
        cpp_us.append(seconds / (repeats * len(queries)) * 1e6)
        begin = time.perf_counter()
        for _ in range(repeats):
            for s, g in as_tuples:
                planner.find_path(s, g)
        py_us.append((time.perf_counter() - begin) /
                     (repeats * len(queries)) * 1e6)
        # Control: the C++ loop entered once per query from Python, i.e.
        # the same interleaving with the interpreter but no find_path
        # binding (its own entry costs ~1 us).
        begin = time.perf_counter()
        for _ in range(repeats):
            for one in singles:
                _zonepath._time_find_path_cpp(planner, one, 1)
        hook_us.append((time.perf_counter() - begin) /
                       (repeats * len(queries)) * 1e6)
    cpp, py = statistics.median(cpp_us), statistics.median(py_us)
    hook = statistics.median(hook_us)
    # Each round times C++ and Python back to back, so the per-round
    # difference cancels most of the machine's slow drifts.
    diffs = sorted(p - c for p, c in zip(py_us, cpp_us))
    quartiles = statistics.quantiles(diffs, n=4) if len(diffs) > 1 else [
        diffs[0]] * 3
    print(f"find_path, {name}: C++ {cpp:.2f} us, Python {py:.2f} us, "
          f"overhead {quartiles[1]:.2f} us per call (median of per-round "
          f"differences; quartiles {quartiles[0]:.2f} .. {quartiles[2]:.2f}); "
          f"control (C++ entered per query from Python) {hook:.2f} us "
          f"({repeats} x {len(queries)} calls, {rounds} rounds)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--short", type=float, default=10.0,
                        help="short query: optimal length below this")
    args = parser.parse_args()

    world = zonepath.World.build(args.map)
    queries, lengths = read_scen(args.map + ".scen")
    short = queries[lengths < args.short]
    planner = zonepath.Planner(world)
    print(f"{world}; {len(short)} short queries (length < {args.short}); "
          f"{len(queries)} queries for the batch")

    # The short scenario queries, then start == goal on the same cells:
    # a query the library answers at once, so that the difference isolates
    # the binding's own cost from the noise of the search.
    trivial = np.concatenate([short[:, :2], short[:, :2]], axis=1)
    # The scenario's few short queries repeat thousands of times, so the
    # tight C++ loop runs them from hot caches; 2000 distinct short queries
    # (random open cells, goal within 8 cells, reachable) are closer to a
    # program that does other work between queries.
    distinct = random_short_queries(world, planner, 2000, args.seed)
    for name, qs in (("short queries", short), ("start == goal", trivial),
                     ("2000 distinct short queries", distinct)):
        compare_find_path(planner, qs, name, args.rounds)

    cpp_qps, py_qps = [], []
    for _ in range(args.rounds):
        seconds = _zonepath._time_plan_batch_cpp(world, queries, args.threads)
        cpp_qps.append(len(queries) / seconds)
        begin = time.perf_counter()
        zonepath.plan_batch(world, queries, threads=args.threads)
        py_qps.append(len(queries) / (time.perf_counter() - begin))
    cpp, py = statistics.median(cpp_qps), statistics.median(py_qps)
    print(f"plan_batch, {args.threads} threads: C++ {cpp:.0f} queries/s, "
          f"Python {py:.0f} queries/s, {100 * py / cpp:.1f}% "
          f"(medians of {args.rounds})")


if __name__ == "__main__":
    main()
