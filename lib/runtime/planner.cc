#include "zonepath/runtime/planner.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "zonepath/search/search_common.h"

namespace zonepath {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

struct OpenEntry {
  double f;
  double g;
  uint32_t node;
};
}  // namespace

// Best-first search state over one level's nodes plus two virtual nodes
// (start = n, goal = n + 1), reset by generation stamp.
struct LevelState {
  explicit LevelState(uint32_t n)
      : g(n + 2, kInf),
        parent(n + 2, kNone),
        stamp(n + 2, 0),
        closed(n + 2, 0) {}
  void NewGeneration() {
    if (++generation == 0) {
      std::fill(stamp.begin(), stamp.end(), 0);
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
  double G(uint32_t v) const { return stamp[v] == generation ? g[v] : kInf; }
  size_t MemoryUsage() const {
    return g.capacity() * 8 + parent.capacity() * 4 + stamp.capacity() * 4 +
           closed.capacity() + open.capacity() * sizeof(OpenEntry);
  }

  std::vector<double> g;
  std::vector<uint32_t> parent;
  std::vector<uint32_t> stamp;
  std::vector<uint8_t> closed;
  uint32_t generation = 0;
  std::vector<OpenEntry> open;
  std::function<void(uint32_t)> on_expand;  // tracing only
};

// A* / Dijkstra from `source` within the current generation of `st`.
// neighbors(u, relax) calls relax(v, cost, h(v)) for each successor; the
// search stops when is_goal(u) is expanded (true) or when the best f reaches
// `bound` or the open list empties (false).
template <typename Neighbors, typename IsGoal>
bool BestFirst(LevelState& st, uint32_t source, double source_h,
               Neighbors neighbors, IsGoal is_goal, double bound,
               SearchStats* stats) {
  st.open.clear();
  st.Touch(source);
  st.g[source] = 0;
  st.open.push_back({source_h, 0, source});
  ++stats->heap_pushes;
  while (!st.open.empty()) {
    std::pop_heap(st.open.begin(), st.open.end(), OpenListOrder());
    const OpenEntry top = st.open.back();
    st.open.pop_back();
    ++stats->heap_pops;
    const uint32_t u = top.node;
    if (st.closed[u] || top.g > st.g[u]) continue;
    if (top.f >= bound) return false;
    st.closed[u] = 1;
    ++stats->expanded;
    if (st.on_expand) st.on_expand(u);
    if (is_goal(u)) return true;
    neighbors(u, [&](uint32_t v, double cost, double h) {
      st.Touch(v);
      const double nv = st.g[u] + cost;
      if (nv >= st.g[v] || nv + h >= bound) return;
      st.g[v] = nv;
      st.parent[v] = u;
      st.closed[v] = 0;
      st.open.push_back({nv + h, nv, v});
      std::push_heap(st.open.begin(), st.open.end(), OpenListOrder());
      ++stats->generated;
      ++stats->heap_pushes;
    });
  }
  return false;
}

struct Planner::Impl {
  explicit Impl(const World& w)
      : grid(w.grid()),
        abstraction(w.abstraction()),
        level(w.abstraction().levels[0]),
        upper(w.abstraction().levels.size() >= 2 ? &w.abstraction().levels[1]
                                                 : nullptr),
        connectivity(w.params().connectivity),
        start_dijkstra(level.zone_side),
        goal_dijkstra(level.zone_side),
        astar(w.grid()),
        l1(level.node_count()),
        l2(upper != nullptr ? upper->node_count() : 0),
        goal_link(level.node_count(), kInf),
        goal_link_stamp(level.node_count(), 0) {
    zone_cells.reserve(64);
  }

  enum class Mode { kEmpty, kDirect, kAbstract };

  const Grid& grid;
  const SharedAbstraction& abstraction;
  const SharedLevel& level;  // level 1
  const SharedLevel* upper;  // level 2, if built
  Connectivity connectivity;
  ZoneDijkstra start_dijkstra;
  ZoneDijkstra goal_dijkstra;
  GridAStar astar;
  LevelState l1;
  LevelState l2;
  std::vector<double> goal_link;  // level-1 node -> cost to the goal
  std::vector<uint32_t> goal_link_stamp;
  uint32_t link_generation = 0;
  std::vector<std::pair<uint32_t, double>> start_links;
  std::vector<Point> zone_cells;

  Mode mode = Mode::kEmpty;
  Point start, goal;
  // Level-1 nodes of the path, extended lazily from the level-2 path.
  std::vector<uint32_t> path_nodes;
  std::vector<uint32_t> upper_nodes;  // level-2 path (level-2 node ids)
  size_t next_upper = 0;              // next level-2 edge to refine
  std::vector<uint32_t> goal_tail;    // level-1 nodes from the last level-2
                                      // node to the goal's beacon
  bool goal_tail_added = true;
  RunLengthPath direct_path;
  RunLengthPath start_segment;  // start -> first beacon
  RunLengthPath goal_segment;   // goal -> last beacon (reversed on output)
  RunLengthPath scratch_path;

  size_t next_segment = 0;
  Point cursor_at;
  bool cursor_done = true;
  bool fewer_turns = false;  // PlanOptions::fewer_turns of the last Plan

  std::vector<Point> cells;
  std::vector<Point> smoothed;
  std::vector<double> prefix_cost;

  Point Cell(uint32_t l1_node) const { return abstraction.beacons[l1_node]; }
  double H(Point p) const {
    return HeuristicCost(p, goal, connectivity, grid.min_cost());
  }

  void AppendWalked(const std::vector<Run>& runs, Point* at,
                    RunLengthPath* out) const {
    for (const Run& run : runs) AppendRunWalked(run, at, out);
  }
  // Appends a run, adding each step's cost in walking order so the total
  // equals what WalkPath computes.
  void AppendRunWalked(const Run& run, Point* at, RunLengthPath* out) const {
    for (uint32_t i = 0; i < run.count; ++i) {
      out->AddCost(StepCost(grid, *at, run.direction));
      *at = Step(*at, run.direction);
    }
    out->Append(run.direction, run.count);
  }

  void Connect(ZoneDijkstra& dijkstra, Point p, SearchStats* stats) {
    const ZoneId z = level.ZoneOf(p);
    zone_cells.clear();
    for (uint32_t v = level.zone_node_begin[z.value()];
         v < level.zone_node_end[z.value()]; ++v) {
      zone_cells.push_back(Cell(v));
    }
    dijkstra.Run(grid, p, level.ZoneRect(z, grid.width(), grid.height()),
                 connectivity, zone_cells);
    *stats += dijkstra.stats();
  }

  // Level-1 neighbours of u staying inside `rect` (all of the grid if null).
  template <typename Relax>
  void Level1Edges(uint32_t u, const Rect* rect, bool with_h, Relax&& relax) {
    level.edges.ForEachIn(level.edge_begin[u], level.edge_end[u],
                          [&](const AbstractEdge& edge) {
                            const Point c = Cell(edge.target);
                            if (rect != nullptr && !rect->Contains(c)) return;
                            relax(edge.target, edge.cost, with_h ? H(c) : 0.0);
                          });
  }

  // Level-1 A* from the virtual start to the virtual goal.
  bool SearchLevelOne(double bound, SearchStats* stats) {
    const uint32_t vs = level.node_count(), vg = vs + 1;
    l1.NewGeneration();
    const bool found = BestFirst(
        l1, vs, H(start),
        [&](uint32_t u, auto&& relax) {
          if (u == vs) {
            for (const auto& [v, d] : start_links) relax(v, d, H(Cell(v)));
            return;
          }
          Level1Edges(u, nullptr, true, relax);
          if (goal_link_stamp[u] == link_generation)
            relax(vg, goal_link[u], 0.0);
        },
        [&](uint32_t u) { return u == vg; }, bound, stats);
    if (!found) return false;
    path_nodes.clear();
    for (uint32_t v = l1.parent[vg]; v != vs; v = l1.parent[v]) {
      path_nodes.push_back(v);
    }
    std::reverse(path_nodes.begin(), path_nodes.end());
    return true;
  }

  // Level-2 search: start and goal reach their level-2 zones' nodes through
  // level-1 Dijkstras inside those zones (disjoint node sets, so both share
  // one generation of l1), then A* on level 2.
  bool SearchLevelTwo(double bound, SearchStats* stats) {
    const SharedLevel& top = *upper;
    const uint32_t vs = level.node_count(), vg = vs + 1;
    const Rect rs =
        top.ZoneRect(top.ZoneOf(start), grid.width(), grid.height());
    const Rect rt = top.ZoneRect(top.ZoneOf(goal), grid.width(), grid.height());
    auto never = [](uint32_t) { return false; };
    l1.NewGeneration();
    BestFirst(
        l1, vs, 0.0,
        [&](uint32_t u, auto&& relax) {
          if (u == vs) {
            for (const auto& [v, d] : start_links) relax(v, d, 0.0);
          } else {
            Level1Edges(u, &rs, false, relax);
          }
        },
        never, kInf, stats);
    BestFirst(
        l1, vg, 0.0,
        [&](uint32_t u, auto&& relax) {
          if (u == vg) {
            for (uint32_t v = level.zone_node_begin[level.ZoneOf(goal).value()];
                 v < level.zone_node_end[level.ZoneOf(goal).value()]; ++v) {
              if (goal_link_stamp[v] == link_generation) {
                relax(v, goal_link[v], 0.0);
              }
            }
          } else {
            Level1Edges(u, &rt, false, relax);
          }
        },
        never, kInf, stats);
    const uint32_t ts = top.node_count(), tg = ts + 1;
    const ZoneId zs = top.ZoneOf(start), zt = top.ZoneOf(goal);
    l2.NewGeneration();
    const bool found = BestFirst(
        l2, ts, H(start),
        [&](uint32_t u, auto&& relax) {
          if (u == ts) {
            for (uint32_t v = top.zone_node_begin[zs.value()];
                 v < top.zone_node_end[zs.value()]; ++v) {
              const double d = l1.G(top.node_beacon[v]);
              if (d < kInf) relax(v, d, H(Cell(top.node_beacon[v])));
            }
            return;
          }
          top.edges.ForEachIn(top.edge_begin[u], top.edge_end[u],
                              [&](const AbstractEdge& edge) {
                                relax(edge.target, edge.cost,
                                      H(Cell(top.node_beacon[edge.target])));
                              });
          if (top.ZoneOf(Cell(top.node_beacon[u])) == zt) {
            const double d = l1.G(top.node_beacon[u]);
            if (d < kInf) relax(tg, d, 0.0);
          }
        },
        [&](uint32_t u) { return u == tg; }, bound, stats);
    if (!found) return false;
    upper_nodes.clear();
    for (uint32_t v = l2.parent[tg]; v != ts; v = l2.parent[v]) {
      upper_nodes.push_back(v);
    }
    std::reverse(upper_nodes.begin(), upper_nodes.end());
    // Level-1 nodes from the start's beacon to the first level-2 node, and
    // from the last level-2 node to the goal's beacon (parents point towards
    // the virtual goal there).
    path_nodes.clear();
    for (uint32_t v = top.node_beacon[upper_nodes.front()]; v != vs;
         v = l1.parent[v]) {
      path_nodes.push_back(v);
    }
    std::reverse(path_nodes.begin(), path_nodes.end());
    goal_tail.clear();
    for (uint32_t v = top.node_beacon[upper_nodes.back()]; v != vg;
         v = l1.parent[v]) {
      goal_tail.push_back(v);
    }
    next_upper = 1;
    goal_tail_added = false;
    return true;
  }

  // Appends the level-1 nodes of the next level-2 edge (or the goal tail) to
  // path_nodes; false when the level-1 path is complete.
  bool ExtendPathNodes(PlanStats* stats) {
    if (next_upper > 0 && next_upper < upper_nodes.size()) {
      const SharedLevel& top = *upper;
      const uint32_t a = top.node_beacon[upper_nodes[next_upper - 1]];
      const uint32_t b = top.node_beacon[upper_nodes[next_upper]];
      ++next_upper;
      uint32_t index = 0;
      const AbstractEdge* edge = FindEdge(level, a, b, &index);
      if (edge != nullptr && edge->inter_zone) {
        path_nodes.push_back(b);
        return true;
      }
      // Level-1 A* from a to b inside their level-2 zone.
      const Rect rect =
          top.ZoneRect(top.ZoneOf(Cell(a)), grid.width(), grid.height());
      const Point target = Cell(b);
      auto h = [&](Point p) {
        return HeuristicCost(p, target, connectivity, grid.min_cost());
      };
      const absl::Time begin = absl::Now();
      l1.NewGeneration();
      SearchStats s;
      BestFirst(
          l1, a, h(Cell(a)),
          [&](uint32_t u, auto&& relax) {
            level.edges.ForEachIn(level.edge_begin[u], level.edge_end[u],
                                  [&](const AbstractEdge& ed) {
                                    const Point c = Cell(ed.target);
                                    if (rect.Contains(c))
                                      relax(ed.target, ed.cost, h(c));
                                  });
          },
          [&](uint32_t u) { return u == b; }, kInf, &s);
      const size_t first = path_nodes.size();
      for (uint32_t v = b; v != a; v = l1.parent[v]) path_nodes.push_back(v);
      std::reverse(path_nodes.begin() + static_cast<std::ptrdiff_t>(first),
                   path_nodes.end());
      s.time = absl::Now() - begin;
      stats->refine += s;
      return true;
    }
    if (!goal_tail_added) {
      goal_tail_added = true;
      path_nodes.insert(path_nodes.end(), goal_tail.begin() + 1,
                        goal_tail.end());
      return goal_tail.size() > 1;
    }
    return false;
  }

  absl::StatusOr<SearchOutcome> Plan(Point s, Point t,
                                     const PlanOptions& options,
                                     PlanStats* stats) {
    *stats = PlanStats();
    if (absl::Status e = CheckEndpoint(grid, grid.bounds(), s, "start");
        !e.ok())
      return e;
    if (absl::Status e = CheckEndpoint(grid, grid.bounds(), t, "goal"); !e.ok())
      return e;
    start = s;
    goal = t;
    fewer_turns = options.fewer_turns;
    mode = Mode::kEmpty;
    path_nodes.clear();
    upper_nodes.clear();
    next_upper = 0;
    goal_tail_added = true;
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
      direct.prefer_straight = fewer_turns;
      direct.bounds = bounds;
      absl::StatusOr<SearchOutcome> found =
          astar.FindPath(s, t, direct, &direct_path);
      stats->direct = astar.stats();
      if (found.ok() && *found == SearchOutcome::kFound) {
        direct_cost = direct_path.cost();
      }
    }

    // Connect start and goal to their level-1 zones' beacons.
    Connect(start_dijkstra, s, &stats->connect);
    Connect(goal_dijkstra, t, &stats->connect);
    if (++link_generation == 0) {
      std::fill(goal_link_stamp.begin(), goal_link_stamp.end(), 0);
      link_generation = 1;
    }
    start_links.clear();
    for (uint32_t v = level.zone_node_begin[zs.value()];
         v < level.zone_node_end[zs.value()]; ++v) {
      const double d = start_dijkstra.Distance(Cell(v));
      if (d < kInf) start_links.push_back({v, d});
    }
    for (uint32_t v = level.zone_node_begin[zt.value()];
         v < level.zone_node_end[zt.value()]; ++v) {
      const double d = goal_dijkstra.Distance(Cell(v));
      if (d < kInf) {
        goal_link[v] = d;
        goal_link_stamp[v] = link_generation;
      }
    }

    // Abstract search on the top useful level: level 2 when start and goal
    // lie in different level-2 zones, else level 1.
    const absl::Time begin = absl::Now();
    bool reached = false;
    if (upper != nullptr && upper->ZoneOf(s) != upper->ZoneOf(t)) {
      reached = SearchLevelTwo(direct_cost, &stats->abstract);
    }
    if (!reached) {
      upper_nodes.clear();
      next_upper = 0;
      goal_tail_added = true;
      reached = SearchLevelOne(direct_cost, &stats->abstract);
    }
    stats->abstract.time = absl::Now() - begin;

    if (!reached) {
      if (direct_cost < kInf) {
        mode = Mode::kDirect;
        stats->used_direct = true;
        stats->planned_cost = direct_cost;
        return SearchOutcome::kFound;
      }
      return absl::InternalError(absl::StrCat(
          "no abstract path between ", PointString(s), " and ", PointString(t),
          " although they share a component: the world file's abstraction "
          "does not match its grid"));
    }
    mode = Mode::kAbstract;
    stats->planned_cost = upper_nodes.empty() ? l1.G(level.node_count() + 1)
                                              : l2.G(upper->node_count() + 1);
    stats->abstract_nodes = static_cast<int64_t>(
        upper_nodes.empty() ? path_nodes.size() : upper_nodes.size());
    start_segment.Reset(s);
    start_dijkstra.AppendPath(Cell(path_nodes.front()), &start_segment);
    goal_segment.Reset(t);
    goal_dijkstra.AppendPath(
        Cell(goal_tail_added ? path_nodes.back() : goal_tail.back()),
        &goal_segment);
    return SearchOutcome::kFound;
  }

  // Cheapest edge u -> v of `l`.
  static const AbstractEdge* FindEdge(const SharedLevel& l, uint32_t u,
                                      uint32_t v, uint32_t* index) {
    const AbstractEdge* best = nullptr;
    uint32_t e = l.edge_begin[u];
    l.edges.ForEachIn(e, l.edge_end[u], [&](const AbstractEdge& edge) {
      if (edge.target == v && (best == nullptr || edge.cost < best->cost)) {
        best = &edge;
        *index = e;
      }
      ++e;
    });
    return best;
  }

  // Last beacon -> goal: the goal connection's path, reversed.
  void RefineGoalSegment(RunLengthPath* out) {
    const std::vector<Run>& runs = goal_segment.runs();
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
      AppendRunWalked({Opposite(it->direction), it->count}, &cursor_at, out);
    }
  }

  // Appends the moves of segment `i` to `out`: 0 is start -> first beacon,
  // i > 0 the level-1 edge path_nodes[i-1] -> path_nodes[i].
  void RefineSegment(size_t i, RunLengthPath* out, PlanStats* stats) {
    if (i == 0) {
      AppendWalked(start_segment.runs(), &cursor_at, out);
      return;
    }
    const uint32_t u = path_nodes[i - 1], v = path_nodes[i];
    uint32_t index = 0;
    const AbstractEdge* edge = FindEdge(level, u, v, &index);
    const Point from = Cell(u), to = Cell(v);
    if (edge == nullptr || edge->inter_zone) {
      const Direction d = *DirectionFromDelta(to.x - from.x, to.y - from.y);
      AppendRunWalked({d, 1}, &cursor_at, out);
      return;
    }
    const SharedCachedPaths& cached = abstraction.cached_paths;
    if (abstraction.params.cache_paths) {
      cached.path_runs.ForEachIn(
          cached.path_begin[index], cached.path_begin[index + 1],
          [&](uint32_t run) {
            AppendRunWalked(CachedPaths::UnpackRun(run), &cursor_at, out);
          });
      return;
    }
    AStarOptions options;
    options.connectivity = connectivity;
    options.prefer_straight = fewer_turns;
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
    while (out->steps() < target) {
      if (next_segment < path_nodes.size()) {
        RefineSegment(next_segment++, out, stats);
      } else if (!ExtendPathNodes(stats)) {
        RefineGoalSegment(out);
        cursor_done = true;
        break;
      }
    }
    return true;
  }

  // Number of runs of the moves between cells[from] and cells[to].
  size_t RunsBetween(int64_t from, int64_t to) const {
    size_t runs = 0;
    int last = -1;
    for (int64_t i = from + 1; i <= to; ++i) {
      const int d = static_cast<int>(*DirectionFromDelta(
          cells[i].x - cells[i - 1].x, cells[i].y - cells[i - 1].y));
      if (d != last) ++runs;
      last = d;
    }
    return runs;
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
        options.prefer_straight = fewer_turns;
        options.bounds = box;
        absl::StatusOr<SearchOutcome> found =
            astar.FindPath(cells[pos], cells[end], options, &scratch_path);
        stats->smooth += astar.stats();
        const double old_cost = prefix_cost[end] - prefix_cost[pos];
        const double tolerance = 1e-9 * std::max(1.0, old_cost);
        // Keep a shorter window, or (fewer_turns) an equally short one
        // with fewer direction changes.
        const bool better =
            found.ok() && *found == SearchOutcome::kFound &&
            (scratch_path.cost() < old_cost - tolerance ||
             (fewer_turns && scratch_path.cost() <= old_cost + tolerance &&
              scratch_path.runs().size() < RunsBetween(pos, end)));
        if (better) {
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

void Planner::set_trace(PlanTrace* trace) {
  Impl& impl = *impl_;
  std::vector<Point>* cells = trace ? &trace->expanded_cells : nullptr;
  impl.astar.set_trace(cells);
  impl.start_dijkstra.set_trace(cells);
  impl.goal_dijkstra.set_trace(cells);
  impl.l1.on_expand = nullptr;
  impl.l2.on_expand = nullptr;
  if (trace == nullptr) return;
  impl.l1.on_expand = [&impl, trace](uint32_t u) {
    if (u < impl.level.node_count()) {
      trace->expanded_beacons.push_back(impl.Cell(u));
    }
  };
  if (impl.upper != nullptr) {
    impl.l2.on_expand = [&impl, trace](uint32_t u) {
      if (u < impl.upper->node_count()) {
        trace->expanded_beacons.push_back(
            impl.Cell(impl.upper->node_beacon[u]));
      }
    };
  }
}

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
         i.l1.MemoryUsage() + i.l2.MemoryUsage() + i.goal_link.capacity() * 8 +
         i.goal_link_stamp.capacity() * 4 + i.path_nodes.capacity() * 4 +
         i.upper_nodes.capacity() * 4 + i.goal_tail.capacity() * 4 +
         i.cells.capacity() * sizeof(Point) +
         i.smoothed.capacity() * sizeof(Point) + i.prefix_cost.capacity() * 8;
}

}  // namespace zonepath
