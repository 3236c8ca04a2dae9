// `zonepath mem WORLD [SCEN]`: memory profile of path storage. Plans every
// scenario problem (or N random long queries), stores the paths in each
// codec and in a PathStore, and reports bytes, bits per step, the ratio to
// raw 32-bit cells, and encode / decode / random-access speed.
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "commands.h"
#include "common_flags.h"
#include "nlohmann/json.hpp"
#include "planner_flags.h"
#include "random_queries.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/movingai/scenario.h"
#include "zonepath/paths/path_codec.h"
#include "zonepath/paths/path_store.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/world/world_file.h"

ABSL_FLAG(int64_t, units, 0,
          "number of paths, 0..1000000: with SCEN, cycle through its problems "
          "until N "
          "(default: each problem once); without, N random long queries "
          "(default 1000)");
ABSL_FLAG(uint64_t, query_seed, 1, "seed of the random queries");

namespace zonepath::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Each unit keeps a query and a stored path (a few hundred bytes): a
// million stays well inside a laptop's memory.
constexpr int64_t kMaxUnits = 1'000'000;

absl::StatusOr<std::vector<Query>> QueriesFromArgs(
    const std::vector<std::string>& args, const Grid& grid) {
  const int64_t units = absl::GetFlag(FLAGS_units);
  if (units < 0 || units > kMaxUnits) {
    return absl::OutOfRangeError(
        absl::StrCat("--units must be in 0..", kMaxUnits, ", got ", units));
  }
  if (args.size() < 2) {
    return RandomLongQueries(grid, units > 0 ? units : 1000,
                             absl::GetFlag(FLAGS_query_seed));
  }
  ASSIGN_OR_RETURN(Scenario scen, ReadScenarioFile(args[1]));
  RETURN_IF_ERROR(CheckScenarioFitsGrid(scen, grid));
  if (scen.problems.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(args[1], ": no problems"));
  }
  const int64_t n =
      units > 0 ? units : static_cast<int64_t>(scen.problems.size());
  std::vector<Query> queries;
  for (int64_t i = 0; i < n; ++i) {
    const ScenarioProblem& p = scen.problems[i % scen.problems.size()];
    queries.push_back({p.start, p.goal});
  }
  return queries;
}

// Runs `pass` until at least 0.2 s have passed; returns ns per step.
template <typename Pass>
double NsPerStep(int64_t steps_per_pass, Pass pass) {
  int passes = 0;
  const Clock::time_point begin = Clock::now();
  Clock::duration elapsed{};
  do {
    pass();
    ++passes;
    elapsed = Clock::now() - begin;
  } while (elapsed < std::chrono::milliseconds(200));
  return std::chrono::duration<double, std::nano>(elapsed).count() /
         (static_cast<double>(passes) * std::max<int64_t>(1, steps_per_pass));
}

struct CodecReport {
  PathCodec codec;
  size_t bytes = 0;
  double encode_ns_per_step = 0, decode_ns_per_step = 0, cell_at_ns = 0;
  size_t store_bytes = 0;
};

absl::StatusOr<CodecReport> MeasureCodec(
    PathCodec codec, const std::vector<RunLengthPath>& paths,
    int64_t total_steps) {
  CodecReport report;
  report.codec = codec;
  std::vector<std::string> encoded(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    RETURN_IF_ERROR(EncodePath(codec, paths[i], &encoded[i]));
    report.bytes += encoded[i].size();
  }
  std::string scratch;
  // The timed loops keep the first error of any call and return it after.
  absl::Status timed;
  report.encode_ns_per_step = NsPerStep(total_steps, [&] {
    for (const RunLengthPath& path : paths) {
      timed.Update(EncodePath(codec, path, &scratch));
    }
  });
  RETURN_IF_ERROR(timed);
  // Lossless check once, then timed decoding into a reused path.
  RunLengthPath decoded;
  for (size_t i = 0; i < paths.size(); ++i) {
    ASSIGN_OR_RETURN(EncodedPath view, EncodedPath::Parse(encoded[i]));
    RETURN_IF_ERROR(DecodePath(view, &decoded));
    if (decoded.runs() != paths[i].runs() ||
        !(decoded.start() == paths[i].start())) {
      return absl::InternalError(
          absl::StrCat(PathCodecName(codec), " did not round-trip path ", i));
    }
  }
  report.decode_ns_per_step = NsPerStep(total_steps, [&] {
    for (const std::string& bytes : encoded) {
      const absl::StatusOr<EncodedPath> view = EncodedPath::Parse(bytes);
      timed.Update(view.ok() ? DecodePath(*view, &decoded) : view.status());
    }
  });
  RETURN_IF_ERROR(timed);
  // Random access: the cell at a random step of a random path.
  std::mt19937_64 rng(7);
  constexpr int kLookups = 20000;
  std::vector<std::pair<uint32_t, int64_t>> lookups;
  for (int i = 0; i < kLookups; ++i) {
    const uint32_t p = static_cast<uint32_t>(rng() % paths.size());
    lookups.push_back(
        {p, static_cast<int64_t>(rng() % (paths[p].steps() + 1))});
  }
  int64_t checksum = 0;
  report.cell_at_ns = NsPerStep(kLookups, [&] {
    for (const auto& [p, step] : lookups) {
      const absl::StatusOr<EncodedPath> view = EncodedPath::Parse(encoded[p]);
      const absl::StatusOr<Point> cell =
          view.ok() ? CellAt(*view, step) : view.status();
      if (cell.ok()) {
        checksum += cell->x;
      } else {
        timed.Update(cell.status());
      }
    }
  });
  RETURN_IF_ERROR(timed);
  if (checksum < 0) return absl::InternalError("negative coordinate");
  PathStoreOptions options;
  options.codec = codec;
  PathStore store(options);
  for (size_t i = 0; i < paths.size(); ++i) {
    RETURN_IF_ERROR(store.Set(UnitId(i), paths[i]));
  }
  report.store_bytes = store.MemoryUsage();
  return report;
}

absl::Status RunMem(const std::vector<std::string>& args) {
  // A world file, or one class of an agent world (--agent).
  ASSIGN_OR_RETURN(LoadedWorld loaded, LoadWorldFromFlags(args[0]));
  const World& world = loaded.world;
  ASSIGN_OR_RETURN(std::vector<Query> queries,
                   QueriesFromArgs(args, world.grid()));
  const PlanOptions plan_options = PlanOptionsFromFlags();
  Planner planner(world);
  std::vector<RunLengthPath> paths;
  int64_t steps = 0, runs = 0, unreachable = 0;
  const Clock::time_point plan_begin = Clock::now();
  for (const Query& q : queries) {
    RunLengthPath path;
    ASSIGN_OR_RETURN(SearchOutcome outcome,
                     planner.FindPath(q.start, q.goal, plan_options, &path));
    if (outcome != SearchOutcome::kFound) {
      ++unreachable;
      continue;
    }
    steps += path.steps();
    runs += static_cast<int64_t>(path.runs().size());
    paths.push_back(std::move(path));
  }
  const double plan_s =
      std::chrono::duration<double>(Clock::now() - plan_begin).count();
  if (paths.empty()) return absl::InvalidArgumentError("no path was found");

  std::vector<CodecReport> reports;
  for (PathCodec codec : kAllPathCodecs) {
    ASSIGN_OR_RETURN(CodecReport report, MeasureCodec(codec, paths, steps));
    reports.push_back(report);
  }
  const double raw_bytes = static_cast<double>(reports.back().bytes);
  const double n = static_cast<double>(paths.size());

  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json codecs = nlohmann::json::array();
    for (const CodecReport& r : reports) {
      codecs.push_back({{"name", std::string(PathCodecName(r.codec))},
                        {"bytes", r.bytes},
                        {"bits_per_step", 8.0 * r.bytes / steps},
                        {"ratio_vs_raw", raw_bytes / r.bytes},
                        {"encode_ns_per_step", r.encode_ns_per_step},
                        {"decode_ns_per_step", r.decode_ns_per_step},
                        {"cell_at_ns", r.cell_at_ns},
                        {"store_bytes", r.store_bytes},
                        {"store_bytes_per_unit", r.store_bytes / n}});
    }
    nlohmann::json j = {{"world", args[0]},
                        {"paths", paths.size()},
                        {"unreachable", unreachable},
                        {"steps", steps},
                        {"runs", runs},
                        {"mean_steps", steps / n},
                        {"mean_runs", runs / n},
                        {"smooth", plan_options.smooth},
                        {"smooth_by_search", plan_options.smooth_by_search},
                        {"fewer_turns", plan_options.fewer_turns},
                        {"plan_seconds", plan_s},
                        {"codecs", codecs}};
    std::printf("%s\n", j.dump().c_str());
    return absl::OkStatus();
  }
  std::printf(
      "%zu paths (%lld unreachable skipped), %lld steps in %lld runs "
      "(mean %.1f steps, %.1f runs), planned in %.2f s\n",
      paths.size(), static_cast<long long>(unreachable),
      static_cast<long long>(steps), static_cast<long long>(runs), steps / n,
      runs / n, plan_s);
  std::printf("%-11s %12s %9s %8s %10s %10s %9s %12s %9s\n", "codec", "bytes",
              "bits/step", "vs raw", "enc ns/st", "dec ns/st", "cellAt ns",
              "store bytes", "B/unit");
  for (const CodecReport& r : reports) {
    std::printf("%-11s %12zu %9.3f %7.1fx %10.2f %10.2f %9.1f %12zu %9.1f\n",
                std::string(PathCodecName(r.codec)).c_str(), r.bytes,
                8.0 * r.bytes / steps, raw_bytes / r.bytes,
                r.encode_ns_per_step, r.decode_ns_per_step, r.cell_at_ns,
                r.store_bytes, r.store_bytes / n);
  }
  return absl::OkStatus();
}

int Run(const std::vector<std::string>& args) {
  absl::Status status = RunMem(args);
  return status.ok() ? kExitOk : FailBadInput(status);
}

}  // namespace

const Command kMemCommand = {
    "mem",
    "Profile path storage: bytes and speed of each path codec.",
    "usage: zonepath mem WORLD [SCEN] [--units N] [--query-seed S] "
    "[--smooth] [--smooth-search] [--fewer-turns] [--free-crossings] [--json] "
    "[--agent CLASS]\n"
    "Plans every SCEN problem (or --units N random long queries) on WORLD\n"
    "and stores the paths in every codec and in a PathStore. On an agent\n"
    "world, --agent names the (unoriented) class; coordinates are anchors.",
    {"common_flags.cc", "planner_flags.cc", "mem_command.cc", "agent_flags.cc",
     "load_flags.cc", "memory_limit_flag.cc"},
    1,
    2,
    &Run};

}  // namespace zonepath::cli
