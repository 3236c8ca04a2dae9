// `zonepath build MAP -o WORLD` and `zonepath inspect WORLD`: the offline
// build and a look at its result.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "commands.h"
#include "common_flags.h"
#include "memory_budget.h"
#include "nlohmann/json.hpp"
#include "process_memory.h"
#include "threads_flag.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/build_agent_world.h"
#include "zonepath/base/input_file.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/update/build_connection_tables.h"
#include "zonepath/world/world_file.h"

ABSL_DECLARE_FLAG(std::string, o);  // output_flag.cc
ABSL_FLAG(int32_t, zone_size, 0,
          "level-1 zone side in cells (4..1024; 0: automatic from the world's "
          "size, 32 up to 4096 cells a side and 64 above, see the README)");
ABSL_FLAG(int32_t, levels, 0,
          "abstract levels (1..8; 0: automatic from the world's size, see "
          "the README)");
ABSL_FLAG(int32_t, group, 4, "level-k zone = group x group level k-1 zones");
ABSL_FLAG(int32_t, entrance_threshold, 6,
          "entrances at least this long get a beacon pair at each end");
ABSL_FLAG(int32_t, beacon_spacing, zonepath::BuildParams().beacon_spacing,
          "0, or max(2, zone size / 8)..1024: long entrances also get beacon "
          "pairs in between, "
          "at most this many cells apart (closer to optimal paths, a larger "
          "world)");
ABSL_FLAG(int32_t, oriented_beacon_spacing,
          zonepath::AgentWorldBuildOptions().oriented_beacon_spacing,
          "with --agents: the beacon spacing of oriented classes' guide "
          "worlds when --beacon_spacing is 0 (0: none)");
ABSL_FLAG(std::string, classes, "",
          "with --agents and no --agent: the classes to build, comma "
          "separated (default: every class of the file)");
ABSL_FLAG(bool, connection_tables, true,
          "store the connection tables of levels >= 3 (queries connect their "
          "endpoints to those levels by a look-up, not a search; ~16% more "
          "world on rooms 16384^2); --noconnection_tables to leave them out");
ABSL_FLAG(bool, compact_classes, true,
          "with --agents and no --agent: store class worlds in compact form "
          "(~3.4x smaller, decoded into memory on load); "
          "--nocompact_classes: as world files, mapped in place on load");
ABSL_FLAG(bool, cache_paths, false,
          "store level-1 intra-zone cell paths for lookup refinement");

namespace zonepath::cli {
namespace {

// A progress bar on a terminal; plain lines every 25% otherwise.
class Progress {
 public:
  Progress() : tty_(::isatty(STDERR_FILENO) == 1) {}
  void Update(const std::string& stage, int64_t done, int64_t total) {
    const int percent = total > 0 ? static_cast<int>(100 * done / total) : 100;
    if (tty_) {
      if (percent == last_percent_ && stage == last_stage_) return;
      const int filled = percent / 4;
      std::fprintf(stderr, "\r%-8s [%s%s] %3d%%", stage.c_str(),
                   std::string(filled, '#').c_str(),
                   std::string(25 - filled, ' ').c_str(), percent);
      if (done == total) std::fprintf(stderr, "\n");
    } else if (stage != last_stage_ || percent / 25 != last_percent_ / 25) {
      std::fprintf(stderr, "%s: %d%% (%lld of %lld zones)\n", stage.c_str(),
                   percent, static_cast<long long>(done),
                   static_cast<long long>(total));
    }
    last_stage_ = stage;
    last_percent_ = percent;
  }

 private:
  bool tty_;
  std::string last_stage_;
  int last_percent_ = -1;
};

// One row per level, from a loaded World or a freshly built flat
// abstraction.
struct LevelRow {
  int zone_side;
  int64_t zones;
  int64_t beacons;
  int64_t edges;
};

std::vector<LevelRow> LevelRows(const World& world) {
  std::vector<LevelRow> rows;
  for (const SharedLevel& l : world.abstraction().levels) {
    rows.push_back({l.zone_side, l.zone_count(), l.live_nodes, l.live_edges});
  }
  return rows;
}

std::vector<LevelRow> LevelRows(const Abstraction& flat) {
  std::vector<LevelRow> rows;
  for (const AbstractLevel& l : flat.levels) {
    rows.push_back({l.zone_side, l.zone_count(), l.node_count(),
                    static_cast<int64_t>(l.edges.size())});
  }
  return rows;
}

nlohmann::json LevelsJson(const std::vector<LevelRow>& rows) {
  nlohmann::json levels = nlohmann::json::array();
  for (size_t i = 0; i < rows.size(); ++i) {
    levels.push_back({{"level", i + 1},
                      {"zone_side", rows[i].zone_side},
                      {"zones", rows[i].zones},
                      {"beacons", rows[i].beacons},
                      {"edges", rows[i].edges}});
  }
  return levels;
}

void PrintSummary(const Grid& grid, const BuildParams& p,
                  const std::vector<LevelRow>& rows,
                  const WorldFileSizes& sizes) {
  std::printf(
      "grid %dx%d: %lld cells, %lld passable, %u components\n", grid.width(),
      grid.height(), static_cast<long long>(grid.cell_count()),
      static_cast<long long>(grid.passable_count()), grid.component_count());
  std::printf(
      "params: zone size %d, levels %d, group %d, entrance threshold "
      "%d%s, %s-connected%s\n",
      p.zone_size, p.levels, p.group, p.entrance_threshold,
      p.beacon_spacing > 0
          ? absl::StrCat(", beacon spacing ", p.beacon_spacing).c_str()
          : "",
      std::string(ConnectivityName(p.connectivity)).c_str(),
      p.cache_paths ? ", cached paths" : "");
  for (size_t i = 0; i < rows.size(); ++i) {
    std::printf(
        "level %zu: zone side %d, %lld zones, %lld beacons, %lld edges\n",
        i + 1, rows[i].zone_side, static_cast<long long>(rows[i].zones),
        static_cast<long long>(rows[i].beacons),
        static_cast<long long>(rows[i].edges));
  }
  std::printf(
      "file: %llu bytes = header %llu + grid %llu + component labels %llu + "
      "abstraction %llu + cached paths %llu + connection tables %llu + "
      "padding (abstraction %.3f bytes/cell)\n",
      static_cast<unsigned long long>(sizes.total),
      static_cast<unsigned long long>(sizes.header),
      static_cast<unsigned long long>(sizes.grid),
      static_cast<unsigned long long>(sizes.components),
      static_cast<unsigned long long>(sizes.abstraction),
      static_cast<unsigned long long>(sizes.cached_paths),
      static_cast<unsigned long long>(sizes.connection_tables),
      static_cast<double>(sizes.abstraction) / grid.cell_count());
}

BuildOptions BuildOptionsFromFlags() {
  BuildOptions options;
  options.params.zone_size = absl::GetFlag(FLAGS_zone_size);
  options.params.levels = absl::GetFlag(FLAGS_levels);
  options.params.group = absl::GetFlag(FLAGS_group);
  options.params.entrance_threshold = absl::GetFlag(FLAGS_entrance_threshold);
  options.params.beacon_spacing = absl::GetFlag(FLAGS_beacon_spacing);
  options.params.cache_paths = absl::GetFlag(FLAGS_cache_paths);
  options.connection_tables = absl::GetFlag(FLAGS_connection_tables);
  return options;
}

nlohmann::json AgentWorldJson(const AgentWorld& world,
                              const AgentWorldFileSizes& sizes) {
  nlohmann::json classes = nlohmann::json::array();
  for (size_t i = 0; i < world.classes().size(); ++i) {
    const AgentWorld::ClassWorldEntry& c = world.classes()[i];
    classes.push_back(
        {{"name", c.agent.name},
         {"file_bytes", sizes.classes[i].bytes},
         {"compact", sizes.classes[i].compact},
         {"why_not_compact", sizes.classes[i].why_not_compact},
         {"memory_bytes", c.world.MemoryUsage()},
         // Its grid is the terrain's pages (counted once in
         // the world's memory_bytes, here in the class's).
         {"grid_is_terrain", c.world.grid().SharesStorageWith(world.terrain())},
         {"levels", LevelsJson(LevelRows(c.world))}});
  }
  return {{"agent_world", true},
          {"width", world.terrain().width()},
          {"height", world.terrain().height()},
          {"cells", world.terrain().cell_count()},
          {"file_bytes", sizes.total},
          {"terrain_bytes", sizes.terrain},
          {"header_bytes", sizes.header},
          {"memory_bytes", world.MemoryUsage()},
          {"classes", classes}};
}

void PrintAgentWorld(const AgentWorld& world,
                     const AgentWorldFileSizes& sizes) {
  std::printf(
      "agent world %dx%d: %zu class worlds; file %llu bytes = terrain %llu + "
      "header and agent text %llu + class worlds\n",
      world.terrain().width(), world.terrain().height(), world.classes().size(),
      static_cast<unsigned long long>(sizes.total),
      static_cast<unsigned long long>(sizes.terrain),
      static_cast<unsigned long long>(sizes.header));
  for (size_t i = 0; i < world.classes().size(); ++i) {
    const AgentWorld::ClassWorldEntry& c = world.classes()[i];
    const std::vector<LevelRow> rows = LevelRows(c.world);
    std::printf("  class %-12s %9llu bytes%s (%.3f bytes/cell), %zu levels",
                c.agent.name.c_str(),
                static_cast<unsigned long long>(sizes.classes[i].bytes),
                sizes.classes[i].compact ? " compact" : "",
                static_cast<double>(sizes.classes[i].bytes) /
                    world.terrain().cell_count(),
                rows.size());
    if (!rows.empty()) {
      std::printf(", level 1: %lld beacons, %lld edges",
                  static_cast<long long>(rows[0].beacons),
                  static_cast<long long>(rows[0].edges));
    }
    std::printf("\n");
  }
}

// build --agents FILE without --agent: one agent world for the classes.
absl::Status BuildAgents(const std::string& map_path) {
  const std::string out = absl::GetFlag(FLAGS_o);
  ASSIGN_OR_RETURN(const uint64_t map_bytes, InputFileSize(map_path));
  ASSIGN_OR_RETURN(AgentSet agents,
                   ParseAgentFile(absl::GetFlag(FLAGS_agents)));
  AgentWorldBuildOptions options;
  options.build = BuildOptionsFromFlags();
  ASSIGN_OR_RETURN(options.build.threads, ThreadsFromFlag(0, true));
  options.oriented_beacon_spacing =
      absl::GetFlag(FLAGS_oriented_beacon_spacing);
  const std::string classes = absl::GetFlag(FLAGS_classes);
  if (!classes.empty()) options.classes = absl::StrSplit(classes, ',');
  // The terrain, then per class its grid and a build's peak beside it.
  const uint64_t class_count =
      options.classes.empty() ? agents.classes.size() : options.classes.size();
  RETURN_IF_ERROR(CheckAvailableMemory(
      map_bytes / 2 * 9 + map_bytes * class_count,
      absl::StrCat("building an agent world from ", map_path),
      absl::GetFlag(FLAGS_memory_limit)));
  ASSIGN_OR_RETURN(Grid terrain, LoadTerrainFromFlags(map_path));
  Progress progress;
  options.build.progress = [&progress](const std::string& stage, int64_t done,
                                       int64_t total) {
    progress.Update(stage, done, total);
  };
  const absl::Time begin = absl::Now();
  AgentWorldBuildReport report;
  ASSIGN_OR_RETURN(
      const AgentWorld world,
      BuildAgentWorld(std::move(terrain), std::move(agents), options, &report));
  const double build_seconds = absl::ToDoubleSeconds(absl::Now() - begin);
  AgentWorldFileSizes sizes;
  AgentWorldWriteOptions write;
  write.compact_classes = absl::GetFlag(FLAGS_compact_classes);
  RETURN_IF_ERROR(SaveAgentWorldFile(world, out, &sizes, write));
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = AgentWorldJson(world, sizes);
    j["map"] = map_path;
    j["world"] = out;
    j["build_seconds"] = build_seconds;
    j["peak_rss_bytes"] = PeakResidentBytes();
    std::printf("%s\n", j.dump().c_str());
    return absl::OkStatus();
  }
  PrintAgentWorld(world, sizes);
  std::printf("built in %.3f s, saved to %s, peak memory %.1f MiB\n",
              build_seconds, out.c_str(), PeakResidentBytes() / 1048576.0);
  return absl::OkStatus();
}

absl::Status InspectAgents(const std::string& path) {
  const absl::Time begin = absl::Now();
  AgentWorldFileSizes sizes;
  const LoadOptions options = LoadOptionsFromFlags();
  ASSIGN_OR_RETURN(const AgentWorld world,
                   LoadAgentWorldFile(path, options, &sizes));
  const double load_seconds = absl::ToDoubleSeconds(absl::Now() - begin);
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = AgentWorldJson(world, sizes);
    j["world"] = path;
    j["load_seconds"] = load_seconds;
    j["resident_bytes"] = ResidentBytes();
    j["peak_resident_bytes"] = PeakResidentBytes();
    j["checksums_verified"] = options.verify_checksums;
    j["refinement_verified"] = options.verify_refinement;
    std::printf("%s\n", j.dump().c_str());
    return absl::OkStatus();
  }
  std::printf("%s: valid zonepath agent world, loaded in %.3f s\n",
              path.c_str(), load_seconds);
  PrintAgentWorld(world, sizes);
  std::printf("in memory: %.1f MiB (terrain, class grids, abstractions)\n",
              world.MemoryUsage() / 1048576.0);
  return absl::OkStatus();
}

absl::Status Build(const std::string& map_path) {
  if (!absl::GetFlag(FLAGS_agents).empty() &&
      absl::GetFlag(FLAGS_agent).empty()) {
    return BuildAgents(map_path);
  }
  if (!absl::GetFlag(FLAGS_classes).empty()) {
    return absl::InvalidArgumentError(
        "--classes applies to an agent world (--agents without --agent)");
  }
  const std::string out = absl::GetFlag(FLAGS_o);
  // A map file has about a byte a cell; building peaks at about 4.5 bytes
  // a cell (the grid, its labels, the abstraction and the build's scratch;
  // README, "World files"): refuse what cannot fit before reading it.
  ASSIGN_OR_RETURN(const uint64_t map_bytes, InputFileSize(map_path));
  RETURN_IF_ERROR(CheckAvailableMemory(
      map_bytes / 2 * 9, absl::StrCat("building a world from ", map_path),
      absl::GetFlag(FLAGS_memory_limit)));
  ASSIGN_OR_RETURN(Grid grid, LoadMapFromFlags(map_path));
  const std::string agent_name = absl::GetFlag(FLAGS_agent);
  BuildOptions options = BuildOptionsFromFlags();
  ASSIGN_OR_RETURN(options.params.connectivity, ConnectivityFromFlags());
  ASSIGN_OR_RETURN(options.threads, ThreadsFromFlag(0, true));
  Progress progress;
  options.progress = [&progress](const std::string& stage, int64_t done,
                                 int64_t total) {
    progress.Update(stage, done, total);
  };
  BuildReport report;
  // The flat abstraction is written as it is: no World (whose paged copy
  // of the abstraction would double the peak) is made.
  ASSIGN_OR_RETURN(const Abstraction flat,
                   BuildFlatAbstraction(grid, options, &report));
  std::shared_ptr<const ConnectionTables> tables;
  const absl::Time tables_begin = absl::Now();
  if (options.connection_tables) {
    tables = BuildConnectionTables(flat, grid.width(), grid.height(),
                                   report.threads);
  }
  const double tables_seconds =
      absl::ToDoubleSeconds(absl::Now() - tables_begin);
  WorldFileSizes sizes;
  const absl::Time save_begin = absl::Now();
  RETURN_IF_ERROR(SaveWorldFile(grid, flat, out, &sizes, tables.get()));
  const double save_seconds = absl::ToDoubleSeconds(absl::Now() - save_begin);
  const double build_seconds =
      absl::ToDoubleSeconds(report.time) + tables_seconds;
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = {{"map", map_path},
                        {"agent", agent_name.empty() ? "default" : agent_name},
                        {"world", out},
                        {"cells", grid.cell_count()},
                        {"levels", LevelsJson(LevelRows(flat))},
                        {"build_seconds", build_seconds},
                        {"connection_table_seconds", tables_seconds},
                        {"save_seconds", save_seconds},
                        {"threads", report.threads},
                        {"file_bytes", sizes.total},
                        {"grid_bytes", sizes.grid},
                        {"component_bytes", sizes.components},
                        {"abstraction_bytes", sizes.abstraction},
                        {"cached_path_bytes", sizes.cached_paths},
                        {"connection_table_bytes", sizes.connection_tables},
                        {"peak_rss_bytes", PeakResidentBytes()}};
    std::printf("%s\n", j.dump().c_str());
    return absl::OkStatus();
  }
  PrintSummary(grid, flat.params, LevelRows(flat), sizes);
  if (!agent_name.empty()) {
    std::printf("class grid of agent class '%s' (anchor coordinates)\n",
                agent_name.c_str());
  }
  std::printf(
      "built in %.3f s on %d threads, saved to %s in %.3f s, peak "
      "memory %.1f MiB\n",
      build_seconds, report.threads, out.c_str(), save_seconds,
      PeakResidentBytes() / 1048576.0);
  return absl::OkStatus();
}

absl::Status Inspect(const std::string& path) {
  ASSIGN_OR_RETURN(const bool agent_world, IsAgentWorldFile(path));
  if (agent_world) return InspectAgents(path);
  const absl::Time begin = absl::Now();
  WorldFileSizes sizes;
  const LoadOptions options = LoadOptionsFromFlags();
  ASSIGN_OR_RETURN(World world, LoadWorldFile(path, options, &sizes));
  const double load_seconds = absl::ToDoubleSeconds(absl::Now() - begin);
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = {{"world", path},
                        {"width", world.grid().width()},
                        {"height", world.grid().height()},
                        {"cells", world.grid().cell_count()},
                        {"levels", LevelsJson(LevelRows(world))},
                        {"load_seconds", load_seconds},
                        {"file_bytes", sizes.total},
                        {"format_version", sizes.format_version},
                        {"grid_bytes", sizes.grid},
                        {"component_bytes", sizes.components},
                        {"abstraction_bytes", sizes.abstraction},
                        {"cached_path_bytes", sizes.cached_paths},
                        {"connection_table_bytes", sizes.connection_tables},
                        {"memory_bytes", world.MemoryUsage()},
                        {"mapped_bytes", world.MappedBytes()},
                        {"owned_bytes", world.OwnedBytes()},
                        // The kernel's view, to compare with memory_bytes
                        // (with checksums verified every page was read).
                        {"resident_bytes", ResidentBytes()},
                        {"peak_resident_bytes", PeakResidentBytes()},
                        {"checksums_verified", options.verify_checksums},
                        {"refinement_verified", options.verify_refinement}};
    std::printf("%s\n", j.dump().c_str());
    return absl::OkStatus();
  }
  std::printf(
      "%s: valid zonepath world (format version %u), loaded in %.3f s\n",
      path.c_str(), sizes.format_version, load_seconds);
  PrintSummary(world.grid(), world.params(), LevelRows(world), sizes);
  std::printf(
      "in memory: %.1f MiB, of which %.1f MiB mapped from the file "
      "(shared between processes), %.1f MiB owned; process resident "
      "%.1f MiB, peak %.1f MiB\n",
      world.MemoryUsage() / 1048576.0, world.MappedBytes() / 1048576.0,
      world.OwnedBytes() / 1048576.0, ResidentBytes() / 1048576.0,
      PeakResidentBytes() / 1048576.0);
  return absl::OkStatus();
}

int RunBuild(const std::vector<std::string>& args) {
  if (absl::GetFlag(FLAGS_o).empty()) {
    std::fprintf(stderr, "zonepath build: needs -o WORLD (the output file)\n");
    return kExitUsage;
  }
  absl::Status status = Build(args[0]);
  return status.ok() ? kExitOk : FailBadInput(status);
}

int RunInspect(const std::vector<std::string>& args) {
  absl::Status status = Inspect(args[0]);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kBuildCommand = {
    "build",
    "Build a world file (zones, beacons, abstract levels) from a map.",
    "usage: zonepath build MAP -o WORLD [--zone-size N] [--levels L] "
    "[--group G] [--threads T] [--cache-paths] [--json] [--agents FILE "
    "--agent CLASS | --agents FILE [--classes A,B]] [--memory_limit BYTES]\n"
    "With --agents and no --agent, an agent world: the terrain once and an "
    "abstraction per class (--classes A,B to choose; plan with --agent C on "
    "query, scen and render). With --agent, the world is built on the "
    "class's grid (anchor coordinates): one world per class.",
    {"build_command.cc", "common_flags.cc", "map_flags.cc", "agent_flags.cc",
     "threads_flag.cc", "output_flag.cc", "memory_limit_flag.cc"},
    1,
    1,
    &RunBuild};

const Command kInspectCommand = {
    "inspect",
    "Validate a world file and print its summary.",
    "usage: zonepath inspect WORLD [--checksums=false] [--verify] [--json] "
    "[--memory_limit BYTES]",
    {"common_flags.cc", "load_flags.cc", "memory_limit_flag.cc"},
    1,
    1,
    &RunInspect};

}  // namespace zonepath::cli
