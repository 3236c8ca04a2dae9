// `zonepath changes WORLD SCRIPT`: replays a change script (cell changes and
// queries, see change_script.h) against a world and reports, per applied
// batch: zones searched again, update time (and, with --rebuild, a full
// rebuild's time and whether both give the same bytes), and for a fleet of
// units with stored paths, how many the change affects and how repairing
// them compares with re-planning them from scratch (time and cost).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "change_script.h"
#include "commands.h"
#include "common_flags.h"
#include "nlohmann/json.hpp"
#include "planner_flags.h"
#include "random_queries.h"
#include "summary_stats.h"
#include "threads_flag.h"
#include "zonepath/base/input_file.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/paths/path_store.h"
#include "zonepath/repair/path_repair.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world_file.h"

ABSL_FLAG(int64_t, fleet, 1000,
          "units with stored paths (random long queries) whose paths are "
          "repaired after each batch; 0 for none");
ABSL_FLAG(uint64_t, fleet_seed, 1, "seed of the fleet's queries");
ABSL_FLAG(double, fallback_ratio, 1.2,
          "re-plan a unit from scratch when its spliced path would cost more "
          "than this times a fresh path");
ABSL_FLAG(bool, rebuild, false,
          "also rebuild the whole world after each batch, for comparison");

namespace zonepath::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Change scripts are text of a few lines per change: far below this.
constexpr uint64_t kMaxChangeScriptBytes = uint64_t{1} << 30;

double MsSince(Clock::time_point begin) {
  return std::chrono::duration<double, std::milli>(Clock::now() - begin)
      .count();
}

absl::StatusOr<std::string> ReadText(const std::string& path) {
  ASSIGN_OR_RETURN(const uint64_t size, InputFileSize(path));
  if (size > kMaxChangeScriptBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", size, " bytes; change scripts are limited to ",
                     kMaxChangeScriptBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Repairs the units a batch affects and re-plans each one from scratch too.
struct FleetResult {
  int64_t affected = 0, spliced = 0, replanned = 0, unreachable = 0, failed = 0;
  std::vector<double> repair_ms, replan_ms, cost_ratio;
  std::string first_failure;  // the first repair error's message
};

FleetResult RepairFleet(const World& world, const UpdateReport& report,
                        const PlanOptions& plan, PathStore* store) {
  FleetResult result;
  const ZoneLayout layout = world.abstraction().levels[0].layout();
  std::vector<UnitId> units;
  store->UnitsCrossing(layout, report.affected_zones, &units);
  result.affected = static_cast<int64_t>(units.size());
  PathRepairer repairer(world);
  Planner fresh_planner(world);
  RepairOptions options;
  options.plan = plan;
  options.fallback_ratio = absl::GetFlag(FLAGS_fallback_ratio);
  RunLengthPath fresh, old;
  for (UnitId unit : units) {
    if (!store->Read(unit, -1, &old).ok()) continue;
    const Point start = old.start();
    const Point goal = CellAfterMoves(start, old.runs(), old.steps());
    Clock::time_point begin = Clock::now();
    absl::StatusOr<RepairResult> repaired =
        repairer.Repair(unit, report.affected_zones, options, store);
    const double repair_ms = MsSince(begin);
    if (!repaired.ok()) {  // e.g. a wall built on the unit
      if (result.failed == 0) {
        result.first_failure = std::string(repaired.status().message());
      }
      ++result.failed;
      store->Remove(unit);
      continue;
    }
    result.repair_ms.push_back(repair_ms);
    switch (repaired->kind) {
      case RepairKind::kSpliced:
        ++result.spliced;
        break;
      case RepairKind::kReplanned:
        ++result.replanned;
        break;
      case RepairKind::kUnreachable:
        ++result.unreachable;
        continue;
      case RepairKind::kUntouched:
        continue;
    }
    begin = Clock::now();
    absl::StatusOr<SearchOutcome> outcome =
        fresh_planner.FindPath(start, goal, plan, &fresh);
    result.replan_ms.push_back(MsSince(begin));
    if (outcome.ok() && *outcome == SearchOutcome::kFound && fresh.cost() > 0) {
      result.cost_ratio.push_back(repaired->cost / fresh.cost());
    }
  }
  return result;
}

absl::Status Changes(const std::vector<std::string>& args) {
  if (absl::GetFlag(FLAGS_verify) && !absl::GetFlag(FLAGS_rebuild)) {
    return absl::InvalidArgumentError("--verify needs --rebuild");
  }
  if (absl::GetFlag(FLAGS_fleet) < 0) {
    return absl::InvalidArgumentError("--fleet must be >= 0");
  }
  // --checksums and --memory_limit as for every loading command; --verify
  // here is the rebuild check, not LoadOptions::verify_refinement.
  LoadOptions load;
  load.verify_checksums = absl::GetFlag(FLAGS_checksums);
  load.memory_limit = absl::GetFlag(FLAGS_memory_limit);
  ASSIGN_OR_RETURN(World world, LoadWorldFile(args[0], load));
  ASSIGN_OR_RETURN(std::string text, ReadText(args[1]));
  ASSIGN_OR_RETURN(std::vector<ScriptStep> steps,
                   ParseChangeScript(text, args[1], world.grid().width(),
                                     world.grid().height()));
  const PlanOptions plan = PlanOptionsFromFlags();
  UpdateOptions update;
  ASSIGN_OR_RETURN(update.threads, ThreadsFromFlag(1, false));
  const bool json = absl::GetFlag(FLAGS_json);

  // The fleet: stored paths planned on the starting world.
  PathStore store;
  {
    ASSIGN_OR_RETURN(std::vector<Query> queries,
                     RandomLongQueries(world.grid(), absl::GetFlag(FLAGS_fleet),
                                       absl::GetFlag(FLAGS_fleet_seed)));
    Planner planner(world);
    RunLengthPath path;
    for (size_t i = 0; i < queries.size(); ++i) {
      ASSIGN_OR_RETURN(
          SearchOutcome outcome,
          planner.FindPath(queries[i].start, queries[i].goal, plan, &path));
      if (outcome == SearchOutcome::kFound) {
        RETURN_IF_ERROR(store.Set(UnitId(i), path));
      }
    }
  }
  const int64_t fleet_size = store.Stats().units;
  if (!json) {
    std::printf("%s: %dx%d, %lld units with stored paths, %zu script steps\n",
                args[0].c_str(), world.grid().width(), world.grid().height(),
                static_cast<long long>(fleet_size), steps.size());
  }

  nlohmann::json applies = nlohmann::json::array();
  nlohmann::json queries = nlohmann::json::array();
  for (const ScriptStep& step : steps) {
    if (step.kind == ScriptStep::Kind::kQuery) {
      // Timed from the planner's making: a version's first planner builds
      // its landmark tables, which its first query paid for before.
      const Clock::time_point begin = Clock::now();
      Planner planner(world);
      RunLengthPath path;
      absl::StatusOr<SearchOutcome> outcome =
          planner.FindPath(step.start, step.goal, plan, &path);
      const double ms = MsSince(begin);
      const std::string status = outcome.ok()
                                     ? std::string(SearchOutcomeName(*outcome))
                                     : std::string(outcome.status().message());
      const bool found = outcome.ok() && *outcome == SearchOutcome::kFound;
      queries.push_back({{"line", step.line},
                         {"version", world.version()},
                         {"start", {step.start.x, step.start.y}},
                         {"goal", {step.goal.x, step.goal.y}},
                         {"status", status},
                         {"cost", found ? path.cost() : 0.0},
                         {"time_ms", ms}});
      if (!json) {
        std::printf(
            "line %d: query %s -> %s on version %llu: %s", step.line,
            PointString(step.start).c_str(), PointString(step.goal).c_str(),
            static_cast<unsigned long long>(world.version()), status.c_str());
        if (found) std::printf(", cost %.3f", path.cost());
        std::printf(", %.3f ms\n", ms);
      }
      continue;
    }
    const std::vector<CellChange> changes =
        ExpandOps(step.ops, world.grid().width(), world.grid().height());
    UpdateReport report;
    const Clock::time_point begin = Clock::now();
    absl::StatusOr<World> next = ApplyChanges(world, changes, update, &report);
    const double apply_ms = MsSince(begin);
    if (!next.ok()) {
      return absl::Status(
          next.status().code(),
          absl::StrCat(args[1], ":", step.line, ": ", next.status().message()));
    }
    nlohmann::json a = {
        {"name", step.name},
        {"line", step.line},
        {"version", next->version()},
        {"changes", changes.size()},
        {"changed_cells", report.changed_cells},
        {"zones_searched", report.zones_searched},
        {"zones_total", report.zones_total},
        {"passability_changed", report.passability_changed},
        {"apply_ms", apply_ms},
        {"grid_ms", absl::ToDoubleMilliseconds(report.grid_time)},
        {"levels_ms", absl::ToDoubleMilliseconds(report.levels_time)},
        {"owned_bytes", report.owned_bytes},
        {"total_bytes", report.total_bytes},
        {"rebuilt_fully", report.rebuilt_fully},
        {"compacted", report.compacted}};
    std::string rebuild_text;
    if (absl::GetFlag(FLAGS_rebuild)) {
      BuildOptions build;
      build.params = next->params();
      build.threads = update.threads;
      const Clock::time_point rebuild_begin = Clock::now();
      ASSIGN_OR_RETURN(World rebuilt, BuildWorld(next->grid(), build));
      const double rebuild_ms = MsSince(rebuild_begin);
      a["rebuild_ms"] = rebuild_ms;
      a["speedup"] = rebuild_ms / apply_ms;
      rebuild_text = absl::StrFormat("; full rebuild %.1f ms (%.1fx)",
                                     rebuild_ms, rebuild_ms / apply_ms);
      if (absl::GetFlag(FLAGS_verify)) {
        const bool same = SerializeWorld(*next) == SerializeWorld(rebuilt);
        a["identical"] = same;
        absl::StrAppend(&rebuild_text, same ? ", same bytes" : ", DIFFERENT");
        if (!same) {
          return absl::InternalError(absl::StrCat(
              args[1], ":", step.line,
              ": the update differs from a full rebuild (a bug; please "
              "report it with the world and script)"));
        }
      }
    }
    world = *std::move(next);
    const FleetResult fleet = RepairFleet(world, report, plan, &store);
    a["units"] = {
        {"affected", fleet.affected},
        {"spliced", fleet.spliced},
        {"replanned", fleet.replanned},
        {"unreachable", fleet.unreachable},
        {"failed", fleet.failed},
        {"repair_ms_median", Percentile(fleet.repair_ms, 50)},
        {"repair_ms_total", Mean(fleet.repair_ms) * fleet.repair_ms.size()},
        {"replan_ms_median", Percentile(fleet.replan_ms, 50)},
        {"replan_ms_total", Mean(fleet.replan_ms) * fleet.replan_ms.size()},
        {"cost_ratio_mean", Mean(fleet.cost_ratio)},
        {"cost_ratio_max", Percentile(fleet.cost_ratio, 100)}};
    applies.push_back(a);
    if (json) continue;
    std::vector<std::string> searched;
    for (size_t l = 0; l < report.zones_searched.size(); ++l) {
      searched.push_back(absl::StrCat("L", l + 1, " ", report.zones_searched[l],
                                      "/", report.zones_total[l]));
    }
    std::printf(
        "line %d: apply '%s' -> version %llu: %lld cells changed; zones "
        "searched %s%s\n  update %.1f ms (grid %.1f, levels %.1f)%s\n",
        step.line, step.name.c_str(),
        static_cast<unsigned long long>(world.version()),
        static_cast<long long>(report.changed_cells),
        absl::StrJoin(searched, ", ").c_str(),
        report.passability_changed ? "; passability changed" : "", apply_ms,
        absl::ToDoubleMilliseconds(report.grid_time),
        absl::ToDoubleMilliseconds(report.levels_time), rebuild_text.c_str());
    std::printf(
        "  units: %lld of %lld affected: %lld spliced, %lld re-planned, %lld "
        "unreachable, %lld failed\n",
        static_cast<long long>(fleet.affected),
        static_cast<long long>(fleet_size),
        static_cast<long long>(fleet.spliced),
        static_cast<long long>(fleet.replanned),
        static_cast<long long>(fleet.unreachable),
        static_cast<long long>(fleet.failed));
    std::printf(
        "  memory: the new version wrote %.2f MB of its %.1f MB, sharing the "
        "rest with the previous one%s\n",
        report.owned_bytes / 1e6, report.total_bytes / 1e6,
        report.rebuilt_fully ? " (rebuilt fully: too many zones changed)"
        : report.compacted   ? " (compacted: laid out afresh)"
                             : "");
    if (fleet.failed > 0) {
      std::printf("  first failure: %s\n", fleet.first_failure.c_str());
    }
    if (!fleet.repair_ms.empty()) {
      std::printf(
          "  repair median %.3f ms vs fresh re-plan %.3f ms; cost repaired / "
          "fresh: mean %.4f, max %.4f\n",
          Percentile(fleet.repair_ms, 50), Percentile(fleet.replan_ms, 50),
          Mean(fleet.cost_ratio), Percentile(fleet.cost_ratio, 100));
    }
  }
  if (json) {
    nlohmann::json out = {
        {"world", args[0]},
        {"script", args[1]},
        {"width", world.grid().width()},
        {"height", world.grid().height()},
        {"fleet", fleet_size},
        {"fallback_ratio", absl::GetFlag(FLAGS_fallback_ratio)},
        {"applies", applies},
        {"queries", queries}};
    std::printf("%s\n", out.dump(1).c_str());
  }
  return absl::OkStatus();
}

int Run(const std::vector<std::string>& args) {
  absl::Status status = Changes(args);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kChangesCommand = {
    "changes",
    "Replay a change script against a world: update, repair and query "
    "timings.",
    "usage: zonepath changes WORLD SCRIPT [--fleet N] [--fleet-seed S] "
    "[--fallback-ratio R] [--rebuild [--verify]] [--threads T] [--smooth] "
    "[--json]\n\nSCRIPT lines (# starts a comment):\n"
    "  cell X Y COST               one cell; COST 0..255 or 'blocked'\n"
    "  rect X Y W H COST           every cell of a rectangle\n"
    "  scatter FRACTION COST SEED  that fraction of the map's cells, at "
    "random\n"
    "  apply [NAME]                apply the changes so far as one batch\n"
    "  query SX SY GX GY           plan on the current version",
    {"changes_command.cc", "common_flags.cc", "planner_flags.cc",
     "threads_flag.cc", "load_flags.cc", "memory_limit_flag.cc"},
    2,
    2,
    &Run};

}  // namespace zonepath::cli
