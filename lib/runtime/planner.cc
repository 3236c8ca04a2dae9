#include "zonepath/runtime/planner.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace zonepath {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

struct OpenEntry {
  double f;
  double g;
  uint32_t node;
};
// Max-heap order for std::push_heap: lowest f first, ties to larger g.
struct OpenLess {
  bool operator()(const OpenEntry& a, const OpenEntry& b) const {
    if (a.f != b.f) return a.f > b.f;
    return a.g < b.g;
  }
};

absl::Status CheckEndpoint(const Grid& grid, Point p, absl::string_view what) {
  if (!grid.InBounds(p)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " ", PointString(p), " is outside the ",
                     grid.width(), "x", grid.height(), " grid"));
  }
  if (!grid.passable(p)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " ", PointString(p), " is blocked"));
  }
  return absl::OkStatus();
}

}  // namespace

struct Planner::Impl {
  explicit Impl(const World& w)
      : world(w),
        grid(w.grid()),
        abstraction(w.abstraction()),
        level(w.abstraction().levels[0]),
        connectivity(w.params().connectivity),
        start_dijkstra(level.zone_side),
        goal_dijkstra(level.zone_side),
        astar(w.grid()),
        g(level.node_count() + 2, kInf),
        parent(level.node_count() + 2, kNone),
        stamp(level.node_count() + 2, 0),
        closed(level.node_count() + 2, 0),
        goal_link(level.node_count(), kInf),
        goal_link_stamp(level.node_count(), 0) {
    zone_cells.reserve(64);
  }

  // Query state ---------------------------------------------------------
  enum class Mode { kEmpty, kDirect, kAbstract };

  const World& world;
  const Grid& grid;
  const Abstraction& abstraction;
  const AbstractLevel& level;
  Connectivity connectivity;
  ZoneDijkstra start_dijkstra;
  ZoneDijkstra goal_dijkstra;
  GridAStar astar;

  // Abstract A* arrays over level-1 nodes plus virtual start (n) and goal
  // (n + 1), reset by generation stamp.
  std::vector<double> g;
  std::vector<uint32_t> parent;
  std::vector<uint32_t> stamp;
  std::vector<uint8_t> closed;
  std::vector<double> goal_link;
  std::vector<uint32_t> goal_link_stamp;
  uint32_t generation = 0;
  std::vector<OpenEntry> open;
  std::vector<std::pair<uint32_t, double>> start_links;
  std::vector<Point> zone_cells;

  Mode mode = Mode::kEmpty;
  Point start, goal;
  std::vector<uint32_t> path_nodes;  // beacons on the abstract path, in order
  RunLengthPath direct_path;         // when mode == kDirect
  RunLengthPath start_segment;       // start -> first beacon
  RunLengthPath goal_segment;        // goal -> last beacon (reversed later)
  RunLengthPath scratch_path;

  // Cursor state.
  size_t next_segment = 0;  // 0: start segment, i: edge i-1 -> i, last: goal
  Point cursor_at;
  bool cursor_done = true;

  // Smoothing scratch.
  std::vector<Point> cells;
  std::vector<Point> smoothed;
  std::vector<double> prefix_cost;

  // ----------------------------------------------------------------------
  void NewGeneration() {
    if (++generation == 0) {
      std::fill(stamp.begin(), stamp.end(), 0);
      std::fill(goal_link_stamp.begin(), goal_link_stamp.end(), 0);
      generation = 1;
    }
  }
  void Touch(uint32_t v) {
    if (stamp[v] != generation) {
      stamp[v] = generation;
      g[v] = kInf;
      parent[v] = kNone;
      closed[v] = 0;
    }
  }
  Point Cell(uint32_t node) const {
    return abstraction.beacons[level.node_beacon[node]];
  }
  double H(Point p) const {
    return HeuristicCost(p, goal, connectivity, grid.min_cost());
  }

  // Appends `runs` to `out` starting at `*at`, adding each step's cost in
  // walking order so the total equals what WalkPath computes.
  void AppendWalked(const std::vector<Run>& runs, Point* at,
                    RunLengthPath* out) const {
    for (const Run& run : runs) AppendRunWalked(run, at, out);
  }
  void AppendRunWalked(const Run& run, Point* at, RunLengthPath* out) const {
    for (uint32_t i = 0; i < run.count; ++i) {
      out->AddCost(StepCost(grid, *at, run.direction));
      *at = Step(*at, run.direction);
    }
    out->Append(run.direction, run.count);
  }

  // Connects `p` to the beacons of its level-1 zone.
  void Connect(ZoneDijkstra& dijkstra, Point p, SearchStats* stats) {
    const ZoneId z = level.ZoneOf(p);
    zone_cells.clear();
    for (uint32_t v = level.zone_node_begin[z.value()];
         v < level.zone_node_begin[z.value() + 1]; ++v) {
      zone_cells.push_back(Cell(v));
    }
    dijkstra.Run(grid, p, level.ZoneRect(z, grid.width(), grid.height()),
                 connectivity, zone_cells);
    *stats += dijkstra.stats();
  }

  absl::StatusOr<SearchOutcome> Plan(Point s, Point t,
                                     const PlanOptions& options,
                                     PlanStats* stats) {
    *stats = PlanStats();
    if (absl::Status e = CheckEndpoint(grid, s, "start"); !e.ok()) return e;
    if (absl::Status e = CheckEndpoint(grid, t, "goal"); !e.ok()) return e;
    start = s;
    goal = t;
    mode = Mode::kEmpty;
    path_nodes.clear();
    next_segment = 0;
    cursor_at = s;
    cursor_done = true;
    if (s == t) return SearchOutcome::kFound;
    if (!grid.SameComponent(s, t)) return SearchOutcome::kUnreachable;
    cursor_done = false;

    // Close queries: exact search in a window around both endpoints.
    double direct_cost = kInf;
    const ZoneId zs = level.ZoneOf(s), zt = level.ZoneOf(t);
    const int32_t side = level.zone_side;
    const int64_t chebyshev =
        std::max(std::abs(s.x - t.x), std::abs(s.y - t.y));
    if (zs == zt || chebyshev <= options.direct_search_zones * side) {
      const Rect bounds{std::max(0, std::min(s.x, t.x) - side),
                        std::max(0, std::min(s.y, t.y) - side),
                        std::min(grid.width(), std::max(s.x, t.x) + side + 1),
                        std::min(grid.height(), std::max(s.y, t.y) + side + 1)};
      AStarOptions direct;
      direct.connectivity = connectivity;
      direct.bounds = bounds;
      absl::StatusOr<SearchOutcome> found =
          astar.FindPath(s, t, direct, &direct_path);
      stats->direct = astar.stats();
      if (found.ok() && *found == SearchOutcome::kFound) {
        direct_cost = direct_path.cost();
      }
    }

    // Connect start and goal to their zones' beacons.
    Connect(start_dijkstra, s, &stats->connect);
    Connect(goal_dijkstra, t, &stats->connect);
    NewGeneration();
    start_links.clear();
    for (uint32_t v = level.zone_node_begin[zs.value()];
         v < level.zone_node_begin[zs.value() + 1]; ++v) {
      const double d = start_dijkstra.Distance(Cell(v));
      if (d < kInf) start_links.push_back({v, d});
    }
    for (uint32_t v = level.zone_node_begin[zt.value()];
         v < level.zone_node_begin[zt.value() + 1]; ++v) {
      const double d = goal_dijkstra.Distance(Cell(v));
      if (d < kInf) {
        goal_link[v] = d;
        goal_link_stamp[v] = generation;
      }
    }

    // Abstract A* from the virtual start to the virtual goal; anything not
    // cheaper than the direct path is pruned.
    const absl::Time begin = absl::Now();
    const uint32_t n = level.node_count();
    const uint32_t vs = n, vg = n + 1;
    SearchStats& as = stats->abstract;
    open.clear();
    Touch(vs);
    g[vs] = 0;
    open.push_back({H(s), 0, vs});
    ++as.heap_pushes;
    auto relax = [&](uint32_t u, uint32_t v, double cost, Point v_cell) {
      Touch(v);
      const double nv = g[u] + cost;
      if (nv >= g[v] || nv >= direct_cost) return;
      g[v] = nv;
      parent[v] = u;
      closed[v] = 0;
      open.push_back({nv + (v == vg ? 0.0 : H(v_cell)), nv, v});
      std::push_heap(open.begin(), open.end(), OpenLess());
      ++as.generated;
      ++as.heap_pushes;
    };
    bool reached = false;
    while (!open.empty()) {
      std::pop_heap(open.begin(), open.end(), OpenLess());
      const OpenEntry top = open.back();
      open.pop_back();
      ++as.heap_pops;
      const uint32_t u = top.node;
      if (closed[u] || top.g > g[u]) continue;
      if (top.f >= direct_cost) break;
      closed[u] = 1;
      ++as.expanded;
      if (u == vg) {
        reached = true;
        break;
      }
      if (u == vs) {
        for (const auto& [v, d] : start_links) relax(u, v, d, Cell(v));
        continue;
      }
      for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
        const AbstractEdge& edge = level.edges[e];
        relax(u, edge.target, edge.cost, Cell(edge.target));
      }
      if (goal_link_stamp[u] == generation) relax(u, vg, goal_link[u], t);
    }
    as.time = absl::Now() - begin;

    if (!reached) {
      if (direct_cost < kInf) {
        mode = Mode::kDirect;
        stats->used_direct = true;
        return SearchOutcome::kFound;
      }
      return absl::InternalError(absl::StrCat(
          "no abstract path between ", PointString(s), " and ", PointString(t),
          " although they share a component: the world file's abstraction "
          "does not match its grid"));
    }
    mode = Mode::kAbstract;
    for (uint32_t v = parent[vg]; v != vs; v = parent[v])
      path_nodes.push_back(v);
    std::reverse(path_nodes.begin(), path_nodes.end());
    stats->abstract_nodes = static_cast<int64_t>(path_nodes.size());
    // The first and last segments come from the connection searches.
    start_segment.Reset(s);
    start_dijkstra.AppendPath(Cell(path_nodes.front()), &start_segment);
    goal_segment.Reset(t);
    goal_dijkstra.AppendPath(Cell(path_nodes.back()), &goal_segment);
    return SearchOutcome::kFound;
  }

  // Cheapest level-1 edge u -> v.
  const AbstractEdge* FindEdge(uint32_t u, uint32_t v, uint32_t* index) const {
    const AbstractEdge* best = nullptr;
    for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
      if (level.edges[e].target == v &&
          (best == nullptr || level.edges[e].cost < best->cost)) {
        best = &level.edges[e];
        *index = e;
      }
    }
    return best;
  }

  // Appends the moves of segment `i` to `out`.
  void RefineSegment(size_t i, RunLengthPath* out, PlanStats* stats) {
    const size_t k = path_nodes.size();
    if (i == 0) {
      AppendWalked(start_segment.runs(), &cursor_at, out);
      return;
    }
    if (i == k) {  // last beacon -> goal: the goal search's path reversed
      const std::vector<Run>& runs = goal_segment.runs();
      for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        AppendRunWalked({Opposite(it->direction), it->count}, &cursor_at, out);
      }
      return;
    }
    const uint32_t u = path_nodes[i - 1], v = path_nodes[i];
    uint32_t index = 0;
    const AbstractEdge* edge = FindEdge(u, v, &index);
    const Point from = Cell(u), to = Cell(v);
    if (edge == nullptr || edge->inter_zone) {
      const Direction d = *DirectionFromDelta(to.x - from.x, to.y - from.y);
      AppendRunWalked({d, 1}, &cursor_at, out);
      return;
    }
    const CachedPaths& cached = abstraction.cached_paths;
    if (abstraction.params.cache_paths) {
      for (uint32_t r = cached.path_begin[index];
           r < cached.path_begin[index + 1]; ++r) {
        AppendRunWalked(CachedPaths::UnpackRun(cached.path_runs[r]), &cursor_at,
                        out);
      }
      return;
    }
    AStarOptions options;
    options.connectivity = connectivity;
    options.bounds =
        level.ZoneRect(level.ZoneOf(from), grid.width(), grid.height());
    const absl::Time begin = absl::Now();
    (void)astar.FindPath(from, to, options, &scratch_path);
    SearchStats s = astar.stats();
    s.time = absl::Now() - begin;
    stats->refine += s;
    AppendWalked(scratch_path.runs(), &cursor_at, out);
  }

  bool Next(int64_t min_steps, RunLengthPath* out, PlanStats* stats) {
    if (cursor_done) return false;
    const int64_t target = out->steps() + min_steps;
    if (mode == Mode::kDirect) {
      AppendWalked(direct_path.runs(), &cursor_at, out);
      cursor_done = true;
      return true;
    }
    while (next_segment <= path_nodes.size() && out->steps() < target) {
      RefineSegment(next_segment++, out, stats);
    }
    cursor_done = next_segment > path_nodes.size();
    return true;
  }

  // Smoothing: re-search windows of the path exactly (bounded A* in the
  // window's box plus a margin) and keep any shortcut; two passes with
  // windows offset by half a window.
  void Smooth(RunLengthPath* path, PlanStats* stats) {
    const absl::Time begin = absl::Now();
    cells.clear();
    Point p = path->start();
    cells.push_back(p);
    for (const Run& run : path->runs()) {
      for (uint32_t i = 0; i < run.count; ++i) {
        p = Step(p, run.direction);
        cells.push_back(p);
      }
    }
    const int64_t window = 2 * level.zone_side;
    const int32_t margin = std::max(2, level.zone_side / 4);
    for (int pass = 0; pass < 2; ++pass) {
      prefix_cost.assign(1, 0.0);
      for (size_t i = 1; i < cells.size(); ++i) {
        const Direction d = *DirectionFromDelta(cells[i].x - cells[i - 1].x,
                                                cells[i].y - cells[i - 1].y);
        prefix_cost.push_back(prefix_cost.back() +
                              StepCost(grid, cells[i - 1], d));
      }
      smoothed.clear();
      smoothed.push_back(cells[0]);
      const int64_t last = static_cast<int64_t>(cells.size()) - 1;
      int64_t pos = 0;
      int64_t end =
          pass == 0 ? std::min(last, window) : std::min(last, window / 2);
      while (pos < last) {
        Rect box{cells[pos].x, cells[pos].y, cells[pos].x + 1,
                 cells[pos].y + 1};
        for (int64_t i = pos; i <= end; ++i) {
          box.x0 = std::min(box.x0, cells[i].x);
          box.y0 = std::min(box.y0, cells[i].y);
          box.x1 = std::max(box.x1, cells[i].x + 1);
          box.y1 = std::max(box.y1, cells[i].y + 1);
        }
        box = {std::max(0, box.x0 - margin), std::max(0, box.y0 - margin),
               std::min(grid.width(), box.x1 + margin),
               std::min(grid.height(), box.y1 + margin)};
        AStarOptions options;
        options.connectivity = connectivity;
        options.bounds = box;
        absl::StatusOr<SearchOutcome> found =
            astar.FindPath(cells[pos], cells[end], options, &scratch_path);
        stats->smooth += astar.stats();
        const double old_cost = prefix_cost[end] - prefix_cost[pos];
        if (found.ok() && *found == SearchOutcome::kFound &&
            scratch_path.cost() < old_cost - 1e-9 * std::max(1.0, old_cost)) {
          Point q = cells[pos];
          for (const Run& run : scratch_path.runs()) {
            for (uint32_t i = 0; i < run.count; ++i) {
              q = Step(q, run.direction);
              smoothed.push_back(q);
            }
          }
        } else {
          smoothed.insert(smoothed.end(), cells.begin() + pos + 1,
                          cells.begin() + end + 1);
        }
        pos = end;
        end = std::min(last, pos + window);
      }
      cells.swap(smoothed);
    }
    path->Reset(cells[0]);
    for (size_t i = 1; i < cells.size(); ++i) {
      const Direction d = *DirectionFromDelta(cells[i].x - cells[i - 1].x,
                                              cells[i].y - cells[i - 1].y);
      path->AddCost(StepCost(grid, cells[i - 1], d));
      path->Append(d);
    }
    stats->smooth.time = absl::Now() - begin;
  }
};

bool PathCursor::Next(int64_t min_steps, RunLengthPath* out) {
  const absl::Time begin = absl::Now();
  PlanStats& stats = planner_->stats_;
  const absl::Duration searches_before = stats.refine.time;
  const bool more = planner_->impl_->Next(min_steps, out, &stats);
  // Refinement time is the whole cursor step (lookups and walking too).
  stats.refine.time = searches_before + (absl::Now() - begin);
  return more;
}

bool PathCursor::done() const { return planner_->impl_->cursor_done; }

Planner::Planner(const World& world) : impl_(std::make_unique<Impl>(world)) {}
Planner::~Planner() = default;

absl::StatusOr<SearchOutcome> Planner::Plan(Point start, Point goal,
                                            const PlanOptions& options) {
  return impl_->Plan(start, goal, options, &stats_);
}

absl::StatusOr<SearchOutcome> Planner::FindPath(Point start, Point goal,
                                                const PlanOptions& options,
                                                RunLengthPath* path) {
  absl::StatusOr<SearchOutcome> outcome = Plan(start, goal, options);
  path->Reset(start);
  if (!outcome.ok() || *outcome != SearchOutcome::kFound) return outcome;
  PathCursor cursor = Cursor();
  cursor.Next(std::numeric_limits<int64_t>::max() / 2, path);
  if (options.smooth) {
    Smooth(path);
  } else {
    stats_.cost_before_smoothing = path->cost();
  }
  return outcome;
}

void Planner::Smooth(RunLengthPath* path) {
  stats_.cost_before_smoothing = path->cost();
  if (!path->empty()) impl_->Smooth(path, &stats_);
}

size_t Planner::MemoryUsage() const {
  const Impl& i = *impl_;
  return sizeof(*this) + sizeof(Impl) + i.start_dijkstra.MemoryUsage() +
         i.goal_dijkstra.MemoryUsage() + i.astar.MemoryUsage() +
         i.g.capacity() * 8 + i.parent.capacity() * 4 + i.stamp.capacity() * 4 +
         i.closed.capacity() + i.goal_link.capacity() * 8 +
         i.goal_link_stamp.capacity() * 4 +
         i.open.capacity() * sizeof(OpenEntry) + i.path_nodes.capacity() * 4 +
         i.cells.capacity() * sizeof(Point) +
         i.smoothed.capacity() * sizeof(Point) + i.prefix_cost.capacity() * 8;
}

}  // namespace zonepath
