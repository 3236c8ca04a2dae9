// `zonepath render WORLD -o out.png`: a picture of a world (terrain shades),
// optionally with zone borders, beacons, the level-1 graph, planned paths and
// the cells each search expanded, exact A* beside HPA* with --compare.
// Large worlds are drawn downscaled (each pixel averages a block of cells)
// or by region, so a 32768^2 world still gives a viewable image quickly.
// With --agents FILE --agent CLASS --terrain MAP (WORLD built for the class
// from MAP), the terrain is drawn from MAP and the class's footprint along
// each path: every cell a footprint covers on the way is tinted, and the
// footprint at the start and the goal is drawn solid. On an agent world an
// oriented class is planned by AgentPlanner (the --compare panel: the
// exact ClassAStar) and drawn the same way, its footprint turning with it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "commands.h"
#include "common_flags.h"
#include "planner_flags.h"
#include "png_image.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/class_astar.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/search/grid_astar.h"
#include "zonepath/world/world_file.h"

ABSL_DECLARE_FLAG(std::string, o);  // output_flag.cc
ABSL_FLAG(std::vector<std::string>, path, {},
          "plan and draw paths: SX,SY,GX,GY[,SX,SY,GX,GY...]");
ABSL_FLAG(bool, zones, false, "draw level-1 (thin) and level-2 zone borders");
ABSL_FLAG(bool, beacons, false, "draw the beacons");
ABSL_FLAG(bool, graph, false, "draw the level-1 abstract edges");
ABSL_FLAG(bool, explored, false,
          "shade the cells the searches expanded (HPA*: cell searches blue, "
          "abstract nodes orange; A*: orange)");
ABSL_FLAG(bool, compare, false,
          "draw exact A* (left) beside HPA* (right) for the --path queries");
ABSL_FLAG(std::vector<std::string>, region, {},
          "draw only cells X,Y,W,H (default: the whole world)");
ABSL_FLAG(double, scale, 0,
          "pixels per cell; below 1 each pixel averages a block of 1/S x 1/S "
          "cells (default: fit about 1024 pixels)");

namespace zonepath::cli {
namespace {

constexpr int64_t kMaxPixels = 100'000'000;
constexpr Rgb kBlocked{40, 40, 48}, kGround{238, 236, 226},
    kHeavy{104, 136, 76}, kZone1{150, 150, 150}, kZone2{60, 60, 60},
    kBeacon{200, 30, 30}, kIntraEdge{40, 90, 200}, kInterEdge{150, 60, 170},
    kCellSearch{90, 160, 235}, kAStarSearch{245, 160, 60},
    kAbstractSearch{240, 120, 20}, kPath{170, 0, 0}, kFootprint{40, 110, 230};

absl::StatusOr<std::vector<int32_t>> ParseInts(
    const std::vector<std::string>& items, const char* flag) {
  std::vector<int32_t> out;
  for (const std::string& item : items) {
    int32_t v = 0;
    if (!absl::SimpleAtoi(item, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, ": '", item, "' is not an integer"));
    }
    out.push_back(v);
  }
  return out;
}

// Maps cells of the region to pixels: `ppc` pixels per cell, or one pixel
// per `block` x `block` cells.
struct View {
  Rect region;
  int ppc = 1;
  int block = 1;
  int width_px() const {
    return static_cast<int>(block > 1 ? (region.width() + block - 1) / block
                                      : region.width() * ppc);
  }
  int height_px() const {
    return static_cast<int>(block > 1 ? (region.height() + block - 1) / block
                                      : region.height() * ppc);
  }
  int Px(int32_t x) const { return (x - region.x0) * ppc / block; }
  int Py(int32_t y) const { return (y - region.y0) * ppc / block; }
  // Pixel centre of a cell.
  int Cx(int32_t x) const { return Px(x) + ppc / 2; }
  int Cy(int32_t y) const { return Py(y) + ppc / 2; }
  void MarkCell(RgbImage& image, Point p, Rgb c, double alpha) const {
    if (!region.Contains(p)) return;
    for (int dy = 0; dy < ppc; ++dy) {
      for (int dx = 0; dx < ppc; ++dx) {
        image.Blend(Px(p.x) + dx, Py(p.y) + dy, c, alpha);
      }
    }
  }
};

Rgb TerrainColor(uint8_t cost) {
  if (cost == 0) return kBlocked;
  if (cost == 1) return kGround;
  // Heavier terrain darker and greener, on a log scale up to cost 16.
  const double t = std::min(1.0, std::log2(cost) / 4.0);
  auto mix = [t](uint8_t a, uint8_t b) {
    return static_cast<uint8_t>(std::lround(a + (b - a) * t));
  };
  return {mix(kGround.r, kHeavy.r), mix(kGround.g, kHeavy.g),
          mix(kGround.b, kHeavy.b)};
}

void DrawTerrain(const Grid& grid, const View& view, RgbImage& image) {
  for (int py = 0; py < image.height(); ++py) {
    for (int px = 0; px < image.width(); ++px) {
      // Cells under this pixel.
      const int32_t x0 = view.region.x0 + px * view.block / view.ppc;
      const int32_t y0 = view.region.y0 + py * view.block / view.ppc;
      const int32_t x1 = std::min(view.region.x1, x0 + view.block);
      const int32_t y1 = std::min(view.region.y1, y0 + view.block);
      uint64_t r = 0, g = 0, b = 0, n = 0;
      for (int32_t y = y0; y < y1; ++y) {
        for (int32_t x = x0; x < x1; ++x) {
          const Rgb c = TerrainColor(grid.cost({x, y}));
          r += c.r;
          g += c.g;
          b += c.b;
          ++n;
        }
      }
      if (n > 0) {
        image.Set(px, py,
                  {static_cast<uint8_t>(r / n), static_cast<uint8_t>(g / n),
                   static_cast<uint8_t>(b / n)});
      }
    }
  }
}

void DrawZoneBorders(const SharedLevel& level, const View& view, Rgb color,
                     double alpha, RgbImage& image) {
  const int32_t side = level.zone_side;
  if (side * view.ppc / view.block < 4) return;  // borders would fill it
  const Rect& r = view.region;
  for (int32_t x = (r.x0 + side - 1) / side * side; x < r.x1; x += side) {
    for (int py = 0; py < image.height(); ++py) {
      image.Blend(view.Px(x), py, color, alpha);
    }
  }
  for (int32_t y = (r.y0 + side - 1) / side * side; y < r.y1; y += side) {
    for (int px = 0; px < image.width(); ++px) {
      image.Blend(px, view.Py(y), color, alpha);
    }
  }
}

void DrawGraph(const World& world, const View& view, RgbImage& image) {
  const SharedAbstraction& a = world.abstraction();
  const SharedLevel& level = a.levels[0];
  // Live nodes only: an updated world also holds unused (dead) node ids.
  level.ForEachNode([&](uint32_t u) {
    const Point pu = a.beacons[u];
    for (uint32_t e = level.edge_begin[u]; e < level.edge_end[u]; ++e) {
      const AbstractEdge& edge = level.edges[e];
      if (edge.target < u) continue;  // each undirected edge once
      const Point pv = a.beacons[edge.target];
      if (!view.region.Contains(pu) && !view.region.Contains(pv)) continue;
      image.Line(view.Cx(pu.x), view.Cy(pu.y), view.Cx(pv.x), view.Cy(pv.y),
                 edge.inter_zone ? kInterEdge : kIntraEdge);
    }
  });
}

void DrawBeacons(const World& world, const View& view, RgbImage& image) {
  const int size = std::max(3, view.ppc);
  const SharedAbstraction& a = world.abstraction();
  const SharedLevel& level = a.levels[0];
  level.ForEachNode([&](uint32_t u) {
    const Point p = a.beacons[u];
    if (!view.region.Contains(p)) return;
    image.FillRect(view.Cx(p.x) - size / 2, view.Cy(p.y) - size / 2, size, size,
                   kBeacon);
  });
}

void DrawPath(const RunLengthPath& path, const View& view, RgbImage& image) {
  Point p = path.start();
  const int thickness = std::max(2, std::min(3, view.ppc));
  for (const Run& run : path.runs()) {
    const Point q{p.x + Dx(run.direction) * static_cast<int32_t>(run.count),
                  p.y + Dy(run.direction) * static_cast<int32_t>(run.count)};
    image.Line(view.Cx(p.x), view.Cy(p.y), view.Cx(q.x), view.Cy(q.y), kPath,
               thickness);
    p = q;
  }
}

absl::StatusOr<View> ViewFromFlags(const Grid& grid) {
  View view;
  view.region = grid.bounds();
  const std::vector<std::string> region = absl::GetFlag(FLAGS_region);
  if (!region.empty()) {
    ASSIGN_OR_RETURN(std::vector<int32_t> v, ParseInts(region, "region"));
    if (v.size() != 4 || v[2] < 1 || v[3] < 1) {
      return absl::OutOfRangeError("--region needs X,Y,W,H with W,H >= 1");
    }
    // In 64 bits: X + W must not overflow before the bounds check.
    if (v[0] < 0 || v[1] < 0 || int64_t{v[0]} + v[2] > grid.width() ||
        int64_t{v[1]} + v[3] > grid.height()) {
      return absl::OutOfRangeError(absl::StrCat(
          "--region ", v[0], ",", v[1], ",", v[2], ",", v[3],
          " is not inside the ", grid.width(), "x", grid.height(), " world"));
    }
    view.region = {v[0], v[1], v[0] + v[2], v[1] + v[3]};
  }
  double scale = absl::GetFlag(FLAGS_scale);
  const int64_t longest =
      std::max<int64_t>(view.region.width(), view.region.height());
  // Below 1/65536 a pixel would cover more than a whole world side (and the
  // block size 1/scale would overflow an int).
  if (!std::isfinite(scale) || scale > 64 ||
      (scale != 0 && scale < 1.0 / 65536)) {
    return absl::OutOfRangeError(
        "--scale must be 0 (fit) or in [1/65536, 64] pixels per cell");
  }
  if (scale == 0) {  // fit about 1024 pixels
    scale = longest <= 1024
                ? std::min<int64_t>(8, std::max<int64_t>(1, 1024 / longest))
                : 1.0 / std::ceil(longest / 1024.0);
  }
  if (scale >= 1) {
    view.ppc = static_cast<int>(std::floor(scale));
  } else {
    view.block = static_cast<int>(std::lround(1.0 / scale));
  }
  const int64_t pixels =
      static_cast<int64_t>(view.width_px()) * view.height_px();
  if (pixels > kMaxPixels) {
    return absl::InvalidArgumentError(
        absl::StrCat("the picture would have ", pixels,
                     " pixels; use a smaller --scale or a --region"));
  }
  return view;
}

// A unit's anchor and heading along a path: at its start and after each
// step and turn (an unoriented class's heading stays N).
struct Pose {
  Point anchor;
  Direction heading;
};
void PosesOf(const AgentClass& agent, const AgentPath& path,
             std::vector<Pose>* poses) {
  poses->clear();
  Pose at{path.start(), path.start_heading()};
  poses->push_back(at);
  for (const AgentRun& run : path.runs()) {
    for (uint32_t i = 0; i < run.count; ++i) {
      if (run.action == AgentAction::kTurn) {
        at.heading = Rotate(at.heading, run.rotation * TurnEighths(agent));
      } else {
        const Direction d = run.action == AgentAction::kBackward
                                ? Opposite(run.heading)
                                : run.heading;
        at.anchor = Step(at.anchor, d);
      }
      poses->push_back(at);
    }
  }
}

// The cells the class's footprint covers at `poses`, tinted (each once),
// the footprint at both ends solid, and a line through the footprints'
// centres.
void DrawFootprints(const std::vector<Pose>& poses, const AgentClass& agent,
                    const View& view, RgbImage& image) {
  std::vector<Point> covered;
  for (const Pose& pose : poses) {
    const Rect r = agent.Covers(pose.anchor, pose.heading);
    for (int32_t y = r.y0; y < r.y1; ++y) {
      for (int32_t x = r.x0; x < r.x1; ++x) covered.push_back({x, y});
    }
  }
  std::sort(covered.begin(), covered.end(), [](Point a, Point b) {
    return a.y != b.y ? a.y < b.y : a.x < b.x;
  });
  covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
  for (const Point& c : covered) view.MarkCell(image, c, kFootprint, 0.4);
  for (const Pose* end : {&poses.front(), &poses.back()}) {
    const Rect r = agent.Covers(end->anchor, end->heading);
    for (int32_t y = r.y0; y < r.y1; ++y) {
      for (int32_t x = r.x0; x < r.x1; ++x) {
        view.MarkCell(image, {x, y}, kFootprint, 0.9);
      }
    }
  }
  auto centre = [&](const Pose& pose) {
    const Rect r = agent.Covers(pose.anchor, pose.heading);
    return Point{(view.Cx(r.x0) + view.Cx(r.x1 - 1)) / 2,
                 (view.Cy(r.y0) + view.Cy(r.y1 - 1)) / 2};
  };
  const int thickness = std::max(2, std::min(3, view.ppc));
  for (size_t k = 1; k < poses.size(); ++k) {
    const Point a = centre(poses[k - 1]), b = centre(poses[k]);
    image.Line(a.x, a.y, b.x, b.y, kPath, thickness);
  }
}

// Oriented queries: planned by AgentPlanner on the agent world (`exact`:
// ClassAStar), drawn by DrawFootprints.
absl::Status DrawOrientedPaths(const AgentWorld& agents,
                               const AgentClass& agent,
                               const std::vector<int32_t>& queries, bool exact,
                               const View& view, RgbImage& image) {
  AgentPlanner planner(agents);
  ClassAStar search(agents.terrain());
  const AgentPlanOptions options = AgentPlanOptionsFromFlags();
  AgentPath path;
  std::vector<Pose> poses;
  for (size_t i = 0; i + 3 < queries.size(); i += 4) {
    const Point s{queries[i], queries[i + 1]},
        t{queries[i + 2], queries[i + 3]};
    absl::StatusOr<SearchOutcome> outcome =
        exact ? search.FindPath(agent, s, options.start_heading, t,
                                ClassAStarOptions(), &path)
              : planner.FindPath(agent.name, s, t, options, &path);
    if (!outcome.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--path ", PointString(s), " -> ", PointString(t), ": ",
                       outcome.status().message()));
    }
    std::printf("%s %s -> %s: %s, cost %.3f, %lld steps, %lld turns\n",
                exact ? "astar" : "hpa", PointString(s).c_str(),
                PointString(t).c_str(),
                std::string(SearchOutcomeName(*outcome)).c_str(), path.cost(),
                static_cast<long long>(path.steps()),
                static_cast<long long>(path.turns()));
    if (*outcome != SearchOutcome::kFound) continue;
    PosesOf(agent, path, &poses);
    DrawFootprints(poses, agent, view, image);
  }
  return absl::OkStatus();
}

// One panel: terrain and overlays, then the queries' searches and paths.
// With `agent`, `terrain` is drawn (the world's grid is the class grid)
// and the footprint along each path.
absl::StatusOr<RgbImage> DrawPanel(const World& world, const View& view,
                                   const std::vector<int32_t>& queries,
                                   bool exact,
                                   const std::optional<ClassWorld>& agent,
                                   const AgentWorld* agents) {
  const Grid& grid = world.grid();
  RgbImage image(view.width_px(), view.height_px(), kBlocked);
  DrawTerrain(agent.has_value() ? agent->terrain : grid, view, image);
  const bool explored = absl::GetFlag(FLAGS_explored);
  const auto& levels = world.abstraction().levels;
  if (absl::GetFlag(FLAGS_zones)) {
    DrawZoneBorders(levels[0], view, kZone1, 0.35, image);
    if (levels.size() > 1) DrawZoneBorders(levels[1], view, kZone2, 0.6, image);
  }
  if (absl::GetFlag(FLAGS_graph)) DrawGraph(world, view, image);
  if (agent.has_value() && agent->agent.oriented && agents != nullptr) {
    if (absl::GetFlag(FLAGS_beacons)) DrawBeacons(world, view, image);
    RETURN_IF_ERROR(
        DrawOrientedPaths(*agents, agent->agent, queries, exact, view, image));
    return image;
  }
  Planner planner(world);
  GridAStar astar(grid);
  PlanTrace trace;
  std::vector<Point> astar_trace;
  if (explored) {
    planner.set_trace(&trace);
    astar.set_trace(&astar_trace);
  }
  std::vector<RunLengthPath> paths;
  for (size_t i = 0; i + 3 < queries.size(); i += 4) {
    const Point s{queries[i], queries[i + 1]},
        t{queries[i + 2], queries[i + 3]};
    RunLengthPath path;
    absl::StatusOr<SearchOutcome> outcome =
        exact ? astar.FindPath(s, t, AStarOptions(), &path)
              : planner.FindPath(s, t, PlanOptionsFromFlags(), &path);
    if (!outcome.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--path ", PointString(s), " -> ", PointString(t), ": ",
                       outcome.status().message()));
    }
    const int64_t expanded =
        exact ? astar.stats().expanded : planner.stats().total_expanded();
    std::printf(
        "%s %s -> %s: %s, cost %.3f, %lld moves, %lld expanded\n",
        exact ? "astar" : "hpa", PointString(s).c_str(), PointString(t).c_str(),
        std::string(SearchOutcomeName(*outcome)).c_str(), path.cost(),
        static_cast<long long>(path.steps()), static_cast<long long>(expanded));
    paths.push_back(std::move(path));
  }
  for (const Point& p : astar_trace)
    view.MarkCell(image, p, kAStarSearch, 0.55);
  for (const Point& p : trace.expanded_cells) {
    view.MarkCell(image, p, kCellSearch, 0.55);
  }
  if (absl::GetFlag(FLAGS_beacons)) DrawBeacons(world, view, image);
  const int size = std::max(3, view.ppc + 2);
  for (const Point& p : trace.expanded_beacons) {
    if (!view.region.Contains(p)) continue;
    image.FillRect(view.Cx(p.x) - size / 2, view.Cy(p.y) - size / 2, size, size,
                   kAbstractSearch);
  }
  AgentPath agent_path;
  std::vector<Pose> poses;
  for (const RunLengthPath& path : paths) {
    if (!agent.has_value()) {
      DrawPath(path, view, image);
      continue;
    }
    FromRunLengthPath(path, &agent_path);
    PosesOf(agent->agent, agent_path, &poses);
    DrawFootprints(poses, agent->agent, view, image);
  }
  return image;
}

absl::Status Render(const std::vector<std::string>& args) {
  const std::string out = absl::GetFlag(FLAGS_o);
  if (out.empty()) return absl::InvalidArgumentError("-o OUT.png is required");
  ASSIGN_OR_RETURN(std::vector<int32_t> queries,
                   ParseInts(absl::GetFlag(FLAGS_path), "path"));
  if (queries.size() % 4 != 0) {
    return absl::InvalidArgumentError(
        "--path needs groups of four numbers: SX,SY,GX,GY");
  }
  ASSIGN_OR_RETURN(LoadedWorld loaded,
                   LoadWorldFromFlags(args[0], /*allow_oriented=*/true));
  const World& world = loaded.world;
  const std::optional<ClassWorld>& agent = loaded.agent;
  ASSIGN_OR_RETURN(View view, ViewFromFlags(world.grid()));
  ASSIGN_OR_RETURN(RgbImage hpa, DrawPanel(world, view, queries, false, agent,
                                           loaded.agents.get()));
  if (!absl::GetFlag(FLAGS_compare)) {
    RETURN_IF_ERROR(WritePngFile(hpa, out));
  } else {
    ASSIGN_OR_RETURN(RgbImage exact, DrawPanel(world, view, queries, true,
                                               agent, loaded.agents.get()));
    constexpr int kGap = 8;
    RgbImage both(2 * hpa.width() + kGap, hpa.height(), {255, 255, 255});
    both.Paste(exact, 0, 0);
    both.Paste(hpa, hpa.width() + kGap, 0);
    RETURN_IF_ERROR(WritePngFile(both, out));
  }
  std::printf(
      "wrote %s (%s)\n", out.c_str(),
      view.block > 1
          ? absl::StrCat(view.block, "x", view.block, " cells per pixel")
                .c_str()
          : absl::StrCat(view.ppc, " pixels per cell").c_str());
  return absl::OkStatus();
}

int Run(const std::vector<std::string>& args) {
  absl::Status status = Render(args);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kRenderCommand = {
    "render",
    "Draw a world as PNG: terrain, zones, beacons, graph, paths, searches.",
    "usage: zonepath render WORLD -o OUT.png [--path SX,SY,GX,GY[,...]] "
    "[--zones] [--beacons] [--graph] [--explored] [--compare] "
    "[--region X,Y,W,H] [--scale S] [--smooth] "
    "[--agents FILE --agent CLASS --terrain MAP]",
    {"render_command.cc", "output_flag.cc", "planner_flags.cc",
     "agent_flags.cc"},
    1,
    1,
    &Run};

}  // namespace zonepath::cli
