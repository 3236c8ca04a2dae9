// zonepath.Path, zonepath.Planner, zonepath.PathCursor, zonepath.plan_batch
// and the benchmark hooks that time the same work without Python.
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "common.h"
#include "cursor_step.h"
#include "world.h"
#include "zonepath/runtime/batch.h"
#include "zonepath/runtime/planner.h"

namespace zonepath::python {
namespace {

struct PyPath {
  RunLengthPath path;
  bool found = false;
  PlanStats stats;
};

py::dict StageDict(const SearchStats& s) {
  py::dict d;
  d["expanded"] = s.expanded;
  d["generated"] = s.generated;
  d["time_us"] = absl::ToDoubleMicroseconds(s.time);
  return d;
}

py::dict StatsDict(const PlanStats& s) {
  py::dict d;
  d["expanded"] = s.total_expanded();
  d["time_us"] = absl::ToDoubleMicroseconds(s.total_time());
  d["connect"] = StageDict(s.connect);
  d["abstract"] = StageDict(s.abstract);
  d["refine"] = StageDict(s.refine);
  d["smooth"] = StageDict(s.smooth);
  d["direct"] = StageDict(s.direct);
  d["abstract_nodes"] = s.abstract_nodes;
  d["top_level"] = s.top_level;
  d["used_direct"] = s.used_direct;
  d["planned_cost"] = s.planned_cost;
  d["cost_before_smoothing"] = s.cost_before_smoothing;
  // Levels 1..top_level (none for a direct path): what refined each.
  py::list levels;
  const int top = s.used_direct ? 0 : s.top_level;
  for (int j = 1; j <= top && j < static_cast<int>(s.refine_levels.size());
       ++j) {
    py::dict l;
    l["level"] = j;
    l["windows"] = s.refine_levels[j].windows;
    l["expanded"] = s.refine_levels[j].expanded;
    l["fallbacks"] = s.refine_levels[j].fallbacks;
    levels.append(l);
  }
  d["refine_levels"] = levels;
  return d;
}

// abstract_weight is range-checked by the planner (zonepath.Error,
// INVALID_ARGUMENT outside [1, 10]).
PlanOptions Options(bool smooth, bool fewer_turns, double direct_zones,
                    double abstract_weight, bool free_crossings,
                    bool smooth_by_search) {
  if (!(direct_zones >= 0)) {
    throw py::value_error(
        absl::StrCat("direct_search_zones must be >= 0, got ", direct_zones));
  }
  PlanOptions options;
  options.smooth = smooth;
  options.fewer_turns = fewer_turns;
  options.direct_search_zones = direct_zones;
  options.abstract_weight = abstract_weight;
  options.free_crossings = free_crossings;
  options.smooth_by_search = smooth_by_search;
  return options;
}

struct PyPlanner {
  explicit PyPlanner(const PyWorld& w) : world(w.world), planner(*w.world) {}
  std::shared_ptr<const World> world;
  Planner planner;
  RunLengthPath scratch;  // keeps capacity between queries
  uint64_t generation = 0;
};

struct PyCursor {
  PyPlanner* owner;  // kept alive by py::keep_alive
  uint64_t generation;
  PathCursor cursor;
  Point position;
  bool more = true;
};

// Queries as (n, 4) int rows (sx, sy, gx, gy).
std::vector<BatchQuery> QueriesFrom(const py::object& queries) {
  const auto array = IntegerArray(queries, "queries");
  if (array.ndim() != 2 || array.shape(1) != 4) {
    throw py::value_error(
        "queries must be an (n, 4) array of (sx, sy, gx, gy) rows");
  }
  std::vector<BatchQuery> out;
  out.reserve(array.shape(0));
  auto view = array.unchecked<2>();
  for (py::ssize_t i = 0; i < array.shape(0); ++i) {
    int32_t v[4];
    for (int k = 0; k < 4; ++k) {
      if (view(i, k) < INT32_MIN || view(i, k) > INT32_MAX) {
        throw py::value_error(absl::StrCat("query ", i, ": coordinate ",
                                           view(i, k), " is out of range"));
      }
      v[k] = static_cast<int32_t>(view(i, k));
    }
    out.push_back({{v[0], v[1]}, {v[2], v[3]}});
  }
  return out;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

}  // namespace

void BindPlanner(py::module_& m) {
  py::class_<PyPath>(m, "Path", R"doc(
A planned path: its start, its moves as runs of (direction, count), its cost.

Directions are 0..7 = N, NE, E, SE, S, SW, W, NW (zonepath.DIRECTIONS);
N is y-1, E is x+1. An unreachable goal gives found == False and no moves.
)doc")
      .def_property_readonly(
          "found", [](const PyPath& p) { return p.found; },
          "False when the goal is unreachable from the start.")
      .def_property_readonly(
          "start", [](const PyPath& p) { return FromPoint(p.path.start()); },
          "The start cell (x, y).")
      .def_property_readonly(
          "end",
          [](const PyPath& p) {
            return FromPoint(
                CellAfterMoves(p.path.start(), p.path.runs(), p.path.steps()));
          },
          "The last cell (x, y): the goal when found.")
      .def_property_readonly(
          "runs", [](const PyPath& p) { return RunsArray(p.path.runs()); },
          "An (n, 2) int64 array of (direction 0..7, count) runs.")
      .def_property_readonly(
          "cells", [](const PyPath& p) { return CellsArray(p.path); },
          "An (steps + 1, 2) int64 array of (x, y): every cell from start "
          "to goal.")
      .def_property_readonly(
          "runs_string",
          [](const PyPath& p) { return RunsToString(p.path.runs()); },
          "The runs as text, e.g. 'E5,NE3,N12'.")
      .def_property_readonly(
          "cost", [](const PyPath& p) { return p.path.cost(); },
          "Summed step costs as walked (mean of the two cells' costs, x "
          "sqrt(2) on diagonals); 0 for an empty path.")
      .def_property_readonly(
          "steps", [](const PyPath& p) { return p.path.steps(); },
          "Number of moves.")
      .def_property_readonly(
          "stats", [](const PyPath& p) { return StatsDict(p.stats); },
          "Per-stage search statistics of the query, as a dict (expanded, "
          "time_us, connect/abstract/refine/smooth/direct stages, "
          "refine_levels: per level refined, its windows, expanded and "
          "fallbacks, ...).")
      .def(
          "__len__", [](const PyPath& p) { return p.path.steps(); },
          "Number of moves.")
      .def("__repr__", [](const PyPath& p) {
        if (!p.found) return std::string("<zonepath.Path unreachable>");
        return absl::StrCat("<zonepath.Path ", p.path.steps(), " steps, ",
                            p.path.runs().size(), " runs, cost ", p.path.cost(),
                            ">");
      });

  py::class_<PyPlanner>(m, "Planner", R"doc(
Plans paths on one World. One Planner per thread: it holds the scratch
memory of its searches (allocated once, reused by every query), so queries
after the first allocate almost nothing. Keeps its world alive.

    planner = zonepath.Planner(world)
    path = planner.find_path((1, 1), (200, 180), smooth=True)
    path.cost, path.runs, path.cells
)doc")
      .def(py::init<const PyWorld&>(), py::arg("world"),
           "A planner for `world` (which it keeps alive).")
      .def(
          "find_path",
          [](PyPlanner& self, const py::handle& start, const py::handle& goal,
             bool smooth, bool fewer_turns, double direct_search_zones,
             double abstract_weight, bool free_crossings,
             bool smooth_by_search) {
            const Point s = ToPoint(start, "start"), g = ToPoint(goal, "goal");
            const PlanOptions options =
                Options(smooth, fewer_turns, direct_search_zones,
                        abstract_weight, free_crossings, smooth_by_search);
            ++self.generation;
            auto result = std::make_unique<PyPath>();
            absl::StatusOr<SearchOutcome> outcome =
                self.planner.FindPath(s, g, options, &result->path);
            result->found =
                ValueOrRaise(std::move(outcome)) == SearchOutcome::kFound;
            result->stats = self.planner.stats();
            return result;
          },
          py::arg("start"), py::arg("goal"), py::kw_only(),
          py::arg("smooth") = false, py::arg("fewer_turns") = true,
          py::arg("direct_search_zones") = 1.0,
          py::arg("abstract_weight") = 1.0, py::arg("free_crossings") = false,
          py::arg("smooth_by_search") = false,
          R"doc(
Plans from `start` to `goal` ((x, y) pairs) and returns the whole Path.

smooth: shorten the path by string pulling (~1.2-1.4x the query; on
weighted grids only by ways no dearer than the moves they replace);
smooth_by_search: with smooth, search windows of the path again instead
(on grids of one cost shorter among rooms and doors, ~2.5x the smoothed
query); fewer_turns: among equally short moves prefer straight ones;
direct_search_zones: also try a direct grid search when the endpoints are
at most this many zone sides apart; abstract_weight: weight w in [1, 10]
on the abstract search's heuristic (the abstract plan costs at most w
times the cheapest; far fewer abstract nodes on large worlds; 1 = exact);
free_crossings: re-choose each zone crossing by a cell search over the
zones ahead, and the levels above choose the route's zones over three
(shorter paths for ~2x the query; first moves a little later). An endpoint outside the grid or
blocked raises zonepath.Error (INVALID_ARGUMENT); an unreachable goal
returns a Path with found == False.)doc")
      .def(
          "plan",
          [](PyPlanner& self, const py::handle& start, const py::handle& goal,
             bool smooth, bool fewer_turns, double direct_search_zones,
             double abstract_weight, bool free_crossings,
             bool smooth_by_search) {
            const Point s = ToPoint(start, "start"), g = ToPoint(goal, "goal");
            ++self.generation;
            ValueOrRaise(self.planner.Plan(
                s, g,
                Options(smooth, fewer_turns, direct_search_zones,
                        abstract_weight, free_crossings, smooth_by_search)));
            PathCursor cursor = self.planner.Cursor();
            return std::make_unique<PyCursor>(
                PyCursor{&self, self.generation, cursor, s,
                         bindings::CursorHasMoves(cursor)});
          },
          py::arg("start"), py::arg("goal"), py::kw_only(),
          py::arg("smooth") = false, py::arg("fewer_turns") = true,
          py::arg("direct_search_zones") = 1.0,
          py::arg("abstract_weight") = 1.0, py::arg("free_crossings") = false,
          py::arg("smooth_by_search") = false, py::keep_alive<0, 1>(),
          R"doc(
Plans without refining and returns a PathCursor that yields the moves on
demand (smoothed as they come when smooth=True; options as find_path's):
the first moves come
long before the whole path would. The cursor
is valid until this planner's next find_path or plan. An unreachable goal
gives a cursor that is already done.)doc")
      .def_property_readonly(
          "memory_bytes",
          [](const PyPlanner& self) { return self.planner.MemoryUsage(); },
          "Bytes of scratch memory the planner holds.")
      .def_property_readonly(
          "world", [](const PyPlanner& self) { return PyWorld{self.world}; },
          "The world it plans on.");

  py::class_<PyCursor>(m, "PathCursor", R"doc(
The moves of a planned path, refined only as far as asked (Planner.plan).

    cursor = planner.plan((1, 1), (900, 700))
    first = cursor.next(32)      # at least 32 moves, as (n, 2) runs
    while not cursor.done:
        more = cursor.next(256)
)doc")
      .def(
          "next",
          [](PyCursor& self, int64_t min_steps) {
            if (min_steps < 1) {
              throw py::value_error(
                  absl::StrCat("min_steps must be >= 1, got ", min_steps));
            }
            if (self.owner->generation != self.generation) {
              RaiseStatus(absl::FailedPreconditionError(
                  "PathCursor.next: the planner planned again since this "
                  "cursor was made"));
            }
            RunLengthPath& chunk = self.owner->scratch;
            chunk.Reset(self.position);
            if (self.more) {
              self.more = ValueOrRaise(
                  bindings::CursorStep(self.cursor, min_steps, &chunk));
            }
            self.position =
                CellAfterMoves(chunk.start(), chunk.runs(), chunk.steps());
            return RunsArray(chunk.runs());
          },
          py::arg("min_steps"),
          "Returns the next runs ((n, 2) array), at least `min_steps` moves "
          "unless the path ends first; an empty array once done.")
      .def_property_readonly(
          "done", [](const PyCursor& self) { return !self.more; },
          "True once every move has been returned.")
      .def_property_readonly(
          "position",
          [](const PyCursor& self) { return FromPoint(self.position); },
          "The cell reached by the moves returned so far.");

  m.def(
      "plan_batch",
      [](const PyWorld& world, const py::object& queries, int threads,
         bool smooth, bool fewer_turns, double abstract_weight,
         bool free_crossings, bool smooth_by_search) {
        ThreadsArg(threads);
        const std::vector<BatchQuery> batch = QueriesFrom(queries);
        const PlanOptions options =
            Options(smooth, fewer_turns, 1.0, abstract_weight, free_crossings,
                    smooth_by_search);
        std::vector<BatchResult> results;
        WithoutGil([&] {
          PlanBatch(*world.world, batch, options, threads, &results);
        });
        py::list out(results.size());
        for (size_t i = 0; i < results.size(); ++i) {
          if (!results[i].status.ok()) {
            RaiseStatus(absl::Status(
                results[i].status.code(),
                absl::StrCat("query ", i, ": ", results[i].status.message())));
          }
          auto path = std::make_unique<PyPath>();
          path->path = std::move(results[i].path);
          path->found = results[i].outcome == SearchOutcome::kFound;
          out[i] = py::cast(std::move(path));
        }
        return out;
      },
      py::arg("world"), py::arg("queries"), py::kw_only(),
      py::arg("threads") = 0, py::arg("smooth") = false,
      py::arg("fewer_turns") = true, py::arg("abstract_weight") = 1.0,
      py::arg("free_crossings") = false, py::arg("smooth_by_search") = false,
      R"doc(
Plans many queries on `world` with the library's PlanBatch: a pool of
`threads` threads (0 = all cores), one Planner each, with the GIL released.
`queries` is an (n, 4) array (or list) of (sx, sy, gx, gy) rows. Returns a
list of Path (stats not kept), the same for any thread count. A bad query
raises zonepath.Error naming its index.)doc");

  m.def(
      "_time_find_path_cpp",
      [](PyPlanner& self, const py::object& queries, int repeats) {
        const std::vector<BatchQuery> batch = QueriesFrom(queries);
        // The GIL stays held: another thread's find_path on this planner
        // (which holds it too) must not run meanwhile.
        RunLengthPath path;
        const PlanOptions options;
        const auto begin = std::chrono::steady_clock::now();
        for (int r = 0; r < repeats; ++r) {
          for (const BatchQuery& q : batch) {
            absl::StatusOr<SearchOutcome> outcome =
                self.planner.FindPath(q.start, q.goal, options, &path);
            if (!outcome.ok()) return std::nan("");
          }
        }
        return Seconds(begin);
      },
      py::arg("planner"), py::arg("queries"), py::arg("repeats"),
      "Benchmark hook: seconds for `repeats` passes of Planner::FindPath "
      "over `queries` in C++ (no Python per query; NaN on an error).");
  m.def(
      "_time_plan_batch_cpp",
      [](const PyWorld& world, const py::object& queries, int threads) {
        const std::vector<BatchQuery> batch = QueriesFrom(queries);
        return WithoutGil([&] {
          std::vector<BatchResult> results;
          const auto begin = std::chrono::steady_clock::now();
          PlanBatch(*world.world, batch, PlanOptions(), threads, &results);
          return Seconds(begin);
        });
      },
      py::arg("world"), py::arg("queries"), py::arg("threads"),
      "Benchmark hook: seconds for PlanBatch over `queries` in C++.");
}

}  // namespace zonepath::python
